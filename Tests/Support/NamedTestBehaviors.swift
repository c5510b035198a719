import TrellisModel
import TrellisRuntime

/// Swift behaviours the tests name in scenario files, registered both by the tests' runner
/// (`trellis-test-runner`) and by the scenario tests: one copy of each.

/// A right-aligned third of the container, floored, as WWDC 2014's sidebar.
public struct Third: PresentationControllerBehavior {
    public init() {}

    public func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size((parentSize.width / 3).rounded(.down), parentSize.height)
    }

    public func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let width = (bounds.size.width / 3).rounded(.down)
        return Rect(x: bounds.size.width - width, y: 0, width: width, height: bounds.size.height)
    }

    /// The original's override: the frame again on every layout pass (R63).
    public func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }
}

/// Notes each layout pass: a line in the trace that only Swift code writes.
public struct Noting: ViewControllerBehavior {
    public init() {}

    public func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
        vc.note("laid out by Swift")
    }
}

/// Full screen in compact width, as it is presented otherwise.
public struct CompactFullScreen: AdaptivePresentationDelegate {
    public init() {}

    public func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        traits.horizontalSizeClass == .compact ? .style(.fullScreen) : .style(.none)
    }
}
