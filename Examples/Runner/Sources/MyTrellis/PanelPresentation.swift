import TrellisModel
import TrellisRuntime

/// A fixed-size panel in the middle of the screen, as WWDC 2014's "cool" presentation: 300
/// points wide, 400 high where the height is regular and 200 where it is compact.
struct PanelPresentation: PresentationControllerBehavior {
    /// The traits `willTransition` announced: the presentation controller's own
    /// `traitCollection` is still the old one when the size is asked for (R14).
    enum IncomingTraits: BehaviorStateKey {
        static let initialValue: TraitCollection? = nil
    }

    static let width = 300.0

    static func height(for traits: TraitCollection) -> Double {
        traits.verticalSizeClass == .compact ? 200 : 400
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        pc.state[IncomingTraits.self] = traits
        await pc.superWillTransition(to: traits, with: coordinator)
    }

    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(Self.width, Self.height(for: pc.state[IncomingTraits.self] ?? pc.traitCollection))
    }

    /// Centred again on every layout pass: UIKit's own `containerViewWillLayoutSubviews` would
    /// leave the panel where it was, stretched with the container on rotation (R63).
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }

    /// The size it gave, centred in the container view.
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let size = pc.presentedViewSize
        return Rect(x: bounds.midX - size.width / 2, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
    }
}
