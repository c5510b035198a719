import TrellisModel
import TrellisRuntime

/// A container showing its first child in a column of a third of its width (rounded down) and
/// its second child in the rest, side by side (the file lays them out in a `row`).
struct SideBySideContainer: ViewControllerBehavior {
    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        let column = (parentSize.width / 3).rounded(.down)
        return child == vc.children.first
            ? Size(column, parentSize.height)
            : Size(parentSize.width - column, parentSize.height)
    }
}

/// Presents over the whole screen in compact width, as it was asked for elsewhere.
struct SlideOverDelegate: AdaptivePresentationDelegate {
    func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        traits.horizontalSizeClass == .compact ? .style(.overFullScreen) : .style(.none)
    }
}
