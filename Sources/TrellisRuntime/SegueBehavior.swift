import TrellisModel

/// What performing a custom segue does (SPEC §11), registered by a runner under the segue's
/// `customClass` (`BehaviorRegistry.segue(_:_:)`): a `UIStoryboardSegue` subclass's `perform()`
/// is Swift code Trellis cannot run, so the runner says which call on the source it stands for.
/// The destination is still a fresh copy (`DEST~N`), as UIKit instantiates it before `perform()`.
public enum SegueBehavior: Sendable, Equatable {
    /// The source presents the copy: in `style` if given, else the segue's, else the
    /// destination's (a fade or zoom transition is a presentation with its own animation).
    case present(style: ModalPresentationStyle?)
    /// `source.show(copy, sender:)` (R55), as a custom push does.
    case show
    /// `source.showDetailViewController(copy, sender:)` (R56, R57).
    case showDetail
    /// The presented controller that holds the source is dismissed (R43–R46), as a custom
    /// unwind segue does.
    case unwind
}
