import Synchronization
import TrellisModel
import TrellisTrace

/// What a behaviour may ask its controller to do from any hook (SPEC §4.2): UIKit code presents
/// on a tap, dismisses when the dimming view is tapped, moves the presented view when the
/// keyboard shows. A request is recorded when it is made (a `request` event caused by the hook's
/// event) and carried out by the window once the event being handled is done, in order, under
/// the rules of the scenario step it stands for (`BehaviorRequests.outcome`).
public enum BehaviorRequest: Sendable, Hashable, CustomStringConvertible {
    /// `present(_:animated:)` from the requester (a presentation controller: its presented controller).
    case present(ControllerID, animated: Bool, style: ModalPresentationStyle?)
    /// `dismiss(animated:)`: a view controller dismisses what it presents, or itself (R43–R46); a
    /// presentation controller dismisses its presented controller (`presentingViewController.dismiss`).
    case dismiss(animated: Bool)
    /// `show(_:sender:)` from the requester (R55).
    case show(ControllerID)
    /// `showDetailViewController(_:sender:)` from the requester (R56, R57).
    case showDetail(ControllerID)
    /// A view controller sets its own `preferredContentSize` (R22).
    case setPreferredContentSize(Size)
    /// A container sets (nil: removes) a child's override traits (R17).
    case setTraitOverride(child: ControllerID, traits: TraitCollection?)
    /// A presentation controller sets its presented view's frame directly (keyboard avoidance,
    /// dragging), in the container view's coordinates.
    case setPresentedViewFrame(Rect)
    /// A view controller's `view.setNeedsLayout()`: its layout pass runs, with its callbacks, at
    /// the frame it has (after a change of traits its layout reads, say).
    case setNeedsLayout

    /// The text of the `request` trace event: the request as the step that stands for it reads.
    public var description: String {
        switch self {
        case let .present(presented, animated, style):
            return "present \(presented)" + (style.map { " style: \($0.rawValue)" } ?? "") + (animated ? " animated" : "")
        case let .dismiss(animated): return "dismiss" + (animated ? " animated" : "")
        case let .show(shown): return "show \(shown)"
        case let .showDetail(shown): return "showDetail \(shown)"
        case let .setPreferredContentSize(size): return "setPreferredContentSize \(size)"
        case let .setTraitOverride(child, traits):
            return "setTraitOverride child \(child) " + (traits.map(\.specifiedDescription) ?? "removed")
        case let .setPresentedViewFrame(frame): return "setPresentedViewFrame \(frame)"
        case .setNeedsLayout: return "setNeedsLayout"
        }
    }
}

/// A request waiting for the window: who made it, what it is, and its `request` event (the cause
/// of everything carrying it out leads to).
public struct QueuedRequest: Sendable, Hashable {
    /// The controller whose behaviour asked.
    public var requester: ControllerID
    /// What it asked for.
    public var request: BehaviorRequest
    /// Its `request` event: the cause of everything carrying it out does.
    public var event: EventRef

    /// A request `requester` made, recorded as `event`.
    public init(requester: ControllerID, request: BehaviorRequest, event: EventRef) {
        self.requester = requester
        self.request = request
        self.event = event
    }
}

/// The requests of one window in the order they were made. Behaviours run on the window's actors
/// and a transport's handlers off them, so the queue has a lock of its own; it is touched only
/// when a behaviour makes a request and once when an event ends, never on a message's hop.
final class BehaviorRequestQueue: Sendable {
    private let queued = Mutex<[QueuedRequest]>([])
    /// How many wait, readable without the lock: a node checks it around every call it serves
    /// or sends (its requests go to the conductor's window first), and almost always finds none.
    private let waiting = Atomic<Int>(0)

    var isEmpty: Bool { waiting.load(ordering: .acquiring) == 0 }

    func append(_ request: QueuedRequest) {
        queued.withLock { queue in
            queue.append(request)
            waiting.store(queue.count, ordering: .releasing)
        }
    }

    /// The oldest request, removed; nil when none is waiting.
    func next() -> QueuedRequest? {
        guard !isEmpty else { return nil }
        return queued.withLock { queue in
            defer { waiting.store(queue.count, ordering: .releasing) }
            return queue.isEmpty ? nil : queue.removeFirst()
        }
    }

    /// Drops every waiting request; returns how many there were.
    func removeAll() -> Int {
        queued.withLock { queue in
            defer {
                queue.removeAll()
                waiting.store(0, ordering: .releasing)
            }
            return queue.count
        }
    }
}

/// SPEC §4.2's rules for carrying a request out: what scenario step it stands for, given who made
/// it and the window's structure when it is carried out.
public enum BehaviorRequests {
    /// What the window does with a request.
    public enum Outcome: Sendable, Equatable {
        /// The same as this step (R28–R57 decide, with their warnings and errors).
        case event(WindowEvent)
        /// The presentation controller of `presented` gives its presented view `frame`.
        case presentedViewFrame(presented: ControllerID, frame: Rect)
        /// The view controller lays out again at its frame (`setNeedsLayout`).
        case layOutAgain(ControllerID)
        /// Refused: the warning to record under the requester.
        case refused(String)
    }

