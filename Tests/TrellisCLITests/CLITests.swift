import Foundation
import Testing
import TrellisTestSupport

/// SPEC §8: `trellis run` and `trellis validate`, their output and exit statuses
/// (0 success, 1 an `expect` step failed, 2 bad input).
@Suite("the trellis command")
struct CLITests {
    /// Writes `text` to a file in a fresh scratch directory and returns its path.
    func scenarioFile(_ text: String, name: String = "scenario.json") throws -> String {
        let url = try scratchDirectory().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("run prints the canonical trace with one header per non-expect step, numbered by position, and exits 0")
    func runExample() async throws {
        let outcome = try await runTrellis(["run", "Examples/iphone-rotation.json"])
        #expect(!outcome.timedOut)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let headers = outcome.stdoutLines.filter { $0.hasPrefix("== step ") }
        // Steps: transition, expect, expect, transition, expect.
        #expect(headers.count == 2)
        #expect(headers.first?.hasPrefix("== step 1: transition") == true)
        #expect(headers.last?.hasPrefix("== step 4: transition") == true)
        #expect(outcome.stdoutLines.contains("R viewWillTransition(to: 568x320)"))
        #expect(outcome.stdoutLines.first?.hasPrefix("==") == false, "the initial layout comes before the first header")
        #expect(outcome.stderr.isEmpty)
    }

    @Test("run --transport zmq of a scenario without placement says on one line that everything runs in one node", .tags(.multiProcess), .selected(.multiProcess))
    func zmqWithoutPlacementSaysSo() async throws {
        let path = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        let outcome = try await runTrellis(["run", path, "--transport", "zmq"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let notices = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("notice: ") }
        #expect(notices == ["notice: \(path) has no \"placement\": every controller runs in one node (main), in this process"])
        let inProcess = try await runTrellis(["run", path])
        #expect(outcome.stdout == inProcess.stdout)
        // A scenario with a placement over several nodes gets no notice.
        let placed = try await runTrellis(["run", "Examples/iphone-rotation.json", "--transport", "zmq"])
        #expect(placed.status == 0, "stderr: \(placed.stderr)")
        #expect(!placed.stderr.contains("notice:"))
    }

    @Test("run with a wrong expect step exits 1 and prints a diff with - and + lines on stderr")
    func runWrongExpect() async throws {
        let path = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] },
                         { "expect": ["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 999x999)"] } ] }
            """)
        let outcome = try await runTrellis(["run", path])
        #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
        let errorLines = outcome.stderr.split(separator: "\n").map(String.init)
        #expect(errorLines.contains { $0.hasPrefix("  - ") && $0.hasSuffix("A viewWillTransition(to: 999x999)") })
        #expect(errorLines.contains { $0.hasPrefix("  + ") && $0.hasSuffix("A viewWillTransition(to: 568x320)") })
        // Issue 24: FILE:LINE:COLUMN of the expect step, as every other scenario error gives.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("{ \"expect\"") })
        let column = try #require(lines[line].range(of: "{ \"expect\"")).lowerBound.utf16Offset(in: lines[line]) + 1
        #expect(outcome.stderr.contains("\(path):\(line + 1):\(column): expect at step 2 ($.steps[1]) failed for step 1"), "\(outcome.stderr)")
        // The trace is still printed.
        #expect(outcome.stdoutLines.contains("A viewWillTransition(to: 568x320)"))
    }

    @Test("run of a bad scenario exits 2 naming the file and the JSON path, and runs nothing")
    func runBadFile() async throws {
        let path = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A", "Q"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        let outcome = try await runTrellis(["run", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(path))
        #expect(outcome.stderr.contains("$.controllers.R.children[1]"))
        #expect(outcome.stderr.contains("Q"))
        #expect(outcome.stdout.isEmpty)
    }

    @Test("a command misspelt is named, with the command it is closest to; exit 2")
    func aMisspeltCommand() async throws {
        let outcome = try await runTrellis(["runn", "Examples/iphone-rotation.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("Error: unknown command 'runn' (did you mean 'run'?); the commands are"), "\(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
        let far = try await runTrellis(["xyzzy"])
        #expect(far.status == 2 && far.stderr.contains("unknown command 'xyzzy'; the commands are"), "\(far.stderr)")
    }

    @Test("run of a file that is not JSON exits 2")
    func runNotJSON() async throws {
        let path = try scenarioFile("{ this is not json")
        let outcome = try await runTrellis(["run", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(path))
    }

    @Test("run or validate of a JSON Lines trace says it is a trace and how to show it; exit 2")
    func runATrace() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("t.jsonl").path
        #expect(try await runTrellis(["run", "Examples/suppression-middle.json", "--trace", trace]).status == 0)
        for command in ["run", "validate"] {
            let outcome = try await runTrellis([command, trace])
            #expect(outcome.status == 2)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr == "error: \(trace):1:1: this is a JSON Lines trace (one event a line), not a scenario: a trace is shown with `trace show \(trace)`\n", "\(command)")
        }
    }

    @Test("run or validate of a compact capture says it is a trace and how to show it, not that it holds a NUL byte; exit 2")
    func runACompactCapture() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("t.trellis").path
        #expect(try await runTrellis(["run", "Examples/suppression-middle.json", "--trace", trace]).status == 0)
        for command in ["run", "validate"] {
            let outcome = try await runTrellis([command, trace])
            #expect(outcome.status == 2)
            #expect(outcome.stdout.isEmpty)
            #expect(outcome.stderr == "error: \(trace): this is a compact trace capture, not a scenario: a trace is shown with `trace show \(trace)`\n", "\(command)")
        }
    }

    @Test("run of a missing file exits 2 naming it")
    func runMissingFile() async throws {
        let outcome = try await runTrellis(["run", "/nonexistent/trellis-scenario.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("/nonexistent/trellis-scenario.json"))
    }

    @Test("an unknown option exits 2", arguments: [
        ["run", "Examples/iphone-rotation.json", "--frobnicate"],
        ["run", "Examples/iphone-rotation.json", "--format", "xml"],
        ["run"],
        ["explode"],
        ["bench", "--in-process-only", "--transport-only"],
        ["bench", "--profile-transitions", "1", "--profile-trace", "bogus"],
        ["bench", "--figure", "zmq-latency"],
    ])
    func badArguments(_ arguments: [String]) async throws {
        let outcome = try await runTrellis(arguments)
        #expect(outcome.status == 2, "stdout: \(outcome.stdout) stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.isEmpty)
    }

    @Test("run has no --seed: a run's order is fixed, so no seed could change it (docs/decisions.md)")
    func noSeed() async throws {
        let help = try await runTrellis(["run", "--help"])
        #expect(help.status == 0)
        #expect(!help.stdout.contains("--seed"))
        let outcome = try await runTrellis(["run", "Examples/iphone-rotation.json", "--seed", "1"])
        #expect(outcome.status == 2, "stdout: \(outcome.stdout) stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("--seed"))
    }

    @Test("--help exits 0 and describes the commands", arguments: [["--help"], ["run", "--help"], ["validate", "--help"]])
    func help(_ arguments: [String]) async throws {
        let outcome = try await runTrellis(arguments)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        #expect(outcome.stdout.localizedCaseInsensitiveContains("usage"))
        if arguments == ["--help"] {
            #expect(outcome.stdout.contains("run"))
            #expect(outcome.stdout.contains("validate"))
        }
    }

    @Test("validate accepts every example and exits 0")
    func validateExamples() async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Examples").path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let outcome = try await runTrellis(["validate", "Examples/\(name)"])
            #expect(outcome.status == 0, "\(name): \(outcome.stderr)")
            #expect(outcome.stdout.contains("ok"))
        }
    }

    @Test("validate rejects a bad file with exit 2, the file and the JSON path")
    func validateBad() async throws {
        let path = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "kind": "view", "colour": "red" } } }
            """)
        let outcome = try await runTrellis(["validate", path])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(path))
        #expect(outcome.stderr.contains("$.controllers.R.colour"))
    }

    @Test("an action on an unknown controller: exit 2 with FILE:LINE:COLUMN and the path of its `on`; one nobody handles runs, with a warning")
    func actionSteps() async throws {
        let bad = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "action": "tap", "on": "Nobody" } ] }
            """)
        let refused = try await runTrellis(["validate", bad])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(bad):3:39: $.steps[0].on: unknown controller \"Nobody\""), "\(refused.stderr)")
        let good = try scenarioFile("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "action": "tap", "on": "R", "value": { "x": 1.5 } } ] }
            """)
        let ran = try await runTrellis(["run", good])
        #expect(ran.status == 0, "\(ran.stderr)")
        #expect(ran.stdoutLines.suffix(3) == [
            #"== step 1: action tap on R value {"x":1.5}"#,
            #"R action(tap, value: {"x":1.5})"#,
            "R warning action tap on R was not handled (its behaviour's perform returned false)",
        ])
    }

    @Test("--format jsonl prints one JSON object per event, as many as the text form has lines")
    func jsonl() async throws {
        let text = try await runTrellis(["run", "Examples/iphone-rotation.json"])
        let outcome = try await runTrellis(["run", "Examples/iphone-rotation.json", "--format", "jsonl"])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdoutLines
        #expect(lines.count == text.stdoutLines.count)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let event = try #require(object, "not a JSON object: \(line)")
            for key in ["v", "run", "node", "seq", "lamport", "controller", "kind", "message", "payload"] {
                #expect(event[key] != nil, "\(key) missing in \(line)")
            }
        }
    }

    @Test("--trace FILE also writes the JSON Lines capture, one line per event")
    func traceFile() async throws {
        let directory = try scratchDirectory()
        let tracePath = directory.appendingPathComponent("trace.jsonl").path
        let outcome = try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", tracePath])
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let capture = try String(contentsOfFile: tracePath, encoding: .utf8)
        let lines = capture.split(separator: "\n")
        // A header line (1.1), then a line per event.
        #expect(lines.count == outcome.stdoutLines.count + 1)
        #expect(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
    }

    @Test("a step that cannot be run: exit 2 naming the step, and the --trace file keeps the trace so far, ending with the error line")
    func traceFileOfAStepThatCannotBeRun() async throws {
        let path = try scenarioFile("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["A", "B"] }, "A": {}, "B": {} },
              "steps": [ { "pop": "N" },
                         { "setTraitOverride": { "container": "N", "child": "B", "traits": { "userInterfaceStyle": "dark" } } } ] }
            """)
        let tracePath = try scratchDirectory().appendingPathComponent("trace.jsonl").path
        let outcome = try await runTrellis(["run", path, "--trace", tracePath])
        #expect(outcome.status == 2, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("step 2 ($.steps[1]): \"B\" is not a child of \"N\""), "\(outcome.stderr)")
        #expect(outcome.stdoutLines.last == "N error \"B\" is not a child of \"N\"")
        let lines = try String(contentsOfFile: tracePath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == outcome.stdoutLines.count + 1)
        #expect(lines.last?.contains(#""kind":"error""#) == true, "\(lines.last ?? "")")
    }

    @Test("--trace where no file can be written is refused before the run, exit 2, naming what is wrong; nothing printed")
    func traceFileThatCannotBeWritten() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no/such/folder/trace.jsonl").path
        let refused = try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", missing])
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("--trace \(missing): the folder \(directory.path)/no/such/folder does not exist"), "\(refused.stderr)")
        let folder = try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", directory.path])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("--trace \(directory.path) is a folder, not a file"), "\(folder.stderr)")
    }

    @Test("a JSON scenario that starts with a byte order mark runs as without it")
    func byteOrderMark() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marked = directory.appendingPathComponent("marked.json")
        let original = try Data(contentsOf: packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        try (Data([0xEF, 0xBB, 0xBF]) + original).write(to: marked)
        let withMark = try await runTrellis(["run", marked.path])
        let without = try await runTrellis(["run", "Examples/iphone-rotation.json"])
        #expect(withMark.status == 0, "\(withMark.stderr)")
        #expect(withMark.stdout == without.stdout)
    }

    @Test("the test harness bounds every wait: a process that does not exit is killed")
    func harnessKillsAHangingProcess() async throws {
        let sleep = try #require(["/bin/sleep", "/usr/bin/sleep"].first { FileManager.default.isExecutableFile(atPath: $0) })
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = try await runProcess(URL(fileURLWithPath: sleep), ["600"], timeout: .milliseconds(200))
        #expect(outcome.timedOut)
        #expect(outcome.status != 0)
        #expect(clock.now - start < .seconds(60))
    }
}
