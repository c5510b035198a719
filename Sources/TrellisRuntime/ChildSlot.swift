import TrellisModel
import TrellisTrace

/// One contained controller as its container knows it: the frame the container gave it and,
/// during a transition, the size announced to it and not yet applied by the layout pass.
struct ChildSlot {
    /// The contained controller's name, interned in the trace recorder (its `sizeForChild` events name it).
    let name: TraceName
    let endpoint: any ControllerEndpoint
    /// The contained controller's current size as set by the container's layout (R4 compares against it).
    var frame: Size = .zero
    /// The size announced by this transition's `viewWillTransition`, applied at layout.
    var announced: Size?
    /// Whether this pass's trait walk reached it (so `traitCollectionDidChange` follows).
    var traitWalked = false

    init(id: ControllerID, endpoint: any ControllerEndpoint, recorder: TraceRecorder, frame: Size = .zero) {
        self.name = recorder.intern(id)
        self.endpoint = endpoint
        self.frame = frame
    }

    /// The contained controller's id (not kept here: a slot is read on every hop, the id rarely).
    var id: ControllerID { endpoint.id }
}

/// The message a controller or presentation controller is handling: its event (the cause of
/// what it leads to), its transition, and what the behaviour did about super.
struct Delivery {
    var message: String
    var cause: EventRef
    var transition: TransitionInfo?
    var superCalled = false
    /// Slots forwarded to by manual forwarding; `presentationSlot` stands for the presentation edge.
    var forwarded: Set<Int> = []

    static let presentationSlot = -1
}
