import Foundation
import Testing
import TrellisTestSupport

/// Records `Examples/<example>` with `trellis run --trace` as `name` in `directory`; its path.
func record(_ example: String, in directory: URL, name: String) async throws -> String {
    let path = directory.appendingPathComponent(name).path
    let outcome = try await runTrellis(["run", "Examples/\(example)", "--trace", path])
    #expect(outcome.status == 0)
    return path
}

/// `trellis trace …` as a user runs it.
@Suite("trellis trace")
struct TraceCommandTests {
    @Test func showFollowMergeAndDiff() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "a.jsonl")

        let plain = try await runTrellis(["run", "Examples/suppression-middle.json"])
        let shown = try await runTrellis(["trace", "show", trace])
        #expect(shown.status == 0)
        #expect(shown.stdout == plain.stdout)  // the canonical text of the recorded run

        let suppressed = try await runTrellis(["trace", "show", trace, "--kind", "suppressed"])
        #expect(suppressed.stdoutLines == ["== step 1: resizeWindow 568x320", "A suppressed viewWillTransition (cut: A1)"])

        let tree = try await runTrellis(["trace", "show", trace, "--tree", "--step", "1", "--subtree", "A"])
        #expect(tree.stdoutLines.contains("    A viewWillTransition(to: 568x320)"))

        let follow = try await runTrellis(["trace", "follow", trace, "main#1"])
        #expect(follow.status == 0)
        #expect(follow.stdoutLines.first == "causes:")

        let merged = directory.appendingPathComponent("merged.jsonl").path
        #expect(try await runTrellis(["trace", "merge", trace, "-o", merged]).status == 0)
        #expect(try await runTrellis(["trace", "diff", trace, merged]).status == 0)

        let other = try await record("iphone-rotation.json", in: directory, name: "b.jsonl")
        let diff = try await runTrellis(["trace", "diff", trace, other])
        #expect(diff.status == 1)
        #expect(diff.stdout.contains("  - A suppressed viewWillTransition (cut: A1)"))
    }

    /// R60: layout events carry the frame their container gave; `show --frames` prints it.
    @Test func showPrintsFramesWhenAsked() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("side-by-side-row.json", in: directory, name: "row.jsonl")
        let shown = try await runTrellis(["trace", "show", trace, "--frames", "--step", "3", "--kind", "layout"])
        #expect(shown.status == 0)
        #expect(shown.stdoutLines == [
            "== step 3: resizeWindow 768x1024",
            "R viewWillLayoutSubviews  frame 0,0 768x1024",
            "R viewDidLayoutSubviews",
            "Left viewWillLayoutSubviews  frame 0,0 384x1024",
            "Left viewDidLayoutSubviews",
            "Right viewWillLayoutSubviews  frame 384,0 384x1024",
            "Right viewDidLayoutSubviews",
            "pc:P containerViewWillLayoutSubviews  frame 0,0 768x1024",
            "pc:P containerViewDidLayoutSubviews",
        ])
        // Without the flag the lines are the canonical ones.
        let plain = try await runTrellis(["trace", "show", trace, "--step", "3", "--kind", "layout", "--tree"])
        #expect(plain.stdoutLines.allSatisfy { !$0.contains("frame") })
        let tree = try await runTrellis(["trace", "show", trace, "--step", "3", "--kind", "layout", "--tree", "--frames"])
        #expect(tree.stdoutLines.contains { $0.hasSuffix("Right viewWillLayoutSubviews  frame 384,0 384x1024") })
    }

    @Test func corruptLinesAreReportedAndUnreadableFilesRejected() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("ipad-rotation.json", in: directory, name: "t.jsonl")
        var lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = "garbage"
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let shown = try await runTrellis(["trace", "show", trace])
        #expect(shown.status == 2)
        #expect(shown.stderr == "error: \(trace):3: not JSON at column 1 of the line: unexpected character 'g', expected a value (line skipped)\n")
        // The header line and the garbage print nothing; every other line is an event, printed
        // before the exit status says the file is damaged.
        #expect(shown.stdoutLines.count == lines.count - 2)

        #expect(try await runTrellis(["trace", "show", directory.appendingPathComponent("missing.jsonl").path]).status == 2)
        #expect(try await runTrellis(["trace", "follow", trace, "nowhere#9"]).status == 2)
        #expect(try await runTrellis(["trace", "show", trace, "--step", "3-1"]).status == 2)
    }

    /// A file of which no line is an event — a scenario given where a trace is wanted — is one
    /// error and exit 2, not a warning a line and exit 0; so is an empty file (`TraceInputTests`).
    @Test("a file with no trace event in it (a scenario file) is refused with one error, exit 2")
    func aFileWithNoEventIsNotATrace() async throws {
        let shown = try await runTrellis(["trace", "show", "Examples/iphone-rotation.json"])
        #expect(shown.status == 2)
        #expect(shown.stdout.isEmpty)
        let errors = shown.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(shown.stderr)")
        #expect(errors.first?.hasPrefix("error: Examples/iphone-rotation.json holds no trace event: Examples/iphone-rotation.json:1: not JSON") == true, "\(shown.stderr)")
        #expect(shown.stderr.contains("a scenario is run with `trellis run`"))
    }

    /// `show --ids` names each event as `follow` takes it.
    @Test func showPrintsIDsForFollow() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "ids.jsonl")
        let plain = try await runTrellis(["trace", "show", trace])
        let shown = try await runTrellis(["trace", "show", trace, "--ids"])
        #expect(shown.status == 0)
        #expect(shown.stdoutLines.count == plain.stdoutLines.count)
        #expect(shown.stdoutLines.first == "main#1  R viewWillLayoutSubviews")
        #expect(zip(shown.stdoutLines, plain.stdoutLines).allSatisfy { $0.hasSuffix("  " + $1) })
        let suppressed = try #require(shown.stdoutLines.first { $0.hasSuffix("A suppressed viewWillTransition (cut: A1)") })
        let id = String(suppressed.prefix { $0 != " " })
        let follow = try await runTrellis(["trace", "follow", trace, id])
        #expect(follow.stdoutLines.contains("  \(id)  A suppressed viewWillTransition (cut: A1)"))
        let tree = try await runTrellis(["trace", "show", trace, "--tree", "--ids"])
        #expect(tree.stdoutLines.contains("      \(id)  A suppressed viewWillTransition (cut: A1)"))
    }

    /// Issue 24: while a custom presentation is adapted, its presentation controller's size and
    /// frame lines are the adapted style's answers, and follow and show's inspection views say so;
    /// before and after the adaptation they are its own, and nothing is added.
    @Test func adaptedAnswersAreMarked() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("adapted.json")
        try Data("""
            { \(Pad.window), "root": "R",
              "controllers": {
                "R": { "kind": "view" },
                "S": { "kind": "view", "modalPresentationStyle": "custom",
                       "presentationController": { "sizeForChild": { "fraction": [0.3333, 1], "round": "floor" },
                                                   "frame": { "align": "right" } },
                       "adaptiveDelegate": { "style": "fullScreen" } } },
              "steps": [
                { "present": "S", "from": "R", "animated": true },
                { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
                { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } } ] }
            """.utf8).write(to: scenario)
        let trace = directory.appendingPathComponent("adapted.jsonl").path
        #expect(try await runTrellis(["run", scenario.path, "--trace", trace]).status == 0)
        let mark = "  (answered by the adapted style fullScreen, not the custom presentation's code)"
        for step in ["1", "3"] {
            let own = try await runTrellis(["trace", "show", trace, "--step", step, "--tree"])
            #expect(own.status == 0)
            #expect(!own.stdout.contains("answered by the adapted style"), "step \(step): \(own.stdout)")
        }
        // Plain show prints the canonical lines, as run does.
        let plain = try await runTrellis(["trace", "show", trace, "--step", "2"])
        #expect(plain.stdoutLines.contains("pc:S sizeForChild(S, parent: 320x768) -> 320x768"), "\(plain.stdout)")
        #expect(!plain.stdout.contains("answered by the adapted style"))
        let adapted = try await runTrellis(["trace", "show", trace, "--step", "2", "--ids"]).stdoutLines
        let marked = adapted.filter { $0.hasSuffix(mark) }
        #expect(marked.contains { $0.hasSuffix("pc:S sizeForChild(S, parent: 320x768) -> 320x768" + mark) }, "\(adapted)")
        // Only the presentation controller's size and frame lines are marked.
        #expect(marked.allSatisfy { $0.contains("pc:S sizeForChild(") || $0.contains("pc:S frameOfPresentedViewInContainerView") }, "\(marked)")
        let id = try #require(marked.first.map { String($0.prefix { $0 != " " }) })
        let follow = try await runTrellis(["trace", "follow", trace, id])
        #expect(follow.stdoutLines.contains { $0.hasPrefix("  \(id)  pc:S") && $0.hasSuffix(mark) }, "\(follow.stdout)")
        let tree = try await runTrellis(["trace", "show", trace, "--tree", "--step", "2"])
        #expect(tree.stdoutLines.contains { $0.hasSuffix("pc:S sizeForChild(S, parent: 320x768) -> 320x768" + mark) }, "\(tree.stdout)")
    }

    /// A damaged file whose causes go round in a cycle is an error naming an event of it.
    @Test func aCycleOfCausesIsReported() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "cycle.jsonl")
        var lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        // The first event caused by the third (A's first layout), which it caused: a cycle of
        // two (the first line with a cause is the first event's; a JSON Lines 1.1 file starts
        // with its header). The second, R's viewDidLayoutSubviews, has no cause.
        let first = try #require(lines.firstIndex { $0.contains("\"cause\":null") })
        lines[first] = lines[first].replacingOccurrences(of: "\"cause\":null", with: "\"cause\":\"main#3\"")
        try lines.joined(separator: "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        // diff (of the trace with itself: "same" before), convert and merge refuse it like the
        // others (issue 27 item 4), and write nothing.
        let copy = directory.appendingPathComponent("copy.trellis").path
        for arguments in [["show", trace, "--tree"], ["show", trace], ["follow", trace, "main#3"], ["export", trace, "--format", "perfetto"],
                          ["export", trace, "--format", "mermaid"], ["diff", trace, trace], ["convert", trace, copy],
                          ["merge", trace, "-o", copy]] {
            let outcome = try await runTrellis(["trace"] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: copy), "\(arguments)")
            #expect(outcome.stderr.contains("cycle of causes"), "\(arguments)")
            #expect(outcome.stderr.contains("main#1") || outcome.stderr.contains("main#3"), "\(arguments)")
        }
        let json = try await runTrellis(["trace", "diff", trace, trace, "--format", "json"])
        #expect(json.status == 2 && json.stdout.contains("cycle of causes") && json.stdout.contains("\"same\":null"), "\(json.stdout)")
    }

    /// An event that is its own cause is a cycle of one; an event line written twice is two
    /// events with one id: every command refuses both, as it refuses a longer cycle. A file of
    /// two runs joined is converted (each run's ids are its own), and shown as damage.
    @Test func anOwnCauseAndARepeatedEventAreReported() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "sound.jsonl")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let first = try #require(lines.firstIndex { $0.contains("\"cause\":null") })
        var own = lines
        own[first] = own[first].replacingOccurrences(of: "\"cause\":null", with: "\"cause\":\"main#1\"")
        var twice = lines
        twice.insert(lines[first + 3], at: first + 4)
        let copy = directory.appendingPathComponent("copy.trellis").path
        for (name, damaged, expected) in [("own.jsonl", own, "the causes of main#1 lead back to it"), ("twice.jsonl", twice, "two events are main#4")] {
            let path = directory.appendingPathComponent(name).path
            try damaged.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            for arguments in [["show", path], ["show", path, "--tree"], ["follow", path, "main#2"], ["export", path, "--format", "perfetto"],
                              ["diff", path, trace], ["convert", path, copy], ["merge", path, "-o", copy]] {
                let outcome = try await runTrellis(["trace"] + arguments)
                #expect(outcome.status == 2, "\(arguments)")
                #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
                #expect(!FileManager.default.fileExists(atPath: copy), "\(arguments)")
            }
        }
        // Two runs in one file: each run's ids are its own, so a conversion copies both.
        let other = try await record("iphone-rotation.json", in: directory, name: "other.jsonl")
        let joined = directory.appendingPathComponent("joined.jsonl").path
        try (String(contentsOfFile: trace, encoding: .utf8) + String(contentsOfFile: other, encoding: .utf8)).write(toFile: joined, atomically: true, encoding: .utf8)
        let converted = try await runTrellis(["trace", "convert", joined, copy])
        #expect(converted.status == 0, "\(converted.stderr)")
        let shown = try await runTrellis(["trace", "show", joined])
        #expect(shown.status == 2 && shown.stderr.contains("the files of two runs joined into one"), "\(shown.stderr)")
    }

    /// A cause the trace does not have (a lost node's event, or an edited line) is not damage:
    /// the event is shown as a root, and a notice says so; a sound trace gets none.
    @Test func aCauseTheTraceLacksIsShownAsARootWithANotice() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "sound.jsonl")
        let sound = try await runTrellis(["trace", "show", trace, "--tree"])
        #expect(sound.status == 0 && !sound.stderr.contains("notice"), "\(sound.stderr)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        let caused = try #require(lines.firstIndex { $0.contains("\"cause\":\"main#") })
        var edited = lines
        edited[caused] = try #require(edited[caused].replacing(#/"cause":"main#\d+"/#, with: #""cause":"main#9999""#, maxReplacements: 1) as String?)
        let path = directory.appendingPathComponent("dangling.jsonl").path
        try edited.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let shown = try await runTrellis(["trace", "show", path, "--tree"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stderr.contains("notice: 1 event names a cause the trace does not have"), "\(shown.stderr)")
        #expect(shown.stderr.contains("caused by main#9999); it starts a causal chain of its own"), "\(shown.stderr)")
    }
}

