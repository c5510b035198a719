import ArgumentParser
import Foundation
import Synchronization
import TrellisJSON
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisDistributed
import TrellisTransport

/// What `trellis run` prints on standard output: the trace (canonical lines or JSON Lines), or
/// a JSON report of the run without the trace (docs/json-output.md §run).
enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl, json
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
            Prints the canonical trace (SPEC §6), each step as it ends (with --transport zmq, \
            once every node's events of it reached the conductor). Exits 1 when an `expect` step fails, 2 for bad \
            input (the file, JSON path and reason on standard error).

            --format json prints one JSON document instead of the trace, whatever the exit \
            status: each failed `expect` with its place in the file and its diff, each error; \
            the trace goes only to --trace or --trace-dir (docs/json-output.md). Notices and \
            progress stay on standard error.

            With --transport zmq the controllers run in one process per placement node; exit 2 \
            when the run is set up wrongly (a --node the placement does not have, an endpoint \
            that is none, a node started with another conductor name or keys that do not \
            match, CURVE on one side only, two nodes with one key pair: each named within \
            seconds, and every node told why), 3 when it fails (a node that does not start or is lost: the run stops at the \
            end of that step). --keys FOLDER secures every connection with the key files of \
            `\(ProgramName.current) keys make`: NAME.pub for every node, NAME.key for this conductor and the \
            nodes it starts. Without CURVE the nodes use Trellis's own ZMTP 3.1 sockets; \
            TRELLIS_SOCKET_LAYER=libzmq in the environment puts this process and the nodes it \
            starts on libzmq's.

            EXAMPLES:
              \(ProgramName.current) run Examples/iphone-rotation.json
              \(ProgramName.current) run Examples/suppression-middle.yaml --trace run.jsonl
              \(ProgramName.current) run Examples/popover-adaptation.json --format jsonl > run.jsonl
              \(ProgramName.current) run Examples/iphone-rotation.json --format json --trace run.jsonl
              \(ProgramName.current) run Examples/iphone-rotation.json --transport zmq --trace-dir out
              \(ProgramName.current) run s.json --transport zmq --node b=tcp://b:5556 --keys k
            """
    )

    @Argument(help: "The scenario file (JSON, or YAML when named *.yaml or *.yml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var scenario: String

    @Option(help: "Where the controllers run: inproc (one process) or zmq (one process per placement node).")
    var transport: TransportKind = .inproc

    @Option(help: "Also write the capture to this file: JSON Lines for a name ending in .jsonl, the compact capture for any other (.trellis, say).", completion: .file())
    var trace: String?

    @Option(help: "Also write one capture file per node (process) into this folder: NODE.jsonl.", completion: .directory)
    var traceDir: String?

    @Option(help: "What to print: text (canonical lines), jsonl (the capture format), or json (one report of the run: failed expects, errors; no trace, which --trace writes).")
    var format: TraceFormat = .text

    @Option(help: "With zmq: the endpoint kind of the nodes this command starts (ipc or tcp on loopback).")
    var endpoints: DistributedOptions.EndpointKind = .ipc

    @Option(help: "With zmq: a node started by hand, NAME=ENDPOINT (repeatable); it must --peer this conductor.")
    var node: [String] = []

    @Option(help: "With zmq: where this conductor listens (default: a fresh ipc path, or loopback tcp).")
    var listen: String?

    @Flag(help: "With zmq: secure every connection with CURVE, a fresh key pair per node.")
    var curve = false

    @Option(help: "With zmq: secure every connection with CURVE, with the key files of this folder (\(ProgramName.current) keys make).", completion: .directory)
    var keys: String?

    func validate() throws {
        if transport == .inproc, !node.isEmpty || listen != nil || curve || keys != nil || endpoints != .ipc {
            throw ValidationError("--node, --listen, --endpoints, --curve and --keys need --transport zmq")
        }
        if transport == .zmq, let mistake = NodeSocketLayer.environmentMistake {
            throw ValidationError(mistake)
        }
        if curve, keys != nil {
            throw ValidationError("--curve makes fresh keys, --keys uses the folder's: give one or the other")
        }
        if curve, !node.isEmpty {
            throw ValidationError("--curve makes fresh keys for the nodes this command starts only: nodes started by hand (--node) need --keys FOLDER (\(ProgramName.current) keys make)")
        }
        for entry in node { try NodeCommand.checkPeer(entry, option: "--node") }
        if let twice = DistributedOptions.repeatedNode(node.compactMap(NodeCommand.split)) {
            throw ValidationError(twice)
        }
        if let listen, let problem = EndpointSyntax.problem(with: listen, for: .bind) {
            throw ValidationError("--listen must be an ipc:// or tcp:// endpoint to listen on, got \"\(listen)\": \(problem)")
        }
        // Said before the run, not after it has printed its whole trace.
        if let trace, let problem = TraceOutput.problem(preparing: trace, option: "--trace") {
            throw ValidationError(problem)
        }
    }

    func run(registry: BehaviorRegistry) async throws {
        var outcome = RunOutcome(file: scenario)
        let printed = await perform(registry: registry, into: &outcome)
        switch format {
        case .text, .jsonl: outcome.tell(jsonLines: format == .jsonl, runID: outcome.scenario?.name ?? "", printed: printed)
        case .json: outcome.report(transport: transport.rawValue).emit(status: outcome.status)
        }
        if outcome.status != 0 { throw ExitCode(outcome.status) }
    }

    /// Reads, runs and writes the trace files, gathering what happened into `outcome`; returns
    /// how many of its events the run printed as it went (`LiveTrace`).
    private func perform(registry: BehaviorRegistry, into outcome: inout RunOutcome) async -> Int {
        let loaded: Scenario
        let text: String
        do {
            // Read once: the file may be a pipe. The scenario keeps the registry its names were
            // checked against, and every node of a distributed run is started from this program.
            let fileText = try ScenarioDecoder.text(path: scenario)
            outcome.fileText = fileText
            loaded = try ScenarioDecoder.decode(fileText, file: scenario, registry: registry)
            for notice in loaded.notices { StandardError.write("notice: \(notice)") }
            text = try ScenarioDecoder.jsonText(fileText, file: scenario, registry: registry)
        } catch {
            outcome.fail(error)
            return 0
        }
        outcome.scenario = loaded
        var printed = 0
        if transport == .zmq {
            printed = await runDistributed(loaded, text: text, into: &outcome)
        } else {
            printed = await runInProcess(loaded, into: &outcome)
        }
        // A distributed run that never started recorded nothing: no file is written then.
        if !outcome.events.isEmpty || outcome.problems.isEmpty {
            write(outcome.events, runID: loaded.name, into: &outcome)
        }
        return printed
    }

    /// Runs `loaded` in this process, printing its trace step by step (`LiveTrace`, not with
    /// --format json); a signal ends it with what it traced printed and written
    /// (`finishInterrupted`). Returns how many events were printed.
    private func runInProcess(_ loaded: Scenario, into outcome: inout RunOutcome) async -> Int {
        let recorder = TraceRecorder(node: "main", runID: loaded.name)
        let live = format == .json ? nil : LiveTrace(recorder: recorder, jsonLines: format == .jsonl, runID: loaded.name)
        let command = self
        let interruptions = await InterruptHandling.install { number in
            command.finishInterrupted(loaded, recorder: recorder, live: live, signal: number)
        }
        defer { interruptions.forEach { $0.cancel() } }
        let reporter = Progress.reporter(steps: loaded.steps.count)
        do {
            let result = try await ScenarioRunner.run(loaded, recorder: recorder) { step, total in
                reporter?(step, total)
                // Called as step `step` begins: what the steps before it traced is printed.
                live?.printNew()
            }
            outcome.events = result.events
            outcome.failures = result.failures
        } catch {
            // What happened before the failure is still printed and written: nothing recorded is lost.
            outcome.events = recorder.events
            outcome.fail(status: 2, step: error.step, message: "\(error)")
        }
        // A signal that came as the run ended is being told by its handler, which exits.
        guard InterruptHandling.claimEnd() else { await InterruptHandling.untilExit() }
        return live?.close(with: outcome.events) ?? 0
    }

    /// A signal ended the in-process run: what it traced is printed (the rest of the live
    /// trace, or with --format json the report) and written to its trace files, the interruption
    /// said with the number of events kept, and the program exits 128 + the signal — unless the
    /// run's own end came first (`InterruptHandling.claimEnd`): then this does nothing.
    private func finishInterrupted(_ loaded: Scenario, recorder: TraceRecorder, live: LiveTrace?, signal number: Int32) {
        guard InterruptHandling.claimEnd() else { return }
        // One snapshot, printed and written alike: the run goes on recording meanwhile.
        tellInterrupted(loaded, events: recorder.events, live: live, signal: number, nodes: nil)
        Foundation.exit(128 + number)
    }

    /// Tells an interrupted run's end: `events` (a snapshot) printed — what `live` has not
    /// printed yet, all of them for a run that printed nothing, only the report with --format
    /// json — and written to the trace files, and the interruption said with what was kept.
    /// `nodes`: what a distributed run says of the nodes it stopped; `lacks`: what its trace
    /// lacks of the step under way.
    private func tellInterrupted(_ loaded: Scenario, events: [TraceEvent], live: LiveTrace?, signal number: Int32, nodes: String?, lacks: String? = nil) {
        var outcome = RunOutcome(file: scenario)
        outcome.scenario = loaded
        outcome.events = events
        let printed = format == .json ? 0 : live?.close(with: events) ?? 0
        write(events, runID: loaded.name, into: &outcome)
        let files = outcome.traceFiles.joined(separator: ", ")
        // Printed: not when standard output's reader is gone (SIGPIPE), nor with --format json.
        let printing = format != .json && number != SIGPIPE
        let kept = "the \(events.count) events traced so far were "
            + (!printing ? (files.isEmpty ? "not kept (no --trace)" : "written to \(files)") : "printed" + (files.isEmpty ? "" : " and written to \(files)"))
        let failure = number == SIGPIPE ? InterruptHandling.outputFailureReason : nil
        let why = number != SIGPIPE ? "interrupted by \(InterruptHandling.name(number))"
            : failure.map { "standard output could not be written (\($0)), so the run stopped" } ?? "standard output was closed (SIGPIPE), so the run stopped"
        let said = [why, nodes, kept, lacks].compactMap(\.self).joined(separator: "; ")
        // `trellis run s.json | head`: the reader has what it wanted, and nothing was kept that
        // needs saying — the program ends as a program SIGPIPE ends, silently (exit 141).
        if number == SIGPIPE, failure == nil, files.isEmpty { return }
        outcome.fail(status: 128 + number, step: nil, message: said)
        switch format {
        case .json: outcome.report(transport: transport.rawValue).emit(status: outcome.status)
        case .text, .jsonl: outcome.tell(jsonLines: format == .jsonl, runID: loaded.name, printed: printed)
        }
    }

    /// Runs `loaded` over ZeroMQ, printing its trace step by step as the conductor merges each
    /// step's events (`LiveTrace`, not with --format json); a signal ends it with what reached
    /// the conductor printed and written. Returns how many events were printed.
    private func runDistributed(_ loaded: Scenario, text: String, into outcome: inout RunOutcome) async -> Int {
        if let notice = Self.oneNodeNotice(loaded, file: scenario) { StandardError.write(notice) }
        var options = DistributedOptions(nodeExecutable: Self.ownExecutable)
        options.endpointKind = endpoints
        options.conductorEndpoint = listen
        options.secureSpawnedNodes = curve
        options.keyFolder = keys.map(CurveKeyFolder.init(path:))
        for entry in node {
            if let (name, endpoint) = NodeCommand.split(entry) { options.startedNodes[name] = endpoint }
        }
        let live = format == .json ? nil : LiveTrace(recorder: nil, jsonLines: format == .jsonl, runID: loaded.name)
        if let live {
            options.stepTraced = { live.printNext($0) }
            options.stepTracingStopped = { reason in
                StandardError.write("notice: \(reason): the rest of the trace is printed when the run ends")
            }
        }
        let run = DistributedRun(scenario: loaded, scenarioText: text, options: options)
        let command = self
        let interruptions = await InterruptHandling.install { number in
            run.spawned.interrupted(by: number)
            Task { await command.finishInterrupted(loaded, run: run, live: live, signal: number) }
        }
        defer { interruptions.forEach { $0.cancel() } }
        let result: Result<ScenarioRun, DistributedRunError>
        do {
            result = .success(try await run.conduct())
        } catch {
            result = .failure(error)
        }
        // Interrupted: the nodes it stopped may have ended the run first; the program still ends
        // as interrupted (128 + the signal), whichever of the two gets there first.
        if let signal = run.spawned.interruptingSignal {
            await finishInterrupted(loaded, run: run, live: live, signal: signal)
        }
        // A signal that came just now is being told by its handler, which exits.
        guard InterruptHandling.claimEnd() else { await InterruptHandling.untilExit() }
        switch result {
        case let .success(finished):
            outcome.events = finished.events
            outcome.failures = finished.failures
        case let .failure(error):
            // A run set up wrongly (an unknown node, a bad endpoint, a wrong conductor name or
            // key) is bad input; any other failure is a fault of the run.
            switch error {
            case .mistake: outcome.fail(status: 2, step: nil, message: "\(error)")
            case .setup: outcome.fail(status: 3, step: nil, message: "\(error)")
            case let .run(runError):
                // What reached the conductor is kept, as an in-process run keeps what it traced.
                outcome.events = await run.eventsReceived(ending: "the run failed")
                outcome.fail(status: 3, step: runError.step, message: "\(error)")
            case let .faults(faults, partial):
                outcome.events = partial.events
                outcome.faults = faults
                outcome.fail(status: 3, step: nil, message: "\(error)")
            }
        }
        return live?.close(with: outcome.events) ?? 0
    }

    /// A signal ended the distributed run: the nodes it started are stopped, those started by
    /// hand told goodbye (each said as it is: it started none, say), and what reached
    /// the conductor — every finished step's events, which the nodes ship as each step ends, and
    /// its own — is told as an interrupted in-process run's is (`tellInterrupted`); then the
    /// program exits 128 + the signal. From the handler, or from the run when it ends first:
    /// once.
    private func finishInterrupted(_ loaded: Scenario, run: DistributedRun, live: LiveTrace?, signal number: Int32) async -> Never {
        await InterruptHandling.finish(signal: number) {
            // What arrived is taken first (the shutdown drops what was not read), while the
            // nodes it started stop; then the nodes started by hand are told goodbye, and the
            // run is shut down (its own end leaves that to this handler), once.
            async let stopped: Void = run.spawned.stopAll()
            let events = await run.eventsReceived()
            let lacks = await run.interruptedStepLacks()
            let (told, acknowledged) = await run.tellStartedByHandGoodbye()
            await stopped
            await run.shutdown()
            let nodes = DistributedRun.interruptedNodes(spawned: run.spawned.count, toldByHand: told, acknowledged: acknowledged)
            tellInterrupted(loaded, events: events, live: live, signal: number, nodes: nodes, lacks: lacks)
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

    /// This program's own path, to start nodes with (the conductor's own lookup).
    static var ownExecutable: String { DistributedRun.ownExecutable }

    /// Writes the capture file named by `--trace` and the per-node files of `--trace-dir`; a
    /// file that cannot be written is a problem of the run (exit 2 unless it already failed).
    private func write(_ events: [TraceEvent], runID: String, into outcome: inout RunOutcome) {
        var files: [(String, [TraceEvent])] = []
        if let trace { files.append((trace, events)) }
        if let traceDir {
            do {
                try FileManager.default.createDirectory(atPath: traceDir, withIntermediateDirectories: true)
                var nodes: [String] = []
                for event in events where !nodes.contains(event.id.node) { nodes.append(event.id.node) }
                for node in nodes {
                    files.append(((traceDir as NSString).appendingPathComponent("\(node).jsonl"), events.filter { $0.id.node == node }))
                }
            } catch {
                outcome.fail(status: 2, file: traceDir, message: "cannot create \(traceDir): \(error)")
            }
        }
        for (path, content) in files {
            let bytes = CaptureFileEncoding.bytes(of: content, runs: [], defaultRunID: runID, format: CaptureFileFormat.forPath(path))
            if let problem = TraceOutput.problem(writing: bytes, to: path) {
                outcome.fail(status: 2, file: path, message: problem)
            } else {
                outcome.traceFiles.append(path)
            }
        }
    }
}

extension ScenarioRunError {
    /// The step the run failed at (0: building the hierarchy); nil when it is not a step's.
    var step: Int? {
        switch self {
        case let .runtime(step, _): return step
        case .noSuchStep: return nil
        }
    }
}

struct ValidateCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a scenario file without running it.",
        discussion: """
            Exits 0 when the file is valid, 2 with FILE:LINE:COLUMN: PATH: reason when it is not \
            (Protocols/scenario-format.md §8). `expect` lines are checked too: their receivers \
            and message names must exist. --format json prints one JSON document on standard \
            output instead, the error as an object (docs/json-output.md).

            EXAMPLES:
              \(ProgramName.current) validate Examples/iphone-rotation.json
              \(ProgramName.current) validate my-scenario.yaml
              \(ProgramName.current) validate my-scenario.yaml --format json
            """
    )

    @Argument(help: "The scenario file (JSON, or YAML when named *.yaml or *.yml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var scenario: String

    @Option(help: "What to print: text, or json (one document with every error: file, line, column, path, message; docs/json-output.md).")
    var format: ReportFormat = .text

    func run(registry: BehaviorRegistry) async throws {
        let loaded: Scenario
        do {
            loaded = try ScenarioDecoder.load(path: scenario, registry: registry)
            // Notices (a storyboard's, SPEC §11) go to standard error in both formats.
            for notice in loaded.notices { StandardError.write("notice: \(notice)") }
        } catch {
            switch format {
            case .text: StandardError.write("error: \(error)")
            case .json: Self.report(file: scenario, loaded: nil, errors: [error]).emit(status: 2)
            }
            throw ExitCode(2)
        }
        switch format {
        case .text: print("ok: \(scenario): scenario \"\(loaded.name)\", \(loaded.controllers.count) controllers, \(loaded.steps.count) steps")
        case .json: Self.report(file: scenario, loaded: loaded, errors: []).emit(status: 0)
        }
    }

    /// The JSON document (docs/json-output.md §validate). The reader stops at a file's first
    /// error, so `errors` holds one error or none.
    static func report(file: String, loaded: Scenario?, errors: [ScenarioError]) -> JSONReport {
        var report = JSONReport(command: "validate")
        report.set("file", .string(file))
        report.set("valid", .bool(errors.isEmpty))
        report.set("scenario", loaded.map { scenario in
            JSONFields.object([
                ("name", .string(scenario.name)), ("controllers", JSONFields.int(scenario.controllers.count)),
                ("steps", JSONFields.int(scenario.steps.count)),
            ])
        } ?? .null)
        report.set("errors", JSONFields.array(errors.map(JSONFields.error)))
        return report
    }
}

/// An interrupted conductor (SIGINT, SIGTERM) takes the nodes its run started down with it —
/// SIGTERM, then SIGKILL for any that has not exited within `NodeProcess.stopGrace` —, tells
/// the nodes started by hand goodbye, removes the run's work folder, and exits 128 + the
/// signal. A second signal ends it at once. Standard output's reader gone (`| head` has what
/// it wanted) ends the run the same way, as SIGPIPE — its trace files written, its nodes
/// stopped, exit 141 — rather than SIGPIPE killing the program mid-run with its nodes left to
/// find their conductor gone: SIGPIPE is ignored, and the write that fails says so
/// (`OutputBuffer`, `outputFailed`). So does a write that fails otherwise (a full disk).
enum InterruptHandling {
    static let signals = [SIGINT, SIGTERM]

    /// The signal's name.
    static func name(_ number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGPIPE: "SIGPIPE"
        default: "SIGTERM"
        }
    }

    /// Installs `handle` for the first of the signals (SIGINT, SIGTERM) to come, or standard
    /// output failing (`outputFailed`); a second signal ends the program at once, with 128 + its
    /// number.
    /// Returns once the signals are listened for (`SignalSources.make`): a signal sent after
    /// that is never lost.
    static func install(_ handle: @escaping @Sendable (Int32) -> Void) async -> [DispatchSourceSignal] {
        handler.withLock { $0 = handle }
        signal(SIGPIPE, SIG_IGN)
        return await SignalSources.make(signals) { deliver($0) }
    }

    /// A write to standard output failed — its reader gone (`failure` nil), or `failure` (a
    /// full disk): a run ends as interrupted by SIGPIPE, from another thread (the writer may hold
    /// what the handler takes), unless one was interrupted already. Another command (no handler)
    /// ends at once: silently, 141, as SIGPIPE would end it, or saying the failure, exit 1 —
    /// never as if all its output had been written.
    static func outputFailed(_ failure: String?) {
        outputFailure.withLock { $0 = $0 ?? failure }
        guard handler.withLock({ $0 }) != nil else {
            guard let failure else { exit(128 + SIGPIPE) }
            StandardError.write("error: standard output cannot be written: \(failure)")
            exit(1)
        }
        DispatchQueue.global().async { deliver(SIGPIPE) }
    }

    /// Why standard output could not be written, other than its reader gone; nil for that.
    static var outputFailureReason: String? { outputFailure.withLock { $0 } }

    private static let outputFailure = Mutex<String?>(nil)

    private static func deliver(_ number: Int32) {
        guard !signalled.exchange(true, ordering: .relaxed) else {
            if number != SIGPIPE { exit(128 + number) }
            return
        }
        handler.withLock { $0 }?(number)
    }

    private static let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)
    /// Whether a signal came already (or standard output closed).
    private static let signalled = Atomic<Bool>(false)

    /// Ends the run (`end`: its nodes stopped or told goodbye, its end told) and exits 128 +
    /// `signal`: from the handler, or from the run when it ends first. Whichever of the two
    /// comes second waits for good while the first tells: it used to exit at once, ending the
    /// program before anything was said or written (seen on a loaded machine, a signal during
    /// the set-up).
    static func finish(signal: Int32, end: () async -> Void) async -> Never {
        guard claimEnd() else { await untilExit() }
        await end()
        exit(128 + signal)
    }

    /// Whether the program's end is the caller's to tell: true for the first caller only — the
    /// run's own end, or a signal's handler. The other must not print, write or exit.
    static func claimEnd() -> Bool {
        !ending.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// Suspends the caller for good: whoever claimed the end (`claimEnd`) exits the program.
    static func untilExit() async -> Never {
        while true {
            await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
        }
    }

    private static let ending = Atomic<Bool>(false)
    /// Kept, never resumed: the program exits first.
    private static let parked = Mutex<[CheckedContinuation<Void, Never>]>([])
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
