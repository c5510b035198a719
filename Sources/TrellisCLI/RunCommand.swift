import ArgumentParser
import Foundation
import Synchronization
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisDistributed
import TrellisTransport

enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

enum TransportKind: String, ExpressibleByArgument, CaseIterable {
    case inproc, zmq
}

extension DistributedOptions.EndpointKind: ExpressibleByArgument {}

struct RunCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a scenario and print its trace.",
        discussion: """
            Prints the canonical trace (SPEC §6). Exits 1 when an `expect` step fails, 2 for bad \
            input (the file, JSON path and reason on standard error).

            With --transport zmq the controllers run in one process per placement node; exit 2 \
            when the run is set up wrongly (a --node the placement does not have, an endpoint \
            that is none, a node started with another conductor name or keys that do not \
            match), 3 when it fails (a node that does not start or is lost: the run stops at the \
            end of that step). --keys FOLDER secures every connection with the key files of \
            `trellis keys make`: NAME.pub for every node, NAME.key for this conductor and the \
            nodes it starts.

            EXAMPLES:
              trellis run Examples/iphone-rotation.json
              trellis run Examples/suppression-middle.yaml --trace run.jsonl
              trellis run Examples/popover-adaptation.json --format jsonl > run.jsonl
              trellis run Examples/iphone-rotation.json --transport zmq --trace-dir out
              trellis run s.json --transport zmq --node b=tcp://b:5556 --keys k
            """
    )

    @Argument(help: "The scenario file (JSON, or YAML when named *.yaml or *.yml).")
    var scenario: String

    @Option(help: "Where the controllers run: inproc (one process) or zmq (one process per placement node).")
    var transport: TransportKind = .inproc

    @Option(help: "Also write the capture to this file: JSON Lines for a name ending in .jsonl, the compact capture for any other (.trellis, say).")
    var trace: String?

    @Option(help: "Also write one capture file per node (process) into this folder: NODE.jsonl.")
    var traceDir: String?

    @Option(help: "What to print: text (canonical lines) or jsonl (the capture format).")
    var format: TraceFormat = .text

    @Option(help: "With zmq: the endpoint kind of the nodes this command starts (ipc or tcp on loopback).")
    var endpoints: DistributedOptions.EndpointKind = .ipc

    @Option(help: "With zmq: a node started by hand, NAME=ENDPOINT (repeatable); it must --peer this conductor.")
    var node: [String] = []

    @Option(help: "With zmq: where this conductor listens (default: a fresh ipc path, or loopback tcp).")
    var listen: String?

    @Flag(help: "With zmq: secure every connection with CURVE, a fresh key pair per node.")
    var curve = false

    @Option(help: "With zmq: secure every connection with CURVE, with the key files of this folder (trellis keys make).")
    var keys: String?

    func validate() throws {
        if transport == .inproc, !node.isEmpty || listen != nil || curve || keys != nil || endpoints != .ipc {
            throw ValidationError("--node, --listen, --endpoints, --curve and --keys need --transport zmq")
        }
        if curve, keys != nil {
            throw ValidationError("--curve makes fresh keys, --keys uses the folder's: give one or the other")
        }
        if curve, !node.isEmpty {
            throw ValidationError("--curve makes fresh keys for the nodes this command starts only: nodes started by hand (--node) need --keys FOLDER (trellis keys make)")
        }
        for entry in node where NodeCommand.split(entry) == nil {
            throw ValidationError("--node must be NAME=ENDPOINT (ENDPOINT ipc://PATH or tcp://HOST:PORT), got \"\(entry)\"")
        }
        if let listen, !DistributedRun.isEndpoint(listen) {
            throw ValidationError("--listen must be an ipc:// or tcp:// endpoint, got \"\(listen)\"")
        }
    }

    func run(registry: BehaviorRegistry) async throws {
        let loaded: Scenario
        let text: String
        do {
            // Read once: the file may be a pipe. The scenario keeps the registry its names were
            // checked against, and every node of a distributed run is started from this program.
            let fileText = try ScenarioDecoder.text(path: scenario)
            loaded = try ScenarioDecoder.decode(fileText, file: scenario, registry: registry)
            text = try ScenarioDecoder.jsonText(fileText, file: scenario)
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        if transport == .zmq {
            try await runDistributed(loaded, text: text)
            return
        }
        let recorder = TraceRecorder(node: "main", runID: loaded.name)
        let result: ScenarioRun
        do {
            result = try await ScenarioRunner.run(loaded, recorder: recorder, progress: Progress.reporter(steps: loaded.steps.count))
        } catch {
            // What happened before the failure is still printed and written: nothing recorded is lost.
            print(events: recorder.events, runID: recorder.runID)
            try? write(recorder.events, runID: recorder.runID)
            StandardError.write("error: \(scenario): \(error)")
            throw ExitCode(2)
        }
        try finish(result, runID: recorder.runID)
    }

    private func runDistributed(_ loaded: Scenario, text: String) async throws {
        if let notice = Self.oneNodeNotice(loaded, file: scenario) { StandardError.write(notice) }
        var options = DistributedOptions(nodeExecutable: Self.ownExecutable)
        options.endpointKind = endpoints
        options.conductorEndpoint = listen
        options.secureSpawnedNodes = curve
        options.keyFolder = keys.map(CurveKeyFolder.init(path:))
        for entry in node {
            if let (name, endpoint) = NodeCommand.split(entry) { options.startedNodes[name] = endpoint }
        }
        let run = DistributedRun(scenario: loaded, scenarioText: text, options: options)
        let interruptions = InterruptHandling.install(stopping: run.spawned)
        defer { interruptions.forEach { $0.cancel() } }
        let outcome: Result<ScenarioRun, DistributedRunError>
        do {
            outcome = .success(try await run.conduct())
        } catch {
            outcome = .failure(error)
        }
        // Interrupted: the nodes it stopped may have ended the run first; the program still ends
        // as interrupted (128 + the signal), whichever of the two gets there first.
        if let signal = run.spawned.interruptingSignal { await InterruptHandling.finish(run.spawned, signal: signal) }
        do {
            try finish(outcome.get(), runID: loaded.name)
        } catch let error as DistributedRunError {
            if case let .faults(_, partial) = error {
                print(events: partial.events, runID: loaded.name)
                try? write(partial.events, runID: loaded.name)
            }
            StandardError.write("error: \(scenario): \(error)")
            // A run set up wrongly (an unknown node, a bad endpoint, a wrong conductor name or
            // key) is bad input; any other failure is a fault of the run.
            if case .mistake = error { throw ExitCode(2) }
            throw ExitCode(3)
        }
    }

    /// One line for stderr when `--transport zmq` would run every controller in the conductor's
    /// node (no `placement`, or one that names no other node): nothing would cross a process.
    static func oneNodeNotice(_ scenario: Scenario, file: String) -> String? {
        let placement = Placement(scenario)
        guard placement.nodes.count == 1 else { return nil }
        let reason = scenario.placement.isEmpty ? "has no \"placement\"" : "places every controller in node \(placement.conductor)"
        return "notice: \(file) \(reason): every controller runs in one node (\(placement.conductor)), in this process"
    }

    /// Prints and writes a finished run's trace, reports failed expectations (exit 1).
    private func finish(_ result: ScenarioRun, runID: String) throws {
        print(events: result.events, runID: runID)
        try write(result.events, runID: runID)
        for failure in result.failures {
            StandardError.write("\(scenario): \(failure)")
        }
        if !result.passed { throw ExitCode(1) }
    }

    /// This program's own path, to start nodes with (the conductor's own lookup).
    static var ownExecutable: String { DistributedRun.ownExecutable }

    /// Writes the capture file named by `--trace` and the per-node files of `--trace-dir`.
    private func write(_ events: [TraceEvent], runID: String) throws {
        var files: [(String, [TraceEvent])] = []
        if let trace { files.append((trace, events)) }
        if let traceDir {
            do {
                try FileManager.default.createDirectory(atPath: traceDir, withIntermediateDirectories: true)
            } catch {
                StandardError.write("error: cannot create \(traceDir): \(error)")
                throw ExitCode(2)
            }
            var nodes: [String] = []
            for event in events where !nodes.contains(event.id.node) { nodes.append(event.id.node) }
            for node in nodes {
                files.append(((traceDir as NSString).appendingPathComponent("\(node).jsonl"), events.filter { $0.id.node == node }))
            }
        }
        for (path, content) in files {
            try TraceOutput.write(
                CaptureFileEncoding.bytes(of: content, runs: [], defaultRunID: runID, format: CaptureFileFormat.forPath(path)), to: path)
        }
    }

    private func print(events: [TraceEvent], runID: String) {
        // Printed JSON lines are self-contained (each names its run and node): a stream that
        // line-oriented tools cut and filter, not a file.
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

struct ValidateCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario file without running it.",
        discussion: """
            Exits 0 when the file is valid, 2 with FILE:LINE:COLUMN: PATH: reason when it is not \
            (Protocols/scenario-format.md §8). `expect` lines are checked too: their receivers \
            and message names must exist.

            EXAMPLES:
              trellis validate Examples/iphone-rotation.json
              trellis validate my-scenario.yaml
            """
    )

    @Argument(help: "The scenario file (JSON, or YAML when named *.yaml or *.yml).")
    var scenario: String

    func run(registry: BehaviorRegistry) async throws {
        do {
            let loaded = try ScenarioDecoder.load(path: scenario, registry: registry)
            print("ok: \(scenario): scenario \"\(loaded.name)\", \(loaded.controllers.count) controllers, \(loaded.steps.count) steps")
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// An interrupted conductor (SIGINT, SIGTERM) takes the nodes its run started down with it —
/// SIGTERM, then SIGKILL for any that has not exited within `NodeProcess.stopGrace` — removes
/// the run's work folder, and exits 128 + the signal. A second signal ends it at once.
enum InterruptHandling {
    /// Whether a signal came already (shared by both handlers).
    private final class Signalled: Sendable {
        let flag = Atomic<Bool>(false)
    }

    static func install(stopping spawned: SpawnedNodes) -> [DispatchSourceSignal] {
        let signalled = Signalled()
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard !signalled.flag.exchange(true, ordering: .relaxed) else { exit(128 + number) }
                spawned.interrupted(by: number)
                Task { await finish(spawned, signal: number) }
            }
            source.resume()
            return source
        }
    }

    /// Stops the run's nodes, says so once, and exits 128 + `signal`: from the handler, or from
    /// the run when it ends first.
    static func finish(_ spawned: SpawnedNodes, signal: Int32) async -> Never {
        await spawned.stopAll()
        if !said.exchange(true, ordering: .relaxed) {
            StandardError.write("trellis: interrupted; the nodes it started were stopped")
        }
        exit(128 + signal)
    }

    private static let said = Atomic<Bool>(false)
}

/// SPEC §8: progress on a terminal for long runs — a `step N/M` line on standard error,
/// rewritten in place, only when standard error is a terminal and the scenario is long.
enum Progress {
    static func reporter(steps: Int) -> (@Sendable (Int, Int) -> Void)? {
        guard isatty(STDERR_FILENO) == 1, steps >= 50 else { return nil }
        return { step, total in
            if step == total || step % 10 == 0 {
                FileHandle.standardError.write(Data("\rtrellis: step \(step)/\(total)\(step == total ? "\n" : "")".utf8))
            }
        }
    }
}