@Suite("trellis trace export")
struct TraceExportCommandTests {
    @Test func exportsEveryFormat() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("t.jsonl").path
        #expect(try await runTrellis(["run", "Examples/popover-adaptation.json", "--trace", trace]).status == 0)
        for format in ["perfetto", "mermaid", "plantuml"] {
            let outcome = try await runTrellis(["trace", "export", trace, "--format", format])
            #expect(outcome.status == 0)
            #expect(!outcome.stdout.isEmpty)
        }
        let svg = directory.appendingPathComponent("screen.svg").path
        let picture = try await runTrellis(["trace", "export", "--format", "svg", "--scenario", "Examples/popover-adaptation.json", "--step", "3", "-o", svg])
        #expect(picture.status == 0)
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("<svg") && text.contains("wrap:P"))
        #expect(try await runTrellis(["trace", "export", "--format", "svg", "--scenario", "Examples/popover-adaptation.json", "--step", "99"]).status == 2)
        #expect(try await runTrellis(["trace", "export", "--format", "svg"]).status == 2)
        #expect(try await runTrellis(["trace", "export", trace, "--format", "mermaid", "--step", "x"]).status == 2)
    }

    /// Issue 24: svg draws by running --scenario; a trace file named with it was silently ignored
    /// (even one that does not exist). It is refused, naming the file; missing files are exit 2.
    @Test("svg refuses a trace file it would not read; a missing file is exit 2 naming it")
    func svgRefusesATraceFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("t.jsonl").path
        #expect(try await runTrellis(["run", "Examples/popover-adaptation.json", "--trace", trace]).status == 0)
        let svg = ["--format", "svg", "--scenario", "Examples/popover-adaptation.json", "--step", "1"]
        let given = try await runTrellis(["trace", "export", trace] + svg)
        #expect(given.status == 2)
        #expect(given.stdout.isEmpty)
        #expect(given.stderr.contains(trace) && given.stderr.contains("reads no trace file"), "\(given.stderr)")
        // One step, not a range: said as such.
        let range = try await runTrellis(["trace", "export", "--format", "svg", "--scenario", "Examples/popover-adaptation.json", "--step", "1-2"])
        #expect(range.status == 2 && range.stderr.contains("svg draws the screen after one step: --step 1-2 is a range; give one step N"), "\(range.stderr)")
        let missing = directory.appendingPathComponent("missing.jsonl").path
        let absent = try await runTrellis(["trace", "export", missing] + svg)
        #expect(absent.status == 2)
        #expect(absent.stderr.contains("\(missing) does not exist"), "\(absent.stderr)")
        // A missing scenario, and a missing trace for the other formats: exit 2, naming the file.
        let noScenario = try await runTrellis(["trace", "export", "--format", "svg", "--scenario", missing, "--step", "1"])
        #expect(noScenario.status == 2)
        #expect(noScenario.stderr.contains(missing), "\(noScenario.stderr)")
        let noTrace = try await runTrellis(["trace", "export", missing, "--format", "mermaid"])
        #expect(noTrace.status == 2)
        #expect(noTrace.stderr.contains(missing), "\(noTrace.stderr)")
        // The help says so.
        let help = try await runTrellis(["trace", "export", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("svg reads no trace file") && words.contains("svg takes none"), "\(help.stdout)")
    }
}
