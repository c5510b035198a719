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
            .adaptiveDelegate("CompactFullScreen", CompactFullScreen())
            // A custom segue class, which a node without it (the Python node) cannot perform.
            .segue("FadeSegue", .present(style: .overFullScreen)))
    }
}

/// Calls super in every hook: the trace of the default behaviour, through the Swift path.
struct CallsSuper: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superViewWillTransition(to: size, with: coordinator)
    }
}
