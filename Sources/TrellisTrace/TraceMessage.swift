import TrellisModel

/// The four layout callbacks of SPEC R10: a view controller's and a presentation controller's.
public enum LayoutCallback: String, Sendable, CaseIterable {
    case viewWillLayoutSubviews, viewDidLayoutSubviews
    case containerViewWillLayoutSubviews, containerViewDidLayoutSubviews
}

/// UIKit's appearance callbacks (SPEC R42).
public enum AppearanceCallback: String, Sendable, CaseIterable {
    case viewWillAppear, viewDidAppear, viewWillDisappear, viewDidDisappear
}

/// A presentation controller's transition callbacks (SPEC R42).
public enum PresentationCallback: String, Sendable, CaseIterable {
    case presentationTransitionWillBegin, presentationTransitionDidEnd
    case dismissalTransitionWillBegin, dismissalTransitionDidEnd

    /// What the callback's value is: `animated` for the `WillBegin` callbacks, `completed` for
    /// the `DidEnd` ones (the canonical text's label and the capture's payload key).
    public var valueName: String {
        switch self {
        case .presentationTransitionWillBegin, .dismissalTransitionWillBegin: return "animated"
        case .presentationTransitionDidEnd, .dismissalTransitionDidEnd: return "completed"
        }
    }
}

/// What happened in one trace event. Its canonical text (SPEC §6) is `canonicalText`.
public enum TraceMessage: Sendable, Equatable {
    /// The header of a scenario step: `== step N: <step>`.
    case step(number: Int, description: String)
    /// `viewWillTransition(to:with:)` delivered.
    case viewWillTransition(to: Size)
    /// `size(forChildContentContainer:withParentContainerSize:)` asked, with its answer.
    case sizeForChild(child: ControllerID, parent: Size, answer: Size)
    /// A presentation controller asked itself `frameOfPresentedViewInContainerView` in its
    /// layout pass (R63), with the answer, in its container view's coordinates.
    case frameOfPresentedView(Rect)
    /// `willTransition(to:with:)` (traits) delivered.
    case willTransition(to: TraitCollection)
    /// `traitCollectionDidChange(_:)` delivered after the new traits were applied.
    case traitCollectionDidChange(previous: TraitCollection)
    /// `preferredContentSizeDidChange(forChildContentContainer:)` received by a container.
    case preferredContentSizeDidChange(child: ControllerID)
    /// `systemLayoutFittingSizeDidChange(forChildContentContainer:)` received by a container.
    case systemLayoutFittingSizeDidChange(child: ControllerID)
    /// An override did not call super (SPEC R8): `message` was not forwarded to `cut`.
    case suppressed(message: String, cut: [ControllerID])
    /// A layout callback (SPEC R10); `viewWillLayoutSubviews` carries the frame the controller's
    /// container gave it in this pass (R60), `containerViewWillLayoutSubviews` the container
    /// view's bounds; the canonical line does not show them.
    case layout(LayoutCallback, frame: Rect? = nil)
    /// A transition coordinator's alongside block ran (at the transition's end).
    case alongsideTransition(transition: Int)
    /// A transition coordinator's completion block ran (at the transition's end).
    case transitionCompletion(transition: Int)
    /// Something UIKit would log and carry on from.
    case warning(String)
    /// A refused operation: state unchanged.
    case error(String)
    /// A failure of the runtime or transport.
    case fault(String)
    /// A line a behaviour wrote with `note(_:)`, for tests and inspection.
    case note(String)
    /// An appearance callback (R42).
    case appearance(AppearanceCallback)
    /// A presentation controller's transition callback; `value` is `animated` for the
    /// `WillBegin` callbacks and `completed` for the `DidEnd` ones.
    case presentationTransition(PresentationCallback, value: Bool)
    /// The receiver (the presenter, after rerouting) presents `presented` with `style`.
    case present(ControllerID, style: ModalPresentationStyle, transitionStyle: ModalTransitionStyle)
    /// The receiver (the presenter that keeps its place) dismisses `presented` and what is above it.
    case dismiss(ControllerID)
    /// A presentation controller asked for the adaptive style (R48): its answer, after validation.
    case adaptivePresentationStyle(ModalPresentationStyle)
    /// R49: `presentationController(_:willPresentWithAdaptiveStyle:transitionCoordinator:)`.
    case willPresentWithAdaptiveStyle(ModalPresentationStyle)
    /// A `present` or `dismiss` completion handler ran, on the controller it was called on.
    case completion(action: String, ControllerID)
    /// `show(_:sender:)` / `showDetailViewController(_:sender:)` called on the receiver.
    case show(ControllerID, detail: Bool)
    /// A navigation controller pushed or popped a child.
    case push(ControllerID)
    case pop(ControllerID)
    /// A split view controller replaced its secondary column (R56).
    case replaceDetail(ControllerID)
    /// A tab bar controller selected a child.
    case select(ControllerID, index: Int)
    /// A user action delivered to a behaviour (SPEC §4.2, the `action` step); `value` is its JSON
    /// value in compact form, "" when it has none.
    case action(name: String, value: String)
    /// A request a behaviour made of its context (SPEC §4.2): present, dismiss, show, showDetail,
    /// a preferred size, a child's trait override, the presented view's frame. Caused by the
    /// event of the hook that made it; what carrying it out leads to is caused by it.
    case request(String)

