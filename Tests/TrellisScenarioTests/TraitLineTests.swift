import Foundation
import Testing
import TrellisTestSupport
import TrellisModel
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles

/// SPEC §6 (amended): trait lines print `style=`, `direction=` and `category=` after the four
/// core axes when those axes are specified, so a dark-mode change is visible.
struct TraitLineTests {
    @Test func aDarkModeChangeIsVisibleInTraitLines() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "setTraits": { "userInterfaceStyle": "dark" } },
                         { "setTraits": { "layoutDirection": "rightToLeft", "preferredContentSizeCategory": "extraLarge" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.portrait) style=dark)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
        #expect(trace.messages(step: 2) == [
            "R willTransition(to: \(Phone.portrait) style=dark direction=rightToLeft category=extraLarge)",
            "R traitCollectionDidChange(previous: \(Phone.portrait) style=dark)",
        ])
    }

    @Test func traitLinesRoundTripThroughTheCaptureFormat() async throws {
        let scenario = try ScenarioDecoder.decode("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "setTraits": { "userInterfaceStyle": "dark", "layoutDirection": "leftToRight" } } ] }
            """, file: "inline.json")
        let run = try await ScenarioRunner.run(scenario)
        let text = run.events.map { TraceCaptureFormat.line(for: $0, runID: "r") }.joined(separator: "\n")
        let read = TraceFileReader.read(text: text, file: "t.jsonl")
        #expect(read.problems.isEmpty)
        #expect(read.events.map(\.canonicalLine) == run.events.map(\.canonicalLine))
        #expect(run.canonicalLines.contains("A willTransition(to: \(Phone.portrait) style=dark direction=leftToRight)"))
    }
}
