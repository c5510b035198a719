import TrellisModel

/// A storyboard segue as a scenario declares it (SPEC §11 `segues`): what `performSegue` does
/// and to what. `trellis import` and the `"storyboard"` field produce these from Interface
/// Builder's `<segue>` elements; a scenario file may also write them by hand.
public struct SegueSpec: Sendable, Equatable {
    /// The segue's id: its key in `segues`, what a `performSegue` step names.
    public var id: String
    public var kind: SegueKind
    /// The controller of the segue's source scene.
    public var from: ControllerID
    /// The controller whose subtree each performance copies (`DEST~N`); nil only for an unwind
    /// segue whose target is not statically known.
    public var destination: ControllerID?
    /// The presentation's `modalPresentationStyle`, in place of the destination's.
    public var style: ModalPresentationStyle?
    /// The presentation's `modalTransitionStyle`, in place of the destination's.
    public var transitionStyle: ModalTransitionStyle?
    /// Where a popover segue points from: a rect in the coordinates of a controller's view.
    public var anchor: PopoverSourceSpec?
    /// The `UIStoryboardSegue` subclass of a `custom` segue.
    public var customClass: String?

    public init(id: String, kind: SegueKind, from: ControllerID, destination: ControllerID?) {
        self.id = id
        self.kind = kind
        self.from = from
        self.destination = destination
    }
}

/// A segue's `kind`, in the storyboard's own words (SPEC §11).
public enum SegueKind: String, Sendable, Equatable, CaseIterable {
    case presentation, popoverPresentation, show, showDetail, push, modal, unwind, custom

    /// Whether a `style`/`transitionStyle` may go with the segue: the presenting kinds, and a
    /// custom segue, whose class may present.
    var presents: Bool {
        switch self {
        case .presentation, .popoverPresentation, .modal, .custom: return true
        case .show, .showDetail, .push, .unwind: return false
        }
    }
}