    /// The event category stored in the capture format (`kind`).
    public var kind: String {
        switch self {
        case .step: return "step"
        case .viewWillTransition, .willTransition, .traitCollectionDidChange,
             .preferredContentSizeDidChange, .systemLayoutFittingSizeDidChange:
            return "delivery"
        case .sizeForChild, .frameOfPresentedView: return "query"
        case .suppressed: return "suppression"
        case .layout: return "layout"
        case .alongsideTransition, .transitionCompletion: return "coordinator"
        case .warning: return "warning"
        case .error: return "error"
        case .fault: return "fault"
        case .note: return "note"
        case .appearance: return "appearance"
        case .presentationTransition, .adaptivePresentationStyle, .willPresentWithAdaptiveStyle: return "presentation"
        case .present, .dismiss, .completion, .show, .push, .pop, .replaceDetail, .select: return "structure"
        case .action: return "delivery"
        case .request: return "request"
        }
    }

    /// The message name: the word after the receiver in canonical text.
    public var name: String {
        switch self {
        case .step: return "step"
        case .viewWillTransition: return "viewWillTransition"
        case .sizeForChild: return "sizeForChild"
        case .frameOfPresentedView: return "frameOfPresentedViewInContainerView"
        case .willTransition: return "willTransition"
        case .traitCollectionDidChange: return "traitCollectionDidChange"
        case .preferredContentSizeDidChange: return "preferredContentSizeDidChange"
        case .systemLayoutFittingSizeDidChange: return "systemLayoutFittingSizeDidChange"
        case .suppressed: return "suppressed"
        case let .layout(callback, _): return callback.rawValue
        case .alongsideTransition: return "alongsideTransition"
        case .transitionCompletion: return "transitionCompletion"
        case .warning: return "warning"
        case .error: return "error"
        case .fault: return "fault"
        case .note: return "note"
        case let .appearance(callback): return callback.rawValue
        case let .presentationTransition(callback, _): return callback.rawValue
        case .present: return "present"
        case .dismiss: return "dismiss"
        case .adaptivePresentationStyle: return "adaptivePresentationStyle"
        case .willPresentWithAdaptiveStyle: return "willPresentWithAdaptiveStyle"
        case let .completion(action, _): return action + "Completion"
        case let .show(_, detail): return detail ? "showDetail" : "show"
        case .push: return "push"
        case .pop: return "pop"
        case .replaceDetail: return "replaceDetail"
        case .select: return "select"
        case .action: return "action"
        case .request: return "request"
        }
    }

    /// The text after `<receiver> ` in a canonical line.
    public var canonicalText: String {
        switch self {
        case let .step(number, description): return "== step \(number): \(description)"
        case let .viewWillTransition(size): return "viewWillTransition(to: \(size))"
        case let .sizeForChild(child, parent, answer): return "sizeForChild(\(child), parent: \(parent)) -> \(answer)"
        case let .frameOfPresentedView(frame): return "frameOfPresentedViewInContainerView -> \(frame)"
        case let .willTransition(traits): return "willTransition(to: \(traits))"
        case let .traitCollectionDidChange(previous): return "traitCollectionDidChange(previous: \(previous))"
        case let .preferredContentSizeDidChange(child): return "preferredContentSizeDidChange(forChild: \(child))"
        case let .systemLayoutFittingSizeDidChange(child): return "systemLayoutFittingSizeDidChange(forChild: \(child))"
        case let .suppressed(message, cut):
            let list = cut.isEmpty ? "none" : cut.map(\.name).joined(separator: ", ")
            return "suppressed \(message) (cut: \(list))"
        case let .layout(callback, _): return callback.rawValue
        case .alongsideTransition: return "alongsideTransition"
        case .transitionCompletion: return "transitionCompletion"
        case let .warning(text): return "warning " + Self.oneLine(text)
        case let .error(text): return "error " + Self.oneLine(text)
        case let .fault(text): return "fault " + Self.oneLine(text)
        case let .note(text): return "note " + Self.oneLine(text)
        case let .appearance(callback): return callback.rawValue
        case let .presentationTransition(callback, value): return "\(callback.rawValue)(\(callback.valueName): \(value))"
        case let .present(presented, style, _): return "present(\(presented), style: \(style.rawValue))"
        case let .dismiss(presented): return "dismiss(\(presented))"
        case let .adaptivePresentationStyle(style): return "adaptivePresentationStyle -> " + style.rawValue
        case let .willPresentWithAdaptiveStyle(style): return "willPresentWithAdaptiveStyle(\(style.rawValue))"
        case let .completion(action, target): return "\(action)Completion(\(target))"
        case let .show(shown, detail): return (detail ? "showDetail(" : "show(") + "\(shown))"
        case let .push(child): return "push(\(child))"
        case let .pop(child): return "pop(\(child))"
        case let .replaceDetail(child): return "replaceDetail(\(child))"
        case let .select(child, index): return "select(\(child), index: \(index))"
        case let .action(name, value): return "action(\(Self.oneLine(name))" + (value.isEmpty ? ")" : ", value: \(Self.oneLine(value)))")
        case let .request(text): return "request " + Self.oneLine(text)
        }
    }

    /// The frame a layout event carries (R60), if any: `trellis trace show --frames` prints it.
    public var frame: Rect? {
        if case let .layout(_, frame) = self { return frame }
        return nil
    }

    /// Free text on one canonical line: line breaks and backslashes escaped.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\\" }) else { return text }
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character.isNewline ? " " : character)
            }
        }
        return out
    }
}
