import Foundation
import Testing
import TrellisTestSupport

/// SPEC §10 for `trellis run` in-process: the trace is printed step by step as the run makes it,
/// and a run stopped by a signal has printed and written everything it traced.
@Suite("trellis run prints its trace as it goes and keeps it when interrupted")
struct LiveTraceTests {
    /// A window of 31 controllers rotated `steps` times; with `placed`, its leaves on nodes b and c.
    static func rotations(_ steps: Int, placed: Bool = false) -> String {
        let leaves = (0..<30).map { "\"C\($0)\"" }.joined(separator: ", ")
        let controllers = (0..<30).map { "\"C\($0)\": {}" }.joined(separator: ", ")
        let rotations = (0..<steps).map { $0 % 2 == 0 ? "{ \"resizeWindow\": [568, 320] }" : "{ \"resizeWindow\": [320, 568] }" }
        return """
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": [\(leaves)] }, \(controllers) },
              \(placed ? "\"placement\": { " + (0..<30).map { "\"C\($0)\": \"\($0 % 2 == 0 ? "b" : "c")\"" }.joined(separator: ", ") + " }," : "")
              "steps": [\(rotations.joined(separator: ", "))] }
            """
    }

    /// A long run of `rotations` set up in a scratch folder (removed by the caller): its
    /// process, not started, writing `--trace` to `trace` and standard output and error to files.
    struct LongRun {
        let directory: URL
        let trace: String
        let output: URL
        let errors: URL
        let binary: URL
        let process = Process()

        init(placed: Bool, arguments: [String] = []) throws {
            directory = try scratchDirectory()
            let scenario = directory.appendingPathComponent("long.json")
            // Minutes of rotations (an hour distributed): the run is still going when its first
            // steps are on standard output.
            try Data(LiveTraceTests.rotations(200_000, placed: placed).utf8).write(to: scenario)
            trace = directory.appendingPathComponent("kept.jsonl").path
            output = directory.appendingPathComponent("stdout.txt")
            errors = directory.appendingPathComponent("stderr.txt")
            try Data().write(to: output)
            try Data().write(to: errors)
            binary = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
            process.executableURL = binary
            process.arguments = ["run", scenario.path, "--trace", trace] + (placed ? ["--transport", "zmq"] : []) + arguments
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = try FileHandle(forWritingTo: errors)
        }

        var printed: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        var said: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
    }

    @Test("interrupted by SIGINT: exit 130, the events traced so far printed and in --trace, the same ones, and said")
    func interruptedRunKeepsItsTrace() async throws {
        let long = try LongRun(placed: false)
        defer { try? FileManager.default.removeItem(at: long.directory) }
        let (run, output, errors, trace, binary) = (long.process, long.output, long.errors, long.trace, long.binary)
        // Step 1's lines are printed as step 2 begins: the trace is live.
        let status = await runSignalled(run, signal: SIGINT) { _ in
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("== step 1:")
        }
        #expect(status == 128 + SIGINT)
        let printed = try String(contentsOf: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let said = try String(contentsOf: errors, encoding: .utf8)
        #expect(said.contains("interrupted by SIGINT; the \(printed.count) events traced so far were printed and written to \(trace)"), "\(said.prefix(500)) (\(printed.count) lines printed)")
        #expect(printed.contains("== step 1: resizeWindow 568x320"))
        // The file holds what was printed, line for line.
        let shown = try await runProcess(binary, ["trace", "show", trace], timeout: .seconds(120))
        #expect(shown.status == 0, "\(shown.stderr)")
        let inFile = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(inFile.count == printed.count)
        #expect(inFile.elementsEqual(printed), "the file and the printed trace differ")
    }

    @Test("distributed: each step is printed once every node's events of it arrived, while the run goes on; interrupted, exit 130 with what was printed in --trace")
    func distributedRunPrintsAsItGoes() async throws {
        let long = try LongRun(placed: true)
        defer { try? FileManager.default.removeItem(at: long.directory) }
        let (run, output, errors, trace, binary) = (long.process, long.output, long.errors, long.trace, long.binary)
        // Step 2's lines, nodes b's and c's among them, are printed once it ended.
        let status = await runSignalled(run, signal: SIGINT, readyWithin: 120) { _ in
            ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("== step 3:")
        }
        #expect(status == 128 + SIGINT)
        let printed = try String(contentsOf: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let said = try String(contentsOf: errors, encoding: .utf8)
        #expect(said.contains("interrupted by SIGINT"), "\(said.prefix(500))")
        #expect(said.contains("the \(printed.count) events traced so far were printed and written to \(trace)"), "\(said.prefix(500)) (\(printed.count) lines printed)")
        #expect(!said.contains("differs from the run's merged trace"))
        #expect(printed.contains("== step 2: resizeWindow 320x568"))
        #expect(printed.contains("C1 viewWillTransition(to: 568x320)"))
        // The file holds what was printed, line for line.
        let shown = try await runProcess(binary, ["trace", "show", trace], timeout: .seconds(120))
        #expect(shown.status == 0, "\(shown.stderr)")
        let inFile = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(inFile.count == printed.count)
        #expect(inFile.elementsEqual(printed), "the file and the printed trace differ")
    }

    @Test("standard output closed mid-run (| head): the run ends as SIGPIPE would end it, exit 141, its --trace written and said, over ZeroMQ and in-process", arguments: [true, false])
    func readerGoneEndsTheRun(_ distributed: Bool) async throws {
        let long = try LongRun(placed: distributed)
        defer { try? FileManager.default.removeItem(at: long.directory) }
        let (run, errors, trace, binary) = (long.process, long.errors, long.trace, long.binary)
        let output = Pipe()
        run.standardOutput = output
        // The reader takes the first byte and goes, as `head -c 1` does; no signal is sent
        // (signal 0), the wait for the exit is bounded.
        let status = await runSignalled(run, signal: 0, readyWithin: 120) { _ in
            guard let first = try? output.fileHandleForReading.read(upToCount: 1), !first.isEmpty else { return false }
            try? output.fileHandleForReading.close()
            return true
        }
        #expect(status == 128 + SIGPIPE)
        let said = try String(contentsOf: errors, encoding: .utf8)
        #expect(said.contains("standard output was closed (SIGPIPE), so the run stopped"), "\(said.prefix(500))")
        #expect(said.contains("events traced so far were written to \(trace)"), "\(said.prefix(500))")
        #expect(!distributed || said.contains("the nodes it started were stopped"), "\(said.prefix(500))")
        let shown = try await runProcess(binary, ["trace", "show", trace], timeout: .seconds(120))
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.hasPrefix("R viewWillLayoutSubviews\n"))
    }

    @Test("standard output that cannot be written (a full disk): run ends saying why, with its --trace written; another command says so and exits 1, not 0")
    func fullDisk() async throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary: URL = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let trace = directory.appendingPathComponent("t.jsonl").path
        let run = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary.path)' run Examples/iphone-rotation.json --trace '\(trace)' > /dev/full"], timeout: .seconds(60))
        #expect(run.status == 128 + SIGPIPE)
        #expect(run.stderr.contains("standard output could not be written (No space left on device), so the run stopped"), "\(run.stderr)")
        #expect(run.stderr.contains("events traced so far were written to \(trace)"), "\(run.stderr)")
        let shown = try await runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "'\(binary.path)' trace show '\(trace)' > /dev/full"], timeout: .seconds(60))
        #expect(shown.status == 1)
        #expect(shown.stderr == "error: standard output cannot be written: No space left on device\n")
    }
}
