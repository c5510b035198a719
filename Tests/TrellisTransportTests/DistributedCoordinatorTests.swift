import Synchronization
import Testing
import TrellisDistributed
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTransport

/// SPEC §7 for the transition coordinator (TWP/1.4 §8.7): Swift behaviours on other nodes that
/// animate alongside a transition and register completions — a presentation controller in its
/// `WillBegin` hooks (the transition travels as 0x43's tail), view controllers in
/// `viewWillTransition` — have their blocks run when the conductor's window ends the
/// transition, in the order of one process, interleaved with the conductor's own.
/// Serialized: its tests share the log of blocks that ran.
@Suite(.serialized, .distributedHangGuard)
struct DistributedCoordinatorTests {
    /// Every block that ran, by owner and kind, in order: the blocks themselves ran, not only
    /// their trace lines (in-process nodes share this process).
    static let ran = Mutex<[String]>([])

    static func block(_ name: String) -> @Sendable (TransitionCoordinatorContext) -> Void {
        { context in ran.withLock { $0.append("\(name) \(context.transitionID)") } }
    }

    /// A view controller that forwards as UIKit does, then registers both blocks.
    struct Alongside: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            await vc.superViewWillTransition(to: size, with: coordinator)
            coordinator.animate(alongsideTransition: block("\(vc.id) alongside"), completion: block("\(vc.id) completion"))
        }
    }

    /// A presentation controller whose dimming view fades alongside both transitions.
    struct Fading: PresentationControllerBehavior {
        func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
            pc.superPresentationTransitionWillBegin()
            guard let coordinator = pc.transitionCoordinator else {
                pc.note("no coordinator")
                return
            }
            coordinator.animate(alongsideTransition: block("\(pc.id) fade in"), completion: block("\(pc.id) shown"))
        }

        func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
            pc.superDismissalTransitionWillBegin()
            pc.transitionCoordinator?.animate(alongsideTransition: nil, completion: block("\(pc.id) gone"))
        }

        func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
            Size(parentSize.width, 200)
        }
    }

    static let registry = BehaviorRegistry().viewController("Alongside", Alongside()).presentationController("Fading", Fading())

    /// R (the conductor's) registers first, then A (node b), then C (node c): the order of the
    /// blocks crosses nodes both ways. S's presentation controller lives on node b.
    static let text = #"""
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": {
            "R": { "behavior": "Alongside", "children": ["A", "B"] },
            "A": { "behavior": "Alongside", "children": ["C"] }, "B": {}, "C": { "behavior": "Alongside" },
            "S": { "modalPresentationStyle": "custom", "presentationController": { "behavior": "Fading" } }
          },
          "placement": { "A": "b", "B": "c", "C": "c", "S": "b" },
          "steps": [
            { "resizeWindow": [568, 320] },
            { "present": "S", "from": "R" },
            { "dismiss": "S" }
          ] }
        """#

    @Test("alongside and completion blocks of behaviours on other nodes run in the in-process order")
    func coordinatorBlocksOverLoopbackGiveTheInProcessTrace() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "coordinator.json", registry: Self.registry)
        Self.ran.withLock { $0.removeAll() }
        let inProcess = try await ScenarioRunner.run(scenario)
        #expect(inProcess.passed, "\(inProcess.failures)")
        let ranInProcess = Self.ran.withLock { $0 }
        let lines = inProcess.canonicalLines
        for line in ["R alongsideTransition", "A alongsideTransition", "C transitionCompletion", "pc:S alongsideTransition",
                     "pc:S transitionCompletion"] {
            #expect(lines.contains { $0.contains(line) }, "no \(line) in\n\(lines.joined(separator: "\n"))")
        }
        #expect(!lines.contains { $0.contains("no coordinator") })
        #expect(ranInProcess.count == 3 * 2 + 2 + 1, "\(ranInProcess)")

        Self.ran.withLock { $0.removeAll() }
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: loopbackOptions())
        #expect(distributed.passed, "\(distributed.failures)")
        #expect(distributed.canonicalLines == lines, "\(DifferentialCheck.difference(lines, distributed.canonicalLines))")
        #expect(Self.ran.withLock { $0 } == ranInProcess)
    }

    /// A receipt (R25) that node b's container starts: the window numbers and ends its
    /// transition (`endTransition`), so the blocks C (node c) and D (the conductor's) register
    /// in it run, in order, as in one process.
    static let receiptText = #"""
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": {
            "R": { "children": ["T"] },
            "T": { "kind": "tab", "children": ["C", "D"], "overrides": { "grant": { "fraction": 0.5 } } },
            "C": { "behavior": "Alongside" }, "D": { "behavior": "Alongside" }
          },
          "placement": { "T": "b", "C": "c" },
          "steps": [
            { "setPreferredContentSize": { "controller": "C", "size": [200, 300] } },
            { "setPreferredContentSize": { "controller": "D", "size": [200, 300] } }
          ] }
        """#

    @Test("blocks registered in a receipt another node starts run when the window ends it, in order")
    func coordinatorBlocksOfAReceiptOverLoopback() async throws {
        let scenario = try ScenarioDecoder.decode(Self.receiptText, file: "receipt.json", registry: Self.registry)
        Self.ran.withLock { $0.removeAll() }
        let inProcess = try await ScenarioRunner.run(scenario)
        #expect(inProcess.passed, "\(inProcess.failures)")
        let ranInProcess = Self.ran.withLock { $0 }
        let lines = inProcess.canonicalLines
        #expect(lines.contains { $0.hasPrefix("C transitionCompletion") }, "\(lines.joined(separator: "\n"))")
        #expect(!ranInProcess.isEmpty)

        Self.ran.withLock { $0.removeAll() }
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.receiptText, options: loopbackOptions())
        #expect(distributed.passed, "\(distributed.failures)")
        #expect(distributed.canonicalLines == lines, "\(DifferentialCheck.difference(lines, distributed.canonicalLines))")
        #expect(Self.ran.withLock { $0 } == ranInProcess)
    }
}
