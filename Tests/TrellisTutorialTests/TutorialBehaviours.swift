// docs/testing.md's behaviours, as a user's own target would write them.

import TrellisModel
import TrellisRuntime

struct OneThirdSidebar: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size,
              in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width / 3, parentSize.height)
    }
}

struct HalfGrant: ViewControllerBehavior {
    func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size,
                                       in vc: isolated any ViewControllerContext) async {
        guard let current = vc.frame(ofChild: child) else { return }
        let granted = Size(current.width + (preferredSize.width - current.width) / 2,
                           current.height + (preferredSize.height - current.height) / 2)
        await vc.resize(child: child, to: granted)   // receipt, then layout (R25)
    }
}
