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

    @Test("interrupted by SIGINT: exit 130, the events traced so far printed and in --trace, the same ones, and said")
    func interruptedRunKeepsItsTrace() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("long.json")
        // Minutes of rotations: the run is still going when its first steps are on standard output.
        try Data(Self.rotations(200_000).utf8).write(to: scenario)
        let trace = directory.appendingPathComponent("kept.jsonl").path
        let output = directory.appendingPathComponent("stdout.txt")
        let errors = directory.appendingPathComponent("stderr.txt")
        try Data().write(to: output)
        try Data().write(to: errors)
        let binary: URL = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let run = Process()
        run.executableURL = binary
        run.arguments = ["run", scenario.path, "--trace", trace]
        run.standardOutput = try FileHandle(forWritingTo: output)
        run.standardError = try FileHandle(forWritingTo: errors)
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
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("long.json")
        // An hour of distributed rotations: the run is still going when its steps are printed.
        try Data(Self.rotations(200_000, placed: true).utf8).write(to: scenario)
        let trace = directory.appendingPathComponent("kept.jsonl").path
        let output = directory.appendingPathComponent("stdout.txt")
        let errors = directory.appendingPathComponent("stderr.txt")
        try Data().write(to: output)
        try Data().write(to: errors)
        let binary: URL = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let run = Process()
        run.executableURL = binary
        run.arguments = ["run", scenario.path, "--transport", "zmq", "--trace", trace]
        run.standardOutput = try FileHandle(forWritingTo: output)
        run.standardError = try FileHandle(forWritingTo: errors)
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
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("long.json")
        try Data(Self.rotations(200_000, placed: distributed).utf8).write(to: scenario)
        let trace = directory.appendingPathComponent("kept.jsonl").path
        let errors = directory.appendingPathComponent("stderr.txt")
        try Data().write(to: errors)
        let binary: URL = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let run = Process()
        run.executableURL = binary
        run.arguments = ["run", scenario.path, "--trace", trace] + (distributed ? ["--transport", "zmq"] : [])
        let output = Pipe()
        run.standardOutput = output
        run.standardError = try FileHandle(forWritingTo: errors)
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
}
