import Foundation
import TrellisModel
import TrellisScenario
import TrellisDistributed
import TrellisTransport

/// The distributed-traversal figure: one size transition through `count` controllers placed
/// over four processes, against the same in one process.
package enum DistributedBench {
    /// A scenario of `shape` whose root's subtrees are dealt over nodes b, c and d, with
    /// `resizes` window resizes (rotating back and forth): the boundary edges are the root's
    /// children only.
    package static func scenarioText(_ shape: HierarchyShape, resizes: Int = 1) -> String {
        var controllers: [String] = []
        for index in 0..<shape.count {
            let children = shape.children(of: index).map { "\"c\($0)\"" }.joined(separator: ",")
            controllers.append("\"c\(index)\":{\"children\":[\(children)]}")
        }
        let nodes = ["b", "c", "d"]
        let placement = shape.children(of: 0).enumerated().map { "\"c\($0.element)\":\"\(nodes[$0.offset % nodes.count])\"" }
        return """
            {"scenario":"distributed-traversal","window":{"size":[320,568]},"root":"c0",
            "controllers":{\(controllers.joined(separator: ","))},
            "placement":{\(placement.joined(separator: ","))},
            "steps":[\((0..<max(1, resizes)).map { $0 % 2 == 0 ? "{\"resizeWindow\":[568,320]}" : "{\"resizeWindow\":[320,568]}" }.joined(separator: ","))]}
            """
    }

    /// Seconds of the fastest of `resizes` resize steps: (over four processes, in one process).
    /// One transition of a few tens of milliseconds is at the mercy of a shared machine; the
    /// best of several, on each side, is not.
    /// `traceData`: what the workers' TRACE-DATA brought the conductor (TWP/1 §9.7), to say
    /// how many bytes an event costs on the wire.
    package static func measure(
        _ shape: HierarchyShape, resizes: Int = 1, nodeExecutable: String
    ) async throws -> (distributed: Double, inProcess: Double, traceData: TraceDataStatistics) {
        let text = scenarioText(shape, resizes: resizes)
        let scenario = try ScenarioDecoder.decode(text, file: "distributed-traversal")
        let local = try await ScenarioRunner.run(scenario)
        var options = DistributedOptions(nodeExecutable: nodeExecutable)
        options.startupTimeout = .seconds(120)
        // TRELLIS_BENCH_STEP_TRACE=0: without the trace asked for as each step ends (TWP/1 §9.7,
        // issue 27), the figure as it was before, from the same build.
        if ProcessInfo.processInfo.environment["TRELLIS_BENCH_STEP_TRACE"] == "0" { options.shipsEachStep = false }
        // The whole run, as `trellis run` does it; the figure is the steps' own durations, which
        // the run measures itself: start-up and shutdown are not in it.
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
        let remote = try await run.conduct()
        func seconds(_ run: ScenarioRun) -> Double {
            let steps = (1...max(1, resizes)).map { step -> Double in
                let parts = (run.stepDurations[step] ?? .zero).components
                return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
            }
            return steps.min() ?? 0
        }
        return (seconds(remote), seconds(local), await run.traceData)
    }
}
