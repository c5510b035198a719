import Testing
import TrellisDistributed
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTransport

/// SPEC R2a, R61 over the wire: a Swift container's layout sets its children's frames on its own
/// node; a child on another node gets its frame in the layout call (TWP §8), so the distributed
/// trace — lines and the frames its layout events carry — equals the in-process one.
@Suite(.distributedHangGuard)
struct DistributedChildFrameTests {
    /// Two children side by side, each half the width, set in `viewWillLayoutSubviews`.
    struct SideBySide: ViewControllerBehavior {
        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            let width = vc.size.width / Double(max(1, vc.children.count))
            for (index, child) in vc.children.enumerated() {
                vc.setFrame(Rect(x: width * Double(index), y: 0, width: width, height: vc.size.height), ofChild: child)
            }
        }
    }

    static let registry = BehaviorRegistry().viewController("SideBySide", SideBySide())

    /// R (the container) on node b, its child A on node c, its child B with R, the root on the conductor.
    static let text = #"""
        { "window": { "size": [1024, 768] }, "root": "W",
          "controllers": {
            "W": { "children": ["R"] },
            "R": { "behavior": "SideBySide", "children": ["A", "B"] },
            "A": {}, "B": {}
          },
          "placement": { "R": "b", "A": "c" },
          "steps": [
            { "expect": ["W viewWillLayoutSubviews", "W viewDidLayoutSubviews", "R viewWillLayoutSubviews", "R viewDidLayoutSubviews",
                         "A viewWillLayoutSubviews", "A viewDidLayoutSubviews", "B viewWillLayoutSubviews", "B viewDidLayoutSubviews"] },
            { "resizeWindow": [768, 1024] }
          ] }
        """#

    /// Each layout event's controller and the frame it carries, in trace order.
    static func layoutFrames(_ run: ScenarioRun) -> [String] {
        run.events.compactMap { event in event.message.frame.map { "\(event.controller) \($0)" } }
    }

    @Test("a container's frames for children on other nodes: the in-process trace and frames")
    func framesOverLoopbackGiveTheInProcessRun() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "side-by-side.json", registry: Self.registry)
        let inProcess = try await ScenarioRunner.run(scenario)
        #expect(inProcess.passed, "\(inProcess.failures)")
        #expect(Self.layoutFrames(inProcess) == [
            "W 0,0 1024x768", "R 0,0 1024x768", "A 0,0 512x768", "B 512,0 512x768",
            "W 0,0 768x1024", "R 0,0 768x1024", "A 0,0 384x1024", "B 384,0 384x1024",
        ])
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: loopbackOptions())
        #expect(distributed.passed, "\(distributed.failures)")
        #expect(distributed.canonicalLines == inProcess.canonicalLines,
                "\(DifferentialCheck.difference(inProcess.canonicalLines, distributed.canonicalLines))")
        #expect(Self.layoutFrames(distributed) == Self.layoutFrames(inProcess))
    }
}
