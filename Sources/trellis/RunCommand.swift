import ArgumentParser
import Foundation
import TrellisScenario
import TrellisTrace

enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

enum TransportKind: String, ExpressibleByArgument, CaseIterable {
    case inproc, zmq
}

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and print its trace.",
        discussion: "Prints the canonical trace (SPEC §6). Exits 1 when an `expect` step fails, 2 for bad input."
    )

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    @Option(help: "Where the controllers run: inproc (one process) or zmq (one process per placement node).")
    var transport: TransportKind = .inproc

    @Option(help: "Also write the JSON Lines capture to this file.")
    var trace: String?

    @Option(help: "What to print: text (canonical lines) or jsonl (the capture format).")
    var format: TraceFormat = .text

    @Option(help: "Seed for any ordering the scenario leaves open (a one-window run has none).")
    var seed: UInt64 = 0

    func run() async throws {
        guard transport == .inproc else {
            StandardError.write("error: --transport zmq is not available in this build yet; use --transport inproc")
            throw ExitCode(2)
        }
        let loaded: Scenario
        do {
            loaded = try ScenarioDecoder.load(path: scenario)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        let recorder = TraceRecorder(node: "main", runID: loaded.name)
        let result: ScenarioRun
        do {
            result = try await ScenarioRunner.run(loaded, recorder: recorder)
        } catch {
            // What happened before the failure is still printed and written: nothing recorded is lost.
            print(events: recorder.events, runID: recorder.runID)
            try? write(recorder.events, runID: recorder.runID)
            StandardError.write("error: \(scenario): \(error)")
            throw ExitCode(2)
        }
        print(events: result.events, runID: recorder.runID)
        try write(result.events, runID: recorder.runID)
        for failure in result.failures {
            StandardError.write("\(scenario): \(failure)")
        }
        if !result.passed { throw ExitCode(1) }
    }

    /// Writes the capture file named by `--trace`, if any.
    private func write(_ events: [TraceEvent], runID: String) throws {
        guard let trace else { return }
        let text = events.map { TraceCaptureFormat.line(for: $0, runID: runID) + "\n" }.joined()
        guard FileManager.default.createFile(atPath: trace, contents: Data(text.utf8)) else {
            StandardError.write("error: cannot write the trace file \(trace)")
            throw ExitCode(2)
        }
    }

    private func print(events: [TraceEvent], runID: String) {
        var output = OutputBuffer()
        for event in events {
            switch format {
            case .text: output.line(event.canonicalLine)
            case .jsonl: output.line(TraceCaptureFormat.line(for: event, runID: runID))
            }
        }
        output.flush()
    }
}

struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario file without running it.",
        discussion: "Exits 0 when the file is valid, 2 with the file, JSON path and reason when it is not."
    )

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    func run() async throws {
        do {
            let loaded = try ScenarioDecoder.load(path: scenario)
            print("ok: \(scenario): scenario \"\(loaded.name)\", \(loaded.controllers.count) controllers, \(loaded.steps.count) steps")
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
    }
}