    /// The most requests one window event may lead to, counting the requests their own handling
    /// makes: a behaviour that requests something in every layout pass it causes would otherwise
    /// never let the step end.
    public static let limitPerEvent = 1000

    /// The step `request` from `requester` stands for. A presentation controller (`pc:P`) acts
    /// through its presented controller P: it presents and shows from P, and dismisses P from
    /// P's presenter; only a view controller has a preferred size and children to override.
    public static func outcome(of request: BehaviorRequest, from requester: ControllerID, in structure: HierarchyStructure) -> Outcome {
        let presented = presentedID(ofPresentationController: requester)
        let actor = presented ?? requester
        switch request {
        case let .present(shown, animated, style): return .event(.present(shown, from: actor, animated: animated, style: style))
        case let .show(shown): return .event(.show(shown, from: actor))
        case let .showDetail(shown): return .event(.showDetail(shown, from: actor))
        case let .dismiss(animated):
            guard let presented else { return .event(.dismiss(requester, animated: animated)) }
            guard let presenter = structure[presented]?.presenting else {
                return .refused("dismiss: \(requester) presents nothing (\(presented) is not presented)")
            }
            return .event(.dismiss(presenter, animated: animated))
        case let .setPreferredContentSize(size):
            guard presented == nil else { return .refused("setPreferredContentSize: \(requester) is not a view controller") }
            if let problem = BehaviorGeometry.problem(with: size) { return .refused("setPreferredContentSize: \(size) is not a size: \(problem)") }
            return .event(.setPreferredContentSize(requester, size))
        case let .setTraitOverride(child, traits):
            guard presented == nil else { return .refused("setTraitOverride: \(requester) is not a view controller") }
            guard structure[requester]?.children.contains(child) == true else {
                return .refused("setTraitOverride: \(child) is not a child of \(requester)")
            }
            return .event(.setTraitOverride(container: requester, child: child, traits: traits))
        case let .setPresentedViewFrame(frame):
            guard let presented else { return .refused("setPresentedViewFrame: \(requester) is not a presentation controller") }
            if let problem = BehaviorGeometry.problem(with: frame) { return .refused("setPresentedViewFrame: \(frame) is not a frame: \(problem)") }
            guard structure[presented]?.presenting != nil else {
                return .refused("setPresentedViewFrame: \(presented) is not presented")
            }
            return .presentedViewFrame(presented: presented, frame: frame)
        case .setNeedsLayout:
            guard presented == nil else { return .refused("setNeedsLayout: \(requester) is not a view controller") }
            return .layOutAgain(requester)
        }
    }

    /// P for `pc:P`; nil for a view controller.
    public static func presentedID(ofPresentationController id: ControllerID) -> ControllerID? {
        id.name.hasPrefix("pc:") ? ControllerID(String(id.name.dropFirst(3))) : nil
    }
}

/// What a behaviour's context can ask of the window (SPEC §4.2), for view controllers and
/// presentation controllers alike: the requests both may make are written once, here.
public protocol BehaviorRequester: Actor {
    /// Asks the window to do something (SPEC §4.2): recorded now as a `request` event caused by
    /// the hook being handled, carried out once the window event being handled is done.
    func request(_ request: BehaviorRequest)
}

extension BehaviorRequester {
    /// `present(_:animated:)` (a presentation controller: its presented controller's), carried
    /// out after the current event as the step `present` would be: a refused presentation is the
    /// same R30/R31 warning or error.
    public func present(_ controller: ControllerID, animated: Bool = true, style: ModalPresentationStyle? = nil) {
        request(.present(controller, animated: animated, style: style))
    }

    /// `dismiss(animated:)`: what this controller presents, or itself (R43–R46); a presentation
    /// controller dismisses its presented controller and what that presents. After the current
    /// event; with nothing to dismiss, a warning.
    public func dismiss(animated: Bool = true) {
        request(.dismiss(animated: animated))
    }

    /// `show(_:sender:)`, after the current event.
    public func show(_ controller: ControllerID) {
        request(.show(controller))
    }

    /// `showDetailViewController(_:sender:)`, after the current event.
    public func showDetail(_ controller: ControllerID) {
        request(.showDetail(controller))
    }

    /// `view.setNeedsLayout()` (a view controller's): after the current event its layout pass
    /// runs at the frame it has, `viewWillLayoutSubviews` and `viewDidLayoutSubviews` included —
    /// what UIKit code asks for when something its layout reads changed without a new size (a
    /// trait in `traitCollectionDidChange`). A presentation controller's is refused with a warning.
    public func setNeedsLayout() {
        request(.setNeedsLayout)
    }
}
