import TrellisModel

/// What an adaptive delegate puts in the presented controller's place while adapted (R49):
/// UIKit's `presentationController(_:viewControllerForAdaptivePresentationStyle:)`.
public enum AdaptiveReplacement: Sendable, Hashable {
    /// A navigation controller (`wrap:P`) with the presented controller as its root.
    case navigationController
}

/// The adaptive presentation delegate of a presentation, as code (R48, R49): UIKit's
/// `UIAdaptivePresentationControllerDelegate`. It runs on the presentation controller's actor
/// and sees the traits of the environment the presentation adapts to.
public protocol AdaptivePresentationDelegate: Sendable {
    /// `adaptivePresentationStyle(for:traitCollection:)`: the style to adapt to in `traits`, or
    /// nil when not implemented (the profile's default applies). An answer other than
    /// fullScreen, overFullScreen, formSheet or none falls back to the default (R48).
    func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer?
    /// `presentationController(_:viewControllerForAdaptivePresentationStyle:)`: what to show in
    /// the presented controller's place while adapted to `style`; nil: the presented controller.
    func viewControllerForAdaptivePresentationStyle(_ style: ModalPresentationStyle, in pc: isolated any PresentationControllerContext) -> AdaptiveReplacement?
}

extension AdaptivePresentationDelegate {
    public func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        nil
    }

    public func viewControllerForAdaptivePresentationStyle(_ style: ModalPresentationStyle, in pc: isolated any PresentationControllerContext) -> AdaptiveReplacement? {
        nil
    }
}

/// A scenario file's delegate: the same answer in every environment.
extension AdaptiveDelegate: AdaptivePresentationDelegate {
    public func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        answer
    }

    public func viewControllerForAdaptivePresentationStyle(_ style: ModalPresentationStyle, in pc: isolated any PresentationControllerContext) -> AdaptiveReplacement? {
        wrapsInNavigationController ? .navigationController : nil
    }
}
