import Foundation
import Testing
import TrellisTestSupport

/// What every `trellis trace` command refuses in the files it is given, and in its filters
/// (found testing as a user, 2026-11-28): files that cannot be of one run, damaged or empty
/// files, filter values that match nothing.
@Suite("trellis trace: files of one run, damage, filters that match nothing")
struct TraceInputTests {
    /// The run id a JSON Lines 1.1 file's header line names.
    func runID(_ path: String) throws -> String {
        let header = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        return try #require(object["run"] as? String)
    }

    @Test("files of different runs, a file given twice (by name or by link) and two captures of one node are refused, exit 2")
    func filesOfOneRun() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = try await record("suppression-middle.json", in: directory, name: "a.jsonl")
        let again = try await record("suppression-middle.json", in: directory, name: "again.jsonl")
        let b = try await record("iphone-rotation.json", in: directory, name: "b.jsonl")
        let differentRuns = "error: \(a) and \(b) are of different runs (\(a): run \"\(try runID(a))\", \(b): run \"\(try runID(b))\"): "
            + "the files read together must be the files of one run\n"
        for arguments in [["merge", a, b], ["show", a, b], ["follow", a, b, "main#1"], ["diff", "--left", a, "--left", b, "--right", a],
                          ["export", a, b, "--format", "mermaid"]] {
            let outcome = try await runTrellis(["trace"] + arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stdout.isEmpty, "\(arguments)")
            #expect(outcome.stderr == differentRuns, "\(arguments)")
        }
        let twice = try await runTrellis(["trace", "merge", a, a])
        #expect(twice.status == 2)
        #expect(twice.stderr == "error: \(a) is given twice: name each file once\n")

        let link = directory.appendingPathComponent("link.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: a)
        let attributes = try FileManager.default.attributesOfItem(atPath: a)
        let device = try #require(attributes[.systemNumber] as? NSNumber), inode = try #require(attributes[.systemFileNumber] as? NSNumber)
        let linked = try await runTrellis(["trace", "show", a, link])
        #expect(linked.status == 2)
        #expect(linked.stderr == "error: \(a) and \(link) are the same file (device \(device), inode \(inode)): name each file once\n")

        // Two runs of one scenario have the same run id (its name): their events are the same ids.
        let twoRuns = try await runTrellis(["trace", "merge", a, again])
        #expect(twoRuns.status == 2)
        #expect(twoRuns.stderr == "error: \(a) and \(again) both hold event main#1: each event of a run is in one file, so these are "
            + "captures of two runs (of one scenario, whose run id is its name) or a merged file and one of its parts\n")

