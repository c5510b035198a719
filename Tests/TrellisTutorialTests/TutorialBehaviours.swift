// docs/testing.md's behaviours, as a user's own target would write them.

import TrellisModel
import TrellisRuntime

struct OneThirdSidebar: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size,
              in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width / 3, parentSize.height)
    }

    /// "A third of the display and right-aligned": that size at the container's right edge.
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let size = self.size(forPresented: pc.presentedID, parentSize: bounds.size, in: pc)
        return Rect(origin: Point(x: bounds.size.width - size.width, y: 0), size: size)
    }
}

struct HalfGrant: ViewControllerBehavior {
    func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size,
                                       in vc: isolated any ViewControllerContext) async {
        guard let current = vc.frame(ofChild: child)?.size else { return }
        let granted = Size(current.width + (preferredSize.width - current.width) / 2,
                           current.height + (preferredSize.height - current.height) / 2)
        await vc.resize(child: child, to: granted)   // receipt, then layout (R25)
    }
}
