import Synchronization
import TrellisModel
import TrellisRuntime
import TrellisTrace

/// What reached a probe: one entry per message, in order.
public enum ProbeCall: Sendable, Equatable {
    /// `viewWillTransition(to:with:)`, with the size it was given.
    case viewWillTransition(Size)
    /// A trait transition; `delivered` is false when it only carried traits below a suppression.
    case traitTransition(TraitCollection, delivered: Bool)
    /// `traitCollectionDidChange(_:)`.
    case traitCollectionDidChange
    /// A layout pass (`viewWillLayoutSubviews` and `viewDidLayoutSubviews`).
    case layout
    /// `preferredContentSizeDidChange(forChildContentContainer:)`, from a child of the probe.
    case preferredContentSizeDidChange(child: ControllerID, preferredSize: Size)
    /// `systemLayoutFittingSizeDidChange(forChildContentContainer:)`, from a child of the probe.
    case systemLayoutFittingSizeDidChange(child: ControllerID)
    /// An appearance callback (`viewWillAppear` and the like).
    case appearance(AppearanceCallback)
}

/// The calls that reached every probe of one controller under test, in order.
final class ProbeLog: Sendable {
    private let calls = Mutex<[(ControllerID, ProbeCall)]>([])

    func append(_ probe: ControllerID, _ call: ProbeCall) {
        calls.withLock { $0.append((probe, call)) }
    }

    var count: Int { calls.withLock { $0.count } }

    func entries(from start: Int) -> [(ControllerID, ProbeCall)] {
        calls.withLock { Array($0[min(start, $0.count)...]) }
    }
}

/// Stands in for a child, the container or the presentation controller of the controller under
/// test: records what reaches it (as trace lines, too) and forwards nothing.
actor ProbeEndpoint: ControllerEndpoint {
    nonisolated let id: ControllerID
    let recorder: TraceRecorder
    let calls: ProbeLog

    init(_ id: ControllerID, recorder: TraceRecorder, log: ProbeLog) {
        self.id = id
        self.recorder = recorder
        self.calls = log
    }

    private func log(_ call: ProbeCall) {
        calls.append(id, call)
    }

    func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async {
        recorder.record(.viewWillTransition(to: size), controller: id, cause: cause, transition: transition.id)
        log(.viewWillTransition(size))
    }

    func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        if deliver { recorder.record(.willTransition(to: traits), controller: id, cause: cause, transition: transition.id) }
        log(.traitTransition(traits, delivered: deliver))
    }

    func applyPendingTraits(cause: EventRef?) async {
        log(.traitCollectionDidChange)
    }

    func layout(frame: Rect, cause: EventRef?) async {
        log(.layout)
    }

    func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async {
        recorder.record(.preferredContentSizeDidChange(child: child), controller: id, cause: cause)
        log(.preferredContentSizeDidChange(child: child, preferredSize: preferredSize))
    }

    func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async {
        recorder.record(.systemLayoutFittingSizeDidChange(child: child), controller: id, cause: cause)
        log(.systemLayoutFittingSizeDidChange(child: child))
    }

    func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async {}

    func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        log(.appearance(callback))
    }

    func refresh(frame: Rect, traits: TraitCollection, cause: EventRef?) async {}

    func setContainer(_ container: (any ControllerEndpoint)?) async {}
}
