import Foundation
import Testing
import TrellisScenario
import TrellisTestSupport

/// The package root, found from this file's path: Tests/TrellisScenarioTests/<this file>.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

enum ExampleFiles {
    static var directory: URL { packageRoot.appendingPathComponent("Examples") }

    /// Every scenario file in Examples/, sorted.
    static func all() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }
}

@Suite("Examples/ and the scenario runner")
struct ScenarioFileTests {
    @Test("every example scenario runs and all its expect steps hold", arguments: ExampleFiles.all())
    func exampleRuns(_ name: String) async throws {
        let path = ExampleFiles.directory.appendingPathComponent(name).path
        let scenario = try ScenarioDecoder.load(path: path)
        #expect(scenario.steps.contains { if case .expect = $0 { true } else { false } }, "\(name) has no expect step")
        let run = try await ScenarioRunner.run(scenario)
        for failure in run.failures {
            Issue.record("\(name): \(failure)")
        }
        #expect(run.passed)
    }

    @Test("Examples/ holds the scenario of each rule the documentation points to")
    func examplesArePresent() {
        let names = Set(ExampleFiles.all())
        for required in ["iphone-rotation.json", "ipad-rotation.json", "suppression-middle.json", "manual-forwarding.json",
                         "preferred-size-partial-grant.json", "size-class-override.json", "split-view.json",
                         "unchanged-child-size.json", "storyboard-field-notes.json"] {
            #expect(names.contains(required), "Examples/\(required) is missing")
        }
    }

    @Test("step headers number steps by their position in the file; expect steps count but print no header")
    func headersNumberStepsByPosition() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "expect": ["R viewWillLayoutSubviews"] },
                         { "resizeWindow": [568, 320] },
                         { "expect": ["R viewWillTransition(to: 568x320)"] },
                         { "setTraits": { "verticalSizeClass": "compact" } } ] }
            """)
        #expect(trace.headers == ["== step 2: resizeWindow 568x320", "== step 4: setTraits v=compact"])
        #expect(trace.run.canonicalLines.first == "R viewWillLayoutSubviews")
    }

    @Test("an expect step compares only the message kinds its lines use, and two expect steps in a row check the same step")
    func expectFiltersByKind() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] },
                         { "expect": ["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"] },
                         { "expect": ["R sizeForChild(A, parent: 568x320) -> 568x320"] } ] }
            """)
        #expect(trace.run.passed)
    }

    @Test("a wrong expect step is reported with its position, the step it checked, and both sets of lines")
    func wrongExpectIsReported() async throws {
        let scenario = try ScenarioDecoder.decode("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] },
                         { "expect": ["A viewWillTransition(to: 1x1)"] } ] }
            """, file: "wrong.json")
        let run = try await ScenarioRunner.run(scenario)
        let failure = try #require(run.failures.first)
        #expect(run.failures.count == 1)
        #expect(failure.step == 2)
        #expect(failure.checkedStep == 1)
        #expect(failure.expected == ["A viewWillTransition(to: 1x1)"])
        #expect(failure.actual == ["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"])
        #expect(failure.description.contains("  - A viewWillTransition(to: 1x1)"))
        #expect(failure.description.contains("  + A viewWillTransition(to: 568x320)"))
    }

    @Test("an expect step with no line checks nothing: a notice at the step says so")
    func emptyExpectIsANotice() throws {
        let scenario = try ScenarioDecoder.decode("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "resizeWindow": [568, 320] }, { "expect": [] } ] }
            """, file: "empty.json")
        #expect(scenario.notices == ["empty.json:3:46: $.steps[1]: an expect with no line checks nothing (it compares only the kinds of message its lines name), "
            + "so it always holds: name the lines the step before it records"])
    }

    @Test("an expect step before any other step checks the initial layout")
    func expectBeforeAnyStepChecksInitialLayout() async throws {
        let scenario = try ScenarioDecoder.decode("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "expect": ["R viewWillTransition(to: 320x568)"] } ] }
            """, file: "initial.json")
        let run = try await ScenarioRunner.run(scenario)
        #expect(run.failures.first?.checkedStep == 0)
        #expect(run.failures.first?.actual == [])
    }
}
