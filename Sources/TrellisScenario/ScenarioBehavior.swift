import TrellisModel
import TrellisRuntime

/// The behaviour a scenario file's `overrides` describe, written against the same API a Swift
/// behaviour uses.
struct ScenarioBehavior: ViewControllerBehavior {
    let overrides: OverrideSpec

    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        switch overrides.viewWillTransition {
        case .callSuper:
            await vc.superViewWillTransition(to: size, with: coordinator)
        case .noSuper:
            break
        case let .forwardTo(targets):
            for target in targets {
                // R9: the size the override chooses, else the one its own sizeForChild gives.
                let childSize = target.size ?? vc.sizeForChild(target.child, parentSize: size)
                await vc.forwardViewWillTransition(toChild: target.child, size: childSize, with: coordinator)
            }
        }
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        switch overrides.willTransition {
        case .callSuper:
            await vc.superWillTransition(to: traits, with: coordinator)
        case .noSuper:
            break
        case let .forwardTo(targets):
            for target in targets {
                await vc.forwardWillTransition(toChild: target.child, with: coordinator)
            }
        }
    }

    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        guard let rule = overrides.sizeForChild else { return vc.superSize(forChild: child, parentSize: parentSize) }
        return rule.size(forChild: child, parentSize: parentSize) ?? vc.superSize(forChild: child, parentSize: parentSize)
    }
}

extension OverrideSpec {
    /// Nothing overridden that the behaviour acts on (a grant policy is the container's, not the
    /// behaviour's): the controller gets `DefaultBehavior`, which the router runs without asking.
    var callsSuperEverywhere: Bool {
        viewWillTransition == .callSuper && willTransition == .callSuper && sizeForChild == nil
    }
}

extension SizeRule {
    /// The rule's answer, or nil where it leaves the default in place (a `perChild` miss).
    func size(forChild child: ControllerID, parentSize: Size) -> Size? {
        switch self {
        case let .fraction(width, height, nil):
            return Size(parentSize.width * width, parentSize.height * height)
        case let .fraction(width, height, rounding?):
            return Size(rounding.apply(parentSize.width * width), rounding.apply(parentSize.height * height))
        case let .fixed(size):
            return size
        case let .perChild(sizes):
            return sizes[child]
        }
    }
}

/// The behaviour of a `custom` presentation controller as a scenario file describes it.
struct ScenarioPresentationBehavior: PresentationControllerBehavior {
    let overrides: OverrideSpec
    let frame: FrameRule?

    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        // A presentation controller has one thing to forward to, so any forwarding list means super.
        if overrides.viewWillTransition != .noSuper {
            await pc.superViewWillTransition(to: size, with: coordinator)
        }
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        if overrides.willTransition != .noSuper {
            await pc.superWillTransition(to: traits, with: coordinator)
        }
    }

    /// The file's rule sizes the custom presentation (while adapted to another style, the
    /// presentation controller does not ask: that style's built-in size applies).
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        overrides.sizeForChild?.size(forChild: child, parentSize: parentSize) ?? pc.superSize(forPresentedWithParentSize: parentSize)
    }

    /// R63: a `frame` rule stands for the seed's presentation controller, which overrides this hook
    /// to place the presented view at its frame again on every layout pass; without one (or with
    /// `"containerViewWillLayoutSubviews": "super"`), UIKit's default leaves it where it is.
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        if frame != nil, !overrides.containerLayoutCallsSuper {
            pc.applyFrameOfPresentedViewInContainerView()
        } else {
            pc.superContainerViewWillLayoutSubviews()
        }
    }

    /// R62: the file's `frame` rule places the custom presentation; without one, UIKit's default
    /// (the container view's bounds).
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        switch frame {
        case nil: return pc.superFrameOfPresentedViewInContainerView()
        case let .align(alignment)?: return PresentationRules.alignedFrame(alignment, size: pc.presentedViewSize, in: pc.containerViewBounds)
        case let .fixed(rect)?: return rect
        }
    }
}
