import TrellisModel
import TrellisTrace

/// One contained controller as its container knows it: the size the container gave it and,
/// during a transition, the size announced to it and not yet applied by the layout pass. Where
/// the container put it (R61) is kept apart (`Controller.childOrigins`): most containers put
/// every child at (0,0), and a slot is read on every hop of a large hierarchy.
struct ChildSlot {
    /// The contained controller's current size as set by the container's layout (R4 compares against it).
    var size: Size = .zero
    /// The size announced by this transition's `viewWillTransition`, applied at layout.
    var announced: Size?
    /// Whether this pass's trait walk reached it (so `traitCollectionDidChange` follows).
    var traitWalked = false
    /// Whether the container's behaviour set its frame in this layout pass
    /// (`ViewControllerContext.setFrame`): the runtime then neither sizes nor places it itself
    /// until the pass ends. In what was padding: the slot is no larger.
    var framedByLayout = false
    /// The contained controller's name, interned in the trace recorder (its `sizeForChild` events name it).
    /// The controller itself is not here: a slot is plain data (40 bytes a stride, copied without
    /// retaining anything), and its holder keeps the endpoint beside it. Declared last, after the
    /// announced size's tag byte and the two flags, it takes their padding: first, it left 4
    /// bytes of padding before `size` and the slot was 48 bytes a stride (issue 27 item 7).
    let name: TraceName

    init(_ endpoint: any ControllerEndpoint, recorder: TraceRecorder, size: Size = .zero) {
        self.name = recorder.intern(endpoint.id)
        self.size = size
    }
}
