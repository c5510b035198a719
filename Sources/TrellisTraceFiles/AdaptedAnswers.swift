import TrellisModel
import TrellisTrace

/// Which query lines of a trace an adapted style answered in place of a custom presentation's
/// own code (SPEC §3.7; decisions.md, "An adapted custom presentation is not asked as custom").
///
/// While a custom presentation is adapted, its presentation controller (`pc:P`) answers
/// `sizeForChild` and `frameOfPresentedViewInContainerView` with the adapted style's rules and
/// does not call its behaviour or its scenario rules; the canonical line alone reads like the
/// behaviour's answer. The trace says which style is in effect, in order: `present(P, style:
/// custom)` starts P's presentation unadapted, `pc:P willPresentWithAdaptiveStyle(S)` adapts it
/// to S (`none`: back to its own style). Inspection (`trellis trace show`, `follow`) prints the
/// style after each such line, so the trace makes clear whose answer it is without changing the
/// canonical lines that goldens and `expect` steps compare.
public struct AdaptedAnswers: Sendable {
    /// The adapted style that answered each such query, by event.
    private let answeredBy: [EventRef: ModalPresentationStyle]

    /// One pass over `events` in trace order, keeping the adapted style of each custom
    /// presentation's controller (a handful at a time), whatever the trace's size.
    public init(_ events: [TraceEvent]) {
        var custom: Set<ControllerID> = []
        var adapted: [ControllerID: ModalPresentationStyle] = [:]
        var answeredBy: [EventRef: ModalPresentationStyle] = [:]
        for event in events {
            switch event.message {
            case let .present(presented, style, _):
                let pc = ControllerID.presentationController(of: presented)
                adapted[pc] = nil
                if style == .custom { custom.insert(pc) } else { custom.remove(pc) }
            case let .willPresentWithAdaptiveStyle(style) where custom.contains(event.controller):
                adapted[event.controller] = style == .none ? nil : style
            case .sizeForChild, .frameOfPresentedView:
                if let style = adapted[event.controller] { answeredBy[event.id] = style }
            default:
                break
            }
        }
        self.answeredBy = answeredBy
    }

    /// The adapted style that answered `event`, nil when it is not such a query.
    public func style(answering event: TraceEvent) -> ModalPresentationStyle? {
        answeredBy.isEmpty ? nil : answeredBy[event.id]
    }

    /// `line` (the event's printed line), followed by whose answer it is when an adapted style
    /// answered it.
    public func annotated(_ line: String, _ event: TraceEvent) -> String {
        guard let style = style(answering: event) else { return line }
        return line + "  (answered by the adapted style \(style.rawValue), not the custom presentation's code)"
    }
}
