import Foundation
import Testing
import TrellisDistributed
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTransport

/// SPEC §4.2 over the wire (TWP §8.6): actions for behaviours on other nodes, and the requests
/// those behaviours make, carried out by the conductor's window — the distributed trace equals
/// the in-process one. In-process nodes share this process, so they share the registry.
@Suite(.distributedHangGuard)
struct DistributedActionTests {
    /// A bottom sheet: dismisses on a dimming-view tap, moves up by the keyboard's height.
    struct Sheet: PresentationControllerBehavior {
        func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
            Size(parentSize.width, 200)
        }

        func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
            let bounds = pc.containerViewBounds
            return Rect(x: 0, y: bounds.size.height - 200, width: bounds.size.width, height: 200)
        }

        func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
            switch action {
            case "dimmingTapped":
                pc.dismiss()
            case "keyboardWillShow":
                var frame = pc.presentedViewFrame
                frame.origin.y -= value?.number ?? 0
                pc.setPresentedViewFrame(frame)
            default:
                return false
            }
            return true
        }

        func valueType(forAction action: String) -> ActionValueType? { action == "keyboardWillShow" ? .number : nil }
    }

    /// Presents Q on a tap; dismisses on close (with nothing to dismiss: the step's warning).
    struct Tapper: ViewControllerBehavior {
        func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
            switch action {
            case "tap": vc.present("Q", animated: false)
            case "close": vc.dismiss(animated: false)
            default: return false
            }
            return true
        }
    }

    static let registry = BehaviorRegistry().presentationController("Sheet", Sheet()).viewController("Tapper", Tapper())

    static let text = #"""
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": {
            "R": { "children": ["A", "B"] },
            "A": { "behavior": "Tapper" }, "B": {},
            "Q": { "modalPresentationStyle": "overFullScreen" },
            "S": { "modalPresentationStyle": "custom", "presentationController": { "behavior": "Sheet" } }
          },
          "placement": { "A": "c", "B": "c", "S": "b" },
          "steps": [
            { "action": "tap", "on": "A" },
            { "expect": ["A action(tap)", "A request present Q", "R present(Q, style: overFullScreen)"] },
            { "action": "close", "on": "A" },
            { "expect": ["A action(close)", "A request dismiss", "A warning dismiss: A has nothing to dismiss"] },
            { "dismiss": "Q", "animated": false },
            { "present": "S", "from": "R", "animated": false },
            { "action": "keyboardWillShow", "on": "pc:S", "value": 216 },
            { "expect": ["pc:S action(keyboardWillShow, value: 216)", "pc:S request setPresentedViewFrame 0,152 320x200",
                         "pc:S frameOfPresentedViewInContainerView -> 0,152 320x200"] },
            { "action": "tap", "on": "A" },
            { "expect": ["A request present Q", "R warning Attempt to present Q on R (from A) which is already presenting S"] },
            { "action": "dimmingTapped", "on": "pc:S" },
            { "expect": ["pc:S action(dimmingTapped)", "pc:S request dismiss animated", "R dismiss(S)", "R dismissCompletion(S)"] },
            { "action": "wave", "on": "B" }
          ] }
        """#

    @Test("actions and requests of behaviours on other nodes: the in-process trace, line for line")
    func actionsOverLoopbackGiveTheInProcessTrace() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "acting.json", registry: Self.registry)
        let inProcess = try await ScenarioRunner.run(scenario)
        #expect(inProcess.passed, "\(inProcess.failures)")
        let lines = inProcess.canonicalLines
        #expect(lines.contains("B warning action wave on B was not handled (its behaviour's perform returned false)"))
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: loopbackOptions())
        #expect(distributed.passed, "\(distributed.failures)")
        #expect(distributed.canonicalLines == lines, "\(DifferentialCheck.difference(lines, distributed.canonicalLines))")
    }
}
