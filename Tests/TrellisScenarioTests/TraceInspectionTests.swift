import Foundation
import Testing
import TrellisModel
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisTestSupport

/// Reading, filtering, following and diffing recorded traces (SPEC §6, `trellis trace`).
@Suite struct TraceInspectionTests {
    func run(_ example: String) async throws -> ScenarioRun {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try await ScenarioRunner.run(try ScenarioDecoder.load(path: root.appendingPathComponent("Examples/\(example)").path))
    }

    func capture(_ events: [TraceEvent]) -> String {
        events.map { TraceCaptureFormat.line(for: $0, runID: "test") + "\n" }.joined()
    }

    @Test func aCorruptLineIsReportedAndTheRestIsRead() async throws {
        let events = try await run("suppression-middle.json").events
        var lines = capture(events).split(separator: "\n").map(String.init)
        lines[3] = "{ not json"
        lines[7] = #"{"v":"7.0"}"#
        lines.insert("", at: 10)
        let file = TraceFileReader.read(text: lines.joined(separator: "\n"), file: "run.jsonl")
        #expect(file.events.count == events.count - 2)
        #expect(file.problems.map(\.line) == [4, 8])
        #expect(file.problems[0].description.hasPrefix("run.jsonl:4: not JSON"))
        #expect(file.problems[1].description.contains("major version 7"))
    }

