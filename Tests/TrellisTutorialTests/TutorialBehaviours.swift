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

    /// Puts the view at that frame again on every layout pass, so that it follows a rotation:
    /// UIKit's own `containerViewWillLayoutSubviews` leaves it where it was, autoresized (R63).
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
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

/// The seed's sidebar, a third of the width and right-aligned in regular width, the whole width
/// in compact width — decided from the traits `willTransition` announced, kept in the
/// presentation controller's state: its own `traitCollection` is still the old one until the
/// transition's third pass (R14).
struct TraitAwareSidebar: PresentationControllerBehavior {
    enum IncomingTraits: BehaviorStateKey {
        static let initialValue: TraitCollection? = nil
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator,
                        in pc: isolated any PresentationControllerContext) async {
        pc.state[IncomingTraits.self] = traits
        await pc.superWillTransition(to: traits, with: coordinator)
    }

    func size(forPresented child: ControllerID, parentSize: Size,
              in pc: isolated any PresentationControllerContext) -> Size {
        let traits = pc.state[IncomingTraits.self] ?? pc.traitCollection
        return traits.horizontalSizeClass == .compact
            ? parentSize
            : Size(parentSize.width / 3, parentSize.height)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let size = pc.presentedViewSize
        return Rect(origin: Point(x: bounds.size.width - size.width, y: 0), size: size)
    }

    /// Placed again on every layout pass, or a rotation would leave it autoresized (R63).
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }
}

/// Its children side by side, each an equal share of its width, set as UIKit code sets
/// `child.view.frame` while its view is laid out.
struct SideBySide: ViewControllerBehavior {
    func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
        let width = vc.size.width / Double(max(1, vc.children.count))
        for (index, child) in vc.children.enumerated() {
            vc.setFrame(Rect(x: width * Double(index), y: 0, width: width, height: vc.size.height), ofChild: child)
        }
    }

    /// What a rotation tells each child first (R2): the size its frame will have.
    func size(forChild child: ControllerID, parentSize: Size,
              in vc: isolated any ViewControllerContext) -> Size {
        Size(parentSize.width / Double(max(1, vc.children.count)), parentSize.height)
    }
}
