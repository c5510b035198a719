import Foundation
import Testing
import TrellisTestSupport

/// Issue 26 item 4: `--format json` on the commands a CI calls (`validate`, `run`, `trace diff`,
/// `bench`), each shape as docs/json-output.md documents it. Every document is read back with
/// Foundation's JSONSerialization, a reader independent of the writer that made it, and its
/// fields checked; the exit statuses are those of the prose forms.
@Suite("--format json")
struct JSONOutputTests {
    /// The one JSON document a command printed: standard output must be exactly one line, one
    /// object, and it must name `command` and the process's exit `status`.
    func document(_ outcome: ProcessOutcome, command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(!outcome.timedOut, sourceLocation: sourceLocation)
        return try document(stdout: outcome.stdout, status: outcome.status, command: command, sourceLocation: sourceLocation)
    }

    func document(stdout: String, status: Int32, command: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(stdout.hasSuffix("\n"), "stdout: \(stdout)", sourceLocation: sourceLocation)
        #expect(stdout.split(separator: "\n").count == 1, "one document on one line; stdout: \(stdout)", sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        let object = try #require(parsed as? [String: Any], "stdout: \(stdout)", sourceLocation: sourceLocation)
        #expect(object["command"] as? String == command, sourceLocation: sourceLocation)
        #expect(object["status"] as? Int == Int(status), sourceLocation: sourceLocation)
        return object
    }

    func objects(_ value: Any?, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        try #require(value as? [[String: Any]], "not an array of objects: \(String(describing: value))", sourceLocation: sourceLocation)
    }

    /// An error object has all five members, null where unknown.
    func checkErrorShape(_ error: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Set(error.keys) == ["file", "line", "column", "path", "message"], sourceLocation: sourceLocation)
        #expect((error["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    }

