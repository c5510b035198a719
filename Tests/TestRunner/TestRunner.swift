import TrellisCLI
import TrellisModel
import TrellisRuntime
import TrellisTestSupport

/// A runner as a user writes one (SPEC §4.1), with the behaviours the tests name: the CLI and
/// distributed tests start it as they start the plain `trellis`.
@main
struct TestRunner {
    static func main() async {
        // With the differential tester's behaviours, so that its seeds run over ZeroMQ too.
        await TrellisCLI.main(registry: DifferentialBehaviors.register(in: BehaviorRegistry())
            .presentationController("Third", Third())
            .viewController("Noting", Noting())
            .viewController("CallsSuper", CallsSuper())
            .adaptiveDelegate("CompactFullScreen", CompactFullScreen()))
    }
}

/// A right-aligned third of the container, floored, as WWDC 2014's sidebar.
struct Third: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size((parentSize.width / 3).rounded(.down), parentSize.height)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let width = (bounds.size.width / 3).rounded(.down)
        return Rect(x: bounds.size.width - width, y: 0, width: width, height: bounds.size.height)
    }
}

/// Notes each layout pass: a line in the trace that only Swift code writes.
struct Noting: ViewControllerBehavior {
    func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
        vc.note("laid out by Swift")
    }
}

/// Calls super in every hook: the trace of the default behaviour, through the Swift path.
struct CallsSuper: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superViewWillTransition(to: size, with: coordinator)
    }
}

/// Full screen in compact width, as it is presented otherwise.
struct CompactFullScreen: AdaptivePresentationDelegate {
    func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        traits.horizontalSizeClass == .compact ? .style(.fullScreen) : .style(.none)
    }
}