        // Each side of a diff is one run; the two sides may be anything, the same file too.
        #expect(try await runTrellis(["trace", "diff", a, a]).status == 0)
        #expect(try await runTrellis(["trace", "diff", a, b]).status == 1)
    }

    @Test("a damaged or empty file is exit 2 in every command, naming the file and where; merge and convert write nothing")
    func damagedAndEmptyFiles() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try await record("suppression-middle.json", in: directory, name: "whole.jsonl")
        let text = try String(contentsOfFile: whole, encoding: .utf8)
        let lines = text.split(separator: "\n")
        // Cut inside the last line's `"seq"` key, as a write stopped there leaves it.
        let cut = directory.appendingPathComponent("cut.jsonl").path
        try (lines.dropLast().joined(separator: "\n") + "\n{\"seq\":").write(toFile: cut, atomically: true, encoding: .utf8)
        let empty = directory.appendingPathComponent("empty.jsonl").path
        try "".write(toFile: empty, atomically: true, encoding: .utf8)
        let output = directory.appendingPathComponent("out.trellis").path

        let damage = "error: \(cut):\(lines.count): not JSON at column 8 of the line: unexpected end of text, expected a value"
        let noEvent = "error: \(empty) holds no trace event: it is empty (0 bytes); a trace is JSON Lines (one event a line) or a compact "
            + "capture, as `trellis run --trace` writes it (a scenario is run with `trellis run`)\n"
        for command in [["show"], ["follow", "main#1"], ["diff", whole], ["export", "--format", "mermaid"], ["merge", "-o", output], ["convert", output]] {
            let (name, rest) = (command[0], Array(command.dropFirst()))
            let arguments = [name, cut] + rest
            let damaged = try await runTrellis(["trace"] + arguments)
            #expect(damaged.status == 2, "\(arguments)")
            let writes = name == "merge" || name == "convert"
            #expect(damaged.stderr == damage + (writes ? "" : " (line skipped)") + "\n", "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(arguments)")
            // What could be read is still printed by the commands that print.
            #expect(damaged.stdout.isEmpty == writes || name == "diff", "\(arguments)")

            let nothing = try await runTrellis(["trace", name, empty] + rest)
            #expect(nothing.status == 2, "\(name)")
            #expect(nothing.stdout.isEmpty, "\(name)")
            #expect(nothing.stderr == noEvent, "\(name)")
        }
        // A header of another major version: the lines after it cannot be read either; they are
        // counted as such, not said to be "like" the header.
        let other = directory.appendingPathComponent("v9.jsonl").path
        try ([lines[0].replacingOccurrences(of: #""v":"1.1""#, with: #""v":"9.0""#)] + lines.dropFirst().map(String.init)).joined(separator: "\n")
            .write(toFile: other, atomically: true, encoding: .utf8)
        let newer = try await runTrellis(["trace", "show", other])
        #expect(newer.status == 2)
        #expect(newer.stderr.contains(#"field "v": major version 9 is not supported (this reader reads 1.x) (and \#(lines.count - 1) more lines that could not be read)"#),
                "\(newer.stderr)")
        let json = try await runTrellis(["trace", "diff", cut, whole, "--format", "json"])
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"status\":2") && json.stdout.contains("not JSON at column 8 of the line"), "\(json.stdout)")
    }

    @Test("a seq too large to hold says so, and the bound")
    func tooLargeANumber() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "t.jsonl")
        var lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: "\"seq\":2,", with: "\"seq\":99999999999999999999999,")
        try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
        let shown = try await runTrellis(["trace", "show", trace])
        #expect(shown.status == 2)
        #expect(shown.stderr == "error: \(trace):3: field \"seq\": 1e+23 is too large (at most 18446744073709551615) (line skipped)\n")
    }

    @Test("--kind that is no kind is a usage error listing the kinds; a controller, step, transition or node the trace lacks is exit 2 naming what it has")
    func filtersThatMatchNothing() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = try await record("suppression-middle.json", in: directory, name: "t.jsonl")
        let kind = try await runTrellis(["trace", "show", trace, "--kind", "delivry"])
        #expect(kind.status == 2)
        #expect(kind.stdout.isEmpty)
        #expect(kind.stderr.hasPrefix("Error: --kind \"delivry\" is neither a kind nor a message name; the kinds: appearance, coordinator, "
            + "delivery, error, fault, layout, note, presentation, query, request, structure, suppression, warning; or a message name, "
            + "the word after the receiver in a line (viewWillTransition, sizeForChild, viewDidAppear…)\n"), "\(kind.stderr)")
        let capital = try await runTrellis(["trace", "show", trace, "--kind", "Suppression"])
        #expect(capital.stderr.hasPrefix("Error: --kind \"Suppression\" is neither a kind nor a message name (did you mean suppression?); "))
        // Message names and kinds are both accepted.
        #expect(try await runTrellis(["trace", "show", trace, "--kind", "viewDidLayoutSubviews", "--kind", "query"]).status == 0)

        let cases: [([String], String)] = [
            (["--controller", "Nobody"], "error: no controller Nobody in the trace (its controllers: A, A1, B, B1, R, window)\n"),
            (["--subtree", "A", "--subtree", "Nobody"], "error: no controller Nobody in the trace (its controllers: A, A1, B, B1, R, window)\n"),
            (["--step", "99"], "error: no step 99 in the trace (its steps: 0-1; 0 is the initial layout, and an expect step has no events)\n"),
            (["--step", "5-9"], "error: no step in 5-9 in the trace (its steps: 0-1; 0 is the initial layout, and an expect step has no events)\n"),
            // The range is not walked: this one would take billions of years.
            (["--step", "100-9223372036854775807"], "error: no step in 100-9223372036854775807 in the trace (its steps: 0-1; 0 is the initial layout, and an expect step has no events)\n"),
            (["--transition", "7"], "error: no transition 7 in the trace (its transitions: 1)\n"),
            (["--node", "b"], "error: no node b in the trace (its nodes: main)\n"),
        ]
        for (filter, message) in cases {
            let outcome = try await runTrellis(["trace", "show", trace] + filter)
            #expect(outcome.status == 2, "\(filter)")
            #expect(outcome.stdout.isEmpty, "\(filter)")
            #expect(outcome.stderr == message, "\(filter)")
        }
        let diagram = try await runTrellis(["trace", "export", trace, "--format", "mermaid", "--controller", "Nobody"])
        #expect(diagram.status == 2)
        #expect(diagram.stderr == "error: no controller Nobody in the trace (its controllers: A, A1, B, B1, R, window)\n")
        // A range reaching past the last step is fine: it has steps.
        #expect(try await runTrellis(["trace", "show", trace, "--step", "1-9"]).status == 0)
    }

    @Test("show --step N prints the header of a step that made no event")
    func aQuietStepKeepsItsHeader() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("quiet.json")
        try Data("""
            { "scenario": "quiet", "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": {} },
              "steps": [ { "resizeWindow": [320, 568] }, { "resizeWindow": [568, 320] } ] }
            """.utf8).write(to: scenario)
        let trace = directory.appendingPathComponent("quiet.jsonl").path
        #expect(try await runTrellis(["run", scenario.path, "--trace", trace]).status == 0)
        for view in [[String](), ["--tree"]] {
            let shown = try await runTrellis(["trace", "show", trace, "--step", "1"] + view)
            #expect(shown.status == 0)
            #expect(shown.stdoutLines == ["== step 1: resizeWindow 320x568"], "\(view)")
        }
        // With another criterion, a step's header comes with the events kept in it.
        let layout = try await runTrellis(["trace", "show", trace, "--step", "1-2", "--kind", "layout"])
        #expect(layout.stdoutLines.first == "== step 2: resizeWindow 568x320", "\(layout.stdout)")
    }
}
