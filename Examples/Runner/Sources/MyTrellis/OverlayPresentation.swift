import TrellisModel
import TrellisRuntime

/// A sidebar over the right third of the screen, as WWDC 2014's "LookInside" overlay: a
/// `custom` presentation over a dimming view, a third of the container's width rounded down,
/// right-aligned, laid out again at every layout pass, and gone when the dimming view is tapped.
struct OverlayPresentation: PresentationControllerBehavior {
    /// A third of the width, in whole points (the original divides and floors).
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size((parentSize.width / 3).rounded(.down), parentSize.height)
    }

    /// Against the right edge of the container view, full height.
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let width = (bounds.size.width / 3).rounded(.down)
        return Rect(x: bounds.maxX - width, y: bounds.minY, width: width, height: bounds.size.height)
    }

    /// Puts the presented view back at `frameOfPresentedViewInContainerView` on every layout
    /// pass (traced as the frame query), so a rotation moves it to the new edge. UIKit's own
    /// `containerViewWillLayoutSubviews` would leave it where it was, only autoresized (R63):
    /// that is why the original overrides it.
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }

    /// A tap on the dimming view dismisses the sidebar.
    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        guard action == "dimmingViewTapped" else { return false }
        pc.dismiss(animated: true)
        return true
    }
}
