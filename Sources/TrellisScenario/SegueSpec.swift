import TrellisModel

/// A storyboard segue as a scenario declares it (SPEC §11 `segues`): what `performSegue` does
/// and to what. `trellis import` and the `"storyboard"` field produce these from Interface
/// Builder's `<segue>` elements; a scenario file may also write them by hand.
public struct SegueSpec: Sendable, Equatable {
    /// The segue's id: its key in `segues`, what a `performSegue` step names.
    public var id: String
    /// What performing it does: present, show, showDetail, unwind… (SPEC §11's kinds).
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

    /// A segue of `kind` from `from`'s scene to `destination`, with no style, anchor or class.
    public init(id: String, kind: SegueKind, from: ControllerID, destination: ControllerID?) {
        self.id = id
        self.kind = kind
        self.from = from
        self.destination = destination
    }
}

/// A segue's `kind`, in the storyboard's own words (SPEC §11).
public enum SegueKind: String, Sendable, Equatable, CaseIterable {
    /// Presents the destination modally (iOS 8 and later).
    case presentation
    /// Presents the destination as a popover from the segue's anchor.
    case popoverPresentation
    /// `show(_:sender:)` from the source (R55).
    case show
    /// `showDetailViewController(_:sender:)` from the source (R56, R57).
    case showDetail
    /// Pre-iOS 8 push: performed as `show`.
    case push
    /// Pre-iOS 8 modal: performed as `presentation`.
    case modal
    /// Dismisses the presented controller that holds the source (R43–R46).
    case unwind
    /// A `UIStoryboardSegue` subclass: performed only when the runner registers its class.
    case custom

    /// Whether a `style`/`transitionStyle` may go with the segue: the presenting kinds, and a
    /// custom segue, whose class may present.
    var presents: Bool {
        switch self {
        case .presentation, .popoverPresentation, .modal, .custom: return true
        case .show, .showDetail, .push, .unwind: return false
        }
    }
}