    func file(_ text: String, name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Line 3, column 14 is the `expect` step ($.steps[1]); its two lines are at 3:27 and 4:27.
    static let failingExpect = """
        { "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} },
          "steps": [ { "resizeWindow": [568, 320] },
                     { "expect": ["R viewWillTransition(to: 568x320)",
                                  "A viewWillTransition(to: 999x999)"] } ] }
        """

    @Test("validate: a valid file gives valid true, the scenario's counts and no errors")
    func validateValid() async throws {
        let outcome = try await runTrellis(["validate", "Examples/iphone-rotation.json", "--format", "json"])
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
        let report = try document(outcome, command: "validate")
        #expect(report["file"] as? String == "Examples/iphone-rotation.json")
        #expect(report["valid"] as? Bool == true)
        let scenario = try #require(report["scenario"] as? [String: Any])
        #expect((scenario["name"] as? String)?.hasPrefix("iphone-rotation") == true)
        #expect(scenario["controllers"] as? Int == 5)
        #expect(scenario["steps"] as? Int == 5)
        #expect(try objects(report["errors"]).isEmpty)
    }

    @Test("validate: an invalid file gives its error with the same file, line, column and path as the prose form, and exits 2")
    func validateInvalid() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["A", "Q"] }, "A": {} }, "steps": [] }
            """, name: "bad.json", in: directory)
        let outcome = try await runTrellis(["validate", path, "--format", "json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.isEmpty, "the error is in the document, not on stderr: \(outcome.stderr)")
        let report = try document(outcome, command: "validate")
        #expect(report["valid"] as? Bool == false)
        #expect(report["scenario"] is NSNull)
        let errors = try objects(report["errors"])
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        checkErrorShape(error)
        #expect(error["file"] as? String == path)
        #expect(error["line"] as? Int == 2)
        #expect(error["column"] as? Int == 45)
        #expect(error["path"] as? String == "$.controllers.R.children[1]")
        #expect(error["message"] as? String == "unknown controller \"Q\"")
        let prose = try await runTrellis(["validate", path])
        #expect(prose.status == 2)
        #expect(prose.stderr.contains("\(path):2:45: $.controllers.R.children[1]: unknown controller \"Q\""))
    }

    @Test("validate: a YAML file's error has its line and column in the YAML text")
    func validateYAML() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file("""
            window: { size: [320, 568] }
            root: R
            controllers:
              R: { children: [A] }
              A: { kind: nope }
            steps: []
            """, name: "bad.yaml", in: directory)
        let outcome = try await runTrellis(["validate", path, "--format", "json"])
        #expect(outcome.status == 2)
        let error = try #require(try objects(try document(outcome, command: "validate")["errors"]).first)
        checkErrorShape(error)
        #expect(error["line"] as? Int == 5)
        #expect(error["path"] as? String == "$.controllers.A.kind")
    }

    @Test("validate: a missing file is an error with the file and no position; exit 2")
    func validateMissingFile() async throws {
        let outcome = try await runTrellis(["validate", "/nonexistent/trellis.json", "--format", "json"])
        #expect(outcome.status == 2)
        let error = try #require(try objects(try document(outcome, command: "validate")["errors"]).first)
        checkErrorShape(error)
        #expect(error["file"] as? String == "/nonexistent/trellis.json")
        #expect(error["line"] is NSNull)
        #expect(error["column"] is NSNull)
        #expect(error["path"] is NSNull)
    }

    @Test("run: a failed expect gives its step, place in the file, expected and actual lines and a diff; no trace on stdout; exit 1")
    func runFailedExpect() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file(Self.failingExpect, name: "fail.json", in: directory)
        let trace = directory.appendingPathComponent("run.jsonl").path
        let outcome = try await runTrellis(["run", path, "--format", "json", "--trace", trace])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.isEmpty, "the failure is in the document, not on stderr: \(outcome.stderr)")
        let report = try document(outcome, command: "run")
        #expect(report["file"] as? String == path)
        #expect(report["transport"] as? String == "inproc")
        #expect(report["passed"] as? Bool == false)
        #expect(report["traceFiles"] as? [String] == [trace])
        // The trace went to --trace only: its header, then one line an event.
        let written = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(report["events"] as? Int == written.filter { $0.hasPrefix("{\"seq\":") }.count)
        #expect(written.count == (report["events"] as? Int ?? 0) + 1)
        #expect(try objects(report["errors"]).isEmpty)
        let failure = try #require(try objects(report["failures"]).first)
        #expect(failure["step"] as? Int == 2)
        #expect(failure["checkedStep"] as? Int == 1)
        #expect(failure["file"] as? String == path)
        #expect(failure["path"] as? String == "$.steps[1]")
        #expect(failure["line"] as? Int == 3)
        #expect(failure["column"] as? Int == 14)
        #expect(failure["kinds"] as? [String] == ["viewWillTransition"])
        #expect(failure["expected"] as? [String] == ["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 999x999)"])
        #expect(failure["actual"] as? [String] == ["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"])
        let expectedAt = try objects(failure["expectedAt"])
        #expect(expectedAt.map { $0["line"] as? Int } == [3, 4])
        #expect(expectedAt.map { $0["column"] as? Int } == [27, 27])
        let diff = try objects(failure["diff"])
        #expect(diff.map { $0["op"] as? String } == ["same", "missing", "extra"])
        #expect(diff.map { $0["text"] as? String } == [
            "R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 999x999)", "A viewWillTransition(to: 568x320)",
        ])
        #expect(diff.map { $0["left"] as? Int } == [1, 2, nil])
        #expect(diff.map { $0["right"] as? Int } == [1, nil, 2])
        #expect(diff[1]["right"] is NSNull)
    }

    @Test("run: a passing run is passed true with its event count, as many as the prose form has lines")
    func runPasses() async throws {
        let outcome = try await runTrellis(["run", "Examples/iphone-rotation.json", "--format", "json"])
        #expect(outcome.status == 0)
        let report = try document(outcome, command: "run")
        #expect(report["passed"] as? Bool == true)
        #expect(try objects(report["failures"]).isEmpty)
        #expect(report["faults"] as? [String] == [])
        #expect(report["traceFiles"] as? [String] == [])
        let prose = try await runTrellis(["run", "Examples/iphone-rotation.json"])
        #expect(report["events"] as? Int == prose.stdoutLines.count)
    }

    @Test("run --transport zmq: the nodes' output stays off standard output; --trace-dir's files are listed, one per node")
    func runDistributed() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try await runTrellis([
            "run", "Examples/iphone-rotation.json", "--transport", "zmq", "--trace-dir", directory.path, "--format", "json",
        ], timeout: .seconds(120))
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let report = try document(outcome, command: "run")
        #expect(report["transport"] as? String == "zmq")
        #expect(report["passed"] as? Bool == true)
        let files = try #require(report["traceFiles"] as? [String])
        #expect(Set(files.map { ($0 as NSString).lastPathComponent }) == ["main.jsonl", "b.jsonl", "c.jsonl"])
        for file in files { #expect(FileManager.default.fileExists(atPath: file)) }
        let inProcess = try document(try await runTrellis(["run", "Examples/iphone-rotation.json", "--format", "json"]), command: "run")
        #expect(report["events"] as? Int == inProcess["events"] as? Int)
    }

    @Test("run: an error met while reporting a failure (the trace file cannot be written) is one more entry of the same document; exit 2 as in prose",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs Linux's /dev/full"))
    func runErrorWhileReportingAFailure() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try file(Self.failingExpect, name: "fail.json", in: directory)
        // A path that passes the check made before the run (its folder is there) and fails to
        // be written after it: Linux's /dev/full refuses every write (ENOSPC). A folder that
        // does not exist is refused before the run (CLITests.traceFileThatCannotBeWritten).
        let trace = "/dev/full"
        let outcome = try await runTrellis(["run", path, "--format", "json", "--trace", trace])
        #expect(outcome.status == 2)
        let report = try document(outcome, command: "run")
        #expect(try objects(report["failures"]).count == 1)
        let error = try #require(try objects(report["errors"]).first)
        checkErrorShape(error)
        #expect(error["file"] as? String == trace)
        #expect(report["traceFiles"] as? [String] == [])
        let prose = try await runTrellis(["run", path, "--trace", trace])
        #expect(prose.status == 2)
    }

    @Test("run: a bad or missing scenario file gives its error and runs nothing; exit 2")
    func runBadFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notJSON = try file("{ this is not json", name: "broken.json", in: directory)
        for (scenario, line) in [(notJSON, 1 as Int?), ("/nonexistent/trellis.json", nil)] {
            let outcome = try await runTrellis(["run", scenario, "--format", "json"])
            #expect(outcome.status == 2)
            let report = try document(outcome, command: "run")
            #expect(report["events"] as? Int == 0)
            #expect(report["scenario"] is NSNull)
            let error = try #require(try objects(report["errors"]).first)
            checkErrorShape(error)
            #expect(error["file"] as? String == scenario)
            #expect(error["line"] as? Int == line)
        }
    }

    @Test("run --transport zmq set up wrongly (a node the placement lacks) gives one document with the error; exit 2")
    func runDistributedSetupMistake() async throws {
        let outcome = try await runTrellis([
            "run", "Examples/iphone-rotation.json", "--transport", "zmq", "--node", "zz=ipc:///tmp/trellis-no-such-node.sock", "--format", "json",
        ])
        #expect(outcome.status == 2)
        let report = try document(outcome, command: "run")
        #expect(report["transport"] as? String == "zmq")
        #expect(report["events"] as? Int == 0)
        let error = try #require(try objects(report["errors"]).first)
        checkErrorShape(error)
        #expect((error["message"] as? String)?.contains("set up wrongly") == true)
        #expect((error["message"] as? String)?.contains("zz") == true)
    }

    @Test("run --format json of a distributed run interrupted while it sets up prints one document saying so; exit 128 + the signal")
    func runInterrupted() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("stdout.json")
        try Data().write(to: output)
        let binary: URL = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let conductor = Process()
        conductor.executableURL = binary
        conductor.currentDirectoryURL = packageRoot
        // c is spawned; b is "started by hand" but never is: the conductor waits for its greeting.
        conductor.arguments = [
            "run", "Examples/iphone-rotation.json", "--transport", "zmq", "--node", "b=ipc://\(directory.path)/b.sock", "--format", "json",
        ]
        conductor.standardOutput = try FileHandle(forWritingTo: output)
        conductor.standardError = FileHandle.nullDevice
        // The conductor ends by itself 30 s into its set-up (b never greets), so every wait here
        // is bounded. Its work folder exists once its handlers are installed (the conductor
        // sends no message to wait for).
        let temporary = FileManager.default.temporaryDirectory.path
        let status = await runSignalled(conductor, signal: SIGINT, readyWithin: 25) { pid in
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).contains { $0.hasPrefix("trellis-\(pid)-") }
        }
        #expect(status == 128 + SIGINT)
        let stdout = try String(contentsOf: output, encoding: .utf8)
        let report = try document(stdout: stdout, status: try #require(status), command: "run")
        #expect(report["transport"] as? String == "zmq")
        let error = try #require(try objects(report["errors"]).first)
        checkErrorShape(error)
        #expect((error["message"] as? String)?.hasPrefix("interrupted by SIGINT") == true)
    }

    @Test("bad arguments with --format json give a JSON error naming the command; exit 2", arguments: [
        (["validate", "--format", "json"], "validate"),
        (["run", "Examples/iphone-rotation.json", "--frobnicate", "--format", "json"], "run"),
        (["run", "Examples/iphone-rotation.json", "--format=json", "--curve"], "run"),
        (["trace", "diff", "a.jsonl", "--format", "json"], "trace diff"),
        (["bench", "--figure", "zmq-latency", "--format", "json"], "bench"),
        (["explode", "--format", "json"], "trellis"),
    ])
    func badArguments(_ arguments: [String], command: String) async throws {
        let outcome = try await runTrellis(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.isEmpty, "stderr: \(outcome.stderr)")
        let report = try document(outcome, command: command)
        let errors = try objects(report["errors"])
        #expect(errors.count == 1)
        for error in errors { checkErrorShape(error) }
    }

    @Test("trace diff: the same traces are same true; differing ones list each step and its lines with their numbers; exit 0 and 1")
    func traceDiff() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.jsonl").path, b = directory.appendingPathComponent("b.jsonl").path
        #expect(try await runTrellis(["run", "Examples/suppression-middle.json", "--trace", a]).status == 0)
        #expect(try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", b]).status == 0)

        let same = try await runTrellis(["trace", "diff", a, a, "--format", "json"])
        #expect(same.status == 0)
        let sameReport = try document(same, command: "trace diff")
        #expect(sameReport["same"] as? Bool == true)
        #expect(try objects(sameReport["differences"]).isEmpty)
        #expect(sameReport["left"] as? [String] == [a])
        #expect(sameReport["right"] as? [String] == [a])

        let outcome = try await runTrellis(["trace", "diff", a, b, "--format", "json"])
        #expect(outcome.status == 1)
        let report = try document(outcome, command: "trace diff")
        #expect(report["same"] as? Bool == false)
        let differences = try objects(report["differences"])
        #expect(!differences.isEmpty)
        let prose = try await runTrellis(["trace", "diff", a, b])
        // Every differing step the prose names, in the same order, with its header.
        #expect(differences.compactMap { $0["header"] as? String } == prose.stdoutLines.filter { !$0.hasPrefix(" ") })
        for difference in differences {
            #expect(difference["step"] is Int)
            #expect(difference["minimal"] as? Bool == true)
            for line in try objects(difference["lines"]) {
                let op = try #require(line["op"] as? String)
                #expect(["same", "missing", "extra"].contains(op))
                #expect(line["text"] is String)
                #expect((line["left"] is Int) == (op != "extra"))
                #expect((line["right"] is Int) == (op != "missing"))
            }
        }
        let missing = differences.flatMap { (try? objects($0["lines"])) ?? [] }.filter { $0["op"] as? String == "missing" }
        #expect(missing.contains { $0["text"] as? String == "A suppressed viewWillTransition (cut: A1)" })
    }

    @Test("trace diff: an unreadable line is a warning of the document, not stderr, and exit 2; a missing file is an error, exit 2")
    func traceDiffDamage() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = directory.appendingPathComponent("a.jsonl").path
        #expect(try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", a]).status == 0)
        let damaged = try file(try String(contentsOfFile: a, encoding: .utf8) + "{ not json\n", name: "damaged.jsonl", in: directory)
        let lines = try String(contentsOfFile: a, encoding: .utf8).split(separator: "\n").count

        let outcome = try await runTrellis(["trace", "diff", a, damaged, "--format", "json"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.isEmpty, "stderr: \(outcome.stderr)")
        let report = try document(outcome, command: "trace diff")
        let warning = try #require(try objects(report["warnings"]).first)
        #expect(warning["file"] as? String == damaged)
        #expect(warning["line"] as? Int == lines + 1)
        #expect(warning["byteOffset"] is NSNull)
        #expect(warning["message"] is String)

        let missing = try await runTrellis(["trace", "diff", a, "/nonexistent/b.jsonl", "--format", "json"])
        #expect(missing.status == 2)
        let missingReport = try document(missing, command: "trace diff")
        #expect(missingReport["same"] is NSNull)
        let error = try #require(try objects(missingReport["errors"]).first)
        checkErrorShape(error)
        #expect(error["file"] as? String == "/nonexistent/b.jsonl")
    }

    @Test("bench: each figure with name, ours, anchor, ratio, unit, target and verdict, as the prose line judges it")
    func bench() async throws {
        let outcome = try await runTrellis(["bench", "--quick", "--figure", "inproc-swift-super", "--format", "json"], timeout: .seconds(180))
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let report = try document(outcome, command: "bench")
        #expect(report["quick"] as? Bool == true)
        #expect(try objects(report["errors"]).isEmpty)
        let figure = try #require(try objects(report["figures"]).first)
        #expect(try objects(report["figures"]).map { $0["name"] as? String } == ["inproc-swift-super-100000", "inproc-swift-super-async-100000", "inproc-swift-super-control-100000"])
        #expect(figure["unit"] as? String == "hops/s")
        let ours = try #require(figure["ours"] as? Double), anchor = try #require(figure["anchor"] as? Double)
        let ratio = try #require(figure["ratio"] as? Double)
        #expect(ours > 0 && anchor > 0)
        #expect(abs(ratio - ours / anchor) < 1e-9 * max(1, ratio))
        let target = try #require(figure["target"] as? [String: Any])
        #expect(target["measure"] as? String == "ratio")
        #expect(target["relation"] as? String == ">=")
        #expect(target["value"] as? Double == 0.9)
        #expect(figure["verdict"] as? String == (ratio >= 0.9 ? "pass" : "miss"))
        #expect(figure["note"] is String)
    }
}