    /// Lines are found as bytes, not `Character`s: CRLF endings, blank lines of any white space,
    /// line numbers and non-ASCII text must all come out as they did; a byte that is not UTF-8
    /// inside a string is an error, not a repair.
    @Test func linesAreReadAsBytesWithTheirNumbersEndingsAndText() async throws {
        let events = try await run("suppression-middle.json").events
        var lines = capture(events).split(separator: "\n").map(String.init)
        lines[3] = lines[3].replacingOccurrences(of: "\"run\":\"test\"", with: "\"run\":\"tëst ✓\"")
        lines[5] = "{ nope"
        lines.insert("  \t ", at: 1)
        lines.insert("\u{00A0}\u{2003}", at: 2)
        let file = TraceFileReader.read(text: lines.joined(separator: "\r\n") + "\r\n\n", file: "run.jsonl")
        #expect(file.problems.map(\.line) == [8])
        #expect(file.runIDs == ["test", "tëst ✓"])
        #expect(file.events.map(\.canonicalLine) == events.enumerated().filter { $0.offset != 5 }.map(\.element.canonicalLine))

        var bytes = Array(capture([events[0]]).utf8.dropLast())
        let quote = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("\"test\"".utf8)) })
        bytes[quote + 1] = 0xFF
        #expect(throws: TraceCaptureFormat.ReadError.self) { try TraceCaptureFormat.event(fromLine: bytes) }
        do {
            _ = try TraceCaptureFormat.event(fromLine: bytes)
        } catch {
            #expect(error.description.contains("invalid UTF-8"))
        }
    }

    @Test func theCausalTreeNestsEachEventUnderItsCause() async throws {
        let tree = CausalTree(try await run("suppression-middle.json").events)
        let lines = tree.indentedLines()
        let start = try #require(lines.firstIndex(of: "== step 1: resizeWindow 568x320"))
        #expect(Array(lines[start..<(start + 5)]) == [
            "== step 1: resizeWindow 568x320",
            "  R viewWillTransition(to: 568x320)",
            "    R sizeForChild(A, parent: 568x320) -> 568x320",
            "    A viewWillTransition(to: 568x320)",
            "      A suppressed viewWillTransition (cut: A1)",
        ])
    }

    @Test func followShowsCausesAndEffects() async throws {
        let tree = CausalTree(try await run("suppression-middle.json").events)
        let position = try #require(tree.events.firstIndex { $0.canonicalLine == "B viewWillTransition(to: 568x320)" })
        #expect(tree.causes(of: position).map { tree.events[$0].canonicalLine } == [
            "== step 1: resizeWindow 568x320", "R viewWillTransition(to: 568x320)",
        ])
        #expect(tree.effects(of: position).map { tree.events[$0.position].canonicalLine } == [
            "B sizeForChild(B1, parent: 568x320) -> 568x320", "B1 viewWillTransition(to: 568x320)",
        ])
    }

    @Test func filtersByControllerSubtreeKindAndStep() async throws {
        let tree = CausalTree(try await run("suppression-middle.json").events)
        func lines(_ filter: TraceFilter) -> [String] {
            filter.keep(in: tree).sorted().map { tree.events[$0].canonicalLine }
        }
        var byKind = TraceFilter()
        byKind.kinds = ["suppressed"]
        #expect(lines(byKind) == ["A suppressed viewWillTransition (cut: A1)"])
        var subtree = TraceFilter()
        subtree.subtrees = ["B"]
        subtree.steps = 1...1
        subtree.kinds = ["delivery", "query"]
        #expect(lines(subtree) == [
            "B viewWillTransition(to: 568x320)", "B sizeForChild(B1, parent: 568x320) -> 568x320", "B1 viewWillTransition(to: 568x320)",
        ])
    }

    @Test func aChangedOverrideShowsExactlyTheChangedLines() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Examples/suppression-middle.json"), encoding: .utf8)
        let changed = try ScenarioDecoder.decode(text.replacingOccurrences(of: "\"noSuper\"", with: "\"super\""), file: "changed")
        let before = try await run("suppression-middle.json").events
        let after = try await ScenarioRunner.run(changed).events
        #expect(TraceDiff.compare(before, before).isEmpty)
        let differences = TraceDiff.compare(before, after)
        #expect(differences.map(\.step) == [1])
        let changes = differences[0].operations.filter { if case .same = $0 { return false }; return true }
        #expect(changes == [
            .missing("A suppressed viewWillTransition (cut: A1)"),
            .extra("A sizeForChild(A1, parent: 568x320) -> 568x320"),
            .extra("A1 viewWillTransition(to: 568x320)"),
            .extra("A1 viewWillLayoutSubviews"),
            .extra("A1 viewDidLayoutSubviews"),
        ])
    }

    @Test("a step whose description changed pairs with its counterpart: its header shown changed, only the lines that differ marked")
    func aStepWhoseDescriptionChanged() async throws {
        func trace(_ width: Int) async throws -> [TraceEvent] {
            try await Scenarios.run("""
                { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
                  "steps": [ { "resizeWindow": [568, 320] }, { "resizeWindow": [\(width), 568] }, { "resizeWindow": [568, 320] } ] }
                """).run.events
        }
        let differences = TraceDiff.compare(try await trace(320), try await trace(300))
        #expect(differences.map(\.step) == [2])
        let changes = differences.first?.operations.filter { if case .same = $0 { return false }; return true } ?? []
        #expect(changes.first == .missing("== step 2: resizeWindow 320x568"))
        #expect(changes.dropFirst().first == .extra("== step 2: resizeWindow 300x568"))
        // The layout callbacks, the same on both sides, are not marked.
        #expect(!changes.contains(.missing("R viewDidLayoutSubviews")))
        #expect(changes.contains(.extra("R viewWillTransition(to: 300x568)")))
    }

    @Test("steps of other actions between the same aligned steps are not paired: each shows removed or added whole")
    func stepsOfOtherActionsAreNotPaired() async throws {
        func trace(_ steps: String) async throws -> [TraceEvent] {
            try await Scenarios.run("""
                { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {}, "Q": {} },
                  "steps": [ \(steps) ] }
                """).run.events
        }
        let before = try await trace(#"{ "resizeWindow": [568, 320] }, { "present": "Q", "from": "R" }, { "resizeWindow": [320, 568] }"#)
        let after = try await trace(#"{ "resizeWindow": [568, 320] }, { "setTraits": { "userInterfaceStyle": "dark" } }, { "resizeWindow": [300, 300] }, { "resizeWindow": [320, 568] }"#)
        let differences = TraceDiff.compare(before, after)
        // The last step, the same on both sides, differs only in what it comes from (300x300).
        #expect(differences.map(\.header) == [
            "== step 2: present Q from R animated", "== step 2: setTraits style=dark", "== step 3: resizeWindow 300x300",
            "== step 4: resizeWindow 320x568",
        ])
        let kinds = differences.map { $0.operations.allSatisfy { if case .missing = $0 { true } else { false } } ? "removed"
            : $0.operations.allSatisfy { if case .extra = $0 { true } else { false } } ? "added" : "changed" }
        #expect(kinds == ["removed", "added", "added", "changed"])
    }

    @Test func perNodeFilesMergeBackIntoOneTrace() async throws {
        // A trace split by node, as a distributed run's processes would write it, merges back.
        var events = try await run("iphone-rotation.json").events
        for index in events.indices where ["A", "A1"].contains(events[index].controller.name) {
            events[index].id.node = "b"
        }
        let fileA = capture(events.filter { $0.id.node == "main" })
        let fileB = capture(events.filter { $0.id.node == "b" })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try fileB.write(to: directory.appendingPathComponent("b.jsonl"), atomically: true, encoding: .utf8)
        try fileA.write(to: directory.appendingPathComponent("main.jsonl"), atomically: true, encoding: .utf8)
        let merged = try TraceFileReader.read(paths: [directory.appendingPathComponent("b.jsonl").path, directory.appendingPathComponent("main.jsonl").path])
        #expect(merged.events.map(\.canonicalLine) == events.map(\.canonicalLine))
    }
}
