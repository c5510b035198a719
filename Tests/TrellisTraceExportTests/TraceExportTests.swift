import Foundation
import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles

/// Exports of a recorded run (SPEC §6): Perfetto JSON checked by structure, sequence diagrams
/// against golden files.
@Suite struct TraceExportTests {
    func events(_ example: String) async throws -> [TraceEvent] {
        try await ScenarioRunner.run(try ScenarioDecoder.load(path: packageRoot.appendingPathComponent("Examples/\(example)").path)).events
    }

    func golden(_ name: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent("Tests/TrellisTraceExportTests/Golden/\(name)"), encoding: .utf8)
    }

    @Test func perfettoJSONHasTracksSlicesInstantsAndMatchedFlows() async throws {
        let trace = try await events("suppression-middle.json")
        let text = PerfettoExport.json(trace)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let items = try #require(root["traceEvents"] as? [[String: Any]])
        for item in items {
            for field in ["name", "ph", "pid", "tid", "ts"] { #expect(item[field] != nil, "\(field) missing in \(item)") }
        }
        // Every controller has its named track.
        let trackNames = Set(items.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String })
        #expect(trackNames == Set(trace.filter { if case .step = $0.message { return false }; return true }.map(\.controller.name)))
        // A slice per handled message, an instant per suppression, a global instant per step.
        let slices = items.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == trace.filter { !PerfettoExport.isInstant($0) && !PerfettoExport.isStep($0) }.count)
        #expect(items.contains { $0["ph"] as? String == "i" && $0["name"] as? String == "suppressed" })
        #expect(items.filter { $0["ph"] as? String == "i" && $0["s"] as? String == "g" }.count == trace.filter(PerfettoExport.isStep).count)
        // Every flow start has exactly one end and vice versa.
        let starts = items.filter { $0["ph"] as? String == "s" }.compactMap { $0["id"] as? Int }
        let ends = items.filter { $0["ph"] as? String == "f" }.compactMap { $0["id"] as? Int }
        #expect(!starts.isEmpty)
        #expect(starts.sorted() == ends.sorted())
        #expect(Set(starts).count == starts.count)
        // Same input, same output: no wall-clock time in the export.
        #expect(PerfettoExport.json(try await events("suppression-middle.json")) == text)
    }

    @Test func twoNodesAreTwoProcesses() async throws {
        var trace = try await events("iphone-rotation.json")
        for index in trace.indices where trace[index].controller.name.hasPrefix("A") { trace[index].id.node = "b" }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(PerfettoExport.json(trace).utf8)) as? [String: Any])
        let items = try #require(root["traceEvents"] as? [[String: Any]])
        let processes = items.filter { $0["name"] as? String == "process_name" }.compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(processes == ["node main", "node b"])
    }

    @Test func sequenceDiagramsMatchTheirGoldenFiles() async throws {
        let trace = try await events("popover-adaptation.json")
        #expect(MermaidExport.sequenceDiagram(trace) == (try golden("popover-adaptation.mmd")))
        #expect(PlantUMLExport.sequenceDiagram(trace) == (try golden("popover-adaptation.puml")))
    }

    @Test func diagramsCanBeLimitedToAStepAndSomeControllers() async throws {
        let trace = try await events("suppression-middle.json")
        let text = MermaidExport.sequenceDiagram(trace, steps: 1...1, controllers: ["R", "A"])
        #expect(text == """
            sequenceDiagram
                participant p_window as window
                participant p_R as R
                participant p_A as A
                Note over p_window,p_A: == step 1: resizeWindow 568x320
                p_window->>p_R: viewWillTransition(to: 568x320)
                p_R->>p_R: sizeForChild(A, parent: 568x320) -> 568x320
                p_R->>p_A: viewWillTransition(to: 568x320)
                Note right of p_A: suppressed viewWillTransition (cut: A1)
                p_R->>p_R: sizeForChild(B, parent: 568x320) -> 568x320
                p_window->>p_R: viewWillLayoutSubviews
                p_window->>p_R: viewDidLayoutSubviews
                p_R->>p_A: viewWillLayoutSubviews
                p_R->>p_A: viewDidLayoutSubviews

            """)
    }
}
