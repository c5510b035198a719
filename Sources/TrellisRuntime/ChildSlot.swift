import TrellisModel
import TrellisTrace

/// One contained controller as its container knows it: the frame the container gave it and,
/// during a transition, the size announced to it and not yet applied by the layout pass.
struct ChildSlot {
    /// The contained controller's name, interned in the trace recorder (its `sizeForChild` events name it).
    /// The controller itself is not here: a slot is plain data (56 bytes, copied without
    /// retaining anything), and its holder keeps the endpoint beside it.
    let name: TraceName
    /// The contained controller's current size as set by the container's layout (R4 compares against it).
    var size: Size = .zero
    /// Where the container put it, in the container's coordinates (R61).
    var origin: Point = .zero
    /// The size announced by this transition's `viewWillTransition`, applied at layout.
    var announced: Size?
    /// Whether this pass's trait walk reached it (so `traitCollectionDidChange` follows).
    var traitWalked = false

    init(_ endpoint: any ControllerEndpoint, recorder: TraceRecorder, frame: Rect = .zero) {
        self.name = recorder.intern(endpoint.id)
        self.size = frame.size
        self.origin = frame.origin
    }

    /// The frame the container gave it (R60).
    var frame: Rect {
        get { Rect(origin: origin, size: size) }
        set {
            origin = newValue.origin
            size = newValue.size
        }
    }
}
