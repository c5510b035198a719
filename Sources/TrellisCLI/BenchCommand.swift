import ArgumentParser
import Foundation
import TrellisBench
import TrellisDistributed
import TrellisJSON
import TrellisTrace
import TrellisTraceFiles

/// `trellis bench`: each performance figure beside its anchor, measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Trellis beside its anchors (build with -c release for meaningful figures).",
        discussion: """
            Prints one line per figure: bench <name>: ours=… anchor=… ratio=… target=… pass|miss \
            (as each is measured), or with --format json one JSON document at the end \
            (docs/json-output.md). A missed target does not change the exit status.

            EXAMPLES:
              swift build -c release && .build/release/\(ProgramName.current) bench
              \(ProgramName.current) bench --quick
              \(ProgramName.current) bench --quick --figure inproc-hops --format json
            """)

    @Flag(help: "Smaller hierarchies and fewer rounds: finishes within a minute.")
    var quick = false

    @Option(help: "What to print: text (a line a figure), or json (one document with every figure: name, ours, anchor, ratio, unit, target, verdict; docs/json-output.md).")
    var format: ReportFormat = .text

    /// Internal: measure one memory figure in this fresh process and print it.
    @Option(help: .hidden)
    var memoryProbe: String?

    @Option(help: .hidden)
    var memoryCount: Int = 0

    /// Internal: with `--memory-probe validate`, the scenario file whose validation's peak is measured.
    @Option(help: .hidden)
    var memoryFile: String = ""

    /// Internal: be the other process of a ZeroMQ figure.
    @Option(help: .hidden)
    var peer: String?

    @Option(help: .hidden)
    var peerEndpoint: String = ""

    @Option(help: .hidden)
    var peerConnect: String = ""

    @Option(help: .hidden)
    var peerCount: Int = 0

    @Option(help: .hidden)
    var peerSize: Int = 0

    @Flag(help: "Skip the ZeroMQ and distributed figures.")
    var inProcessOnly = false

    @Flag(help: "Only the ZeroMQ and distributed figures.")
    var transportOnly = false

    /// The figures, by the names their lines start with.
    static let figureNames = [
        "inproc-hops", "inproc-hops-file-trace", "inproc-swift-super", "memory-per-controller", "storyboard-import", "zmq-throughput", "zmq-rtt", "zmtp-rtt",
        "distributed-traversal", "validate-flat", "jsonl-encode",
    ]

    @Option(name: .customLong("figure"), help: ArgumentHelp(
        "Only this figure (repeatable): \(Self.figureNames.joined(separator: ", ")).", valueName: "name"))
    var figures: [String] = []

    /// Internal: repeat size transitions on one 100k hierarchy (for a profiler), then exit.
    @Option(help: .hidden)
    var profileTransitions: Int = 0

    /// Where a profiled run's trace goes.
    enum ProfiledTrace: String, ExpressibleByArgument, CaseIterable {
        case discard, memory, file, jsonl
    }

    /// Internal: with --profile-transitions, where the trace goes.
    @Option(help: .hidden)
    var profileTrace = ProfiledTrace.discard

    /// Internal: with --profile-transitions, how many controllers.
    @Option(help: .hidden)
    var profileControllers = 100_000

    /// Internal: with --profile-transitions, every controller with a Swift behaviour that only
    /// calls super (the Swift side of inproc-swift-super) instead of the default behaviour.
    @Flag(help: .hidden)
    var profileSuperOnly = false

    func validate() throws {
        if inProcessOnly && transportOnly {
            throw ValidationError("--in-process-only and --transport-only exclude each other")
        }
        for figure in figures where !Self.figureNames.contains(figure) {
            throw ValidationError("unknown figure '\(figure)' (expected one of: \(Self.figureNames.joined(separator: ", ")))")
        }
    }

    /// Whether this run measures `figure`: every figure unless some were named.
    private func wants(_ figure: String) -> Bool {
        figures.isEmpty || figures.contains(figure)
    }

    func run() async throws {
        if profileTransitions > 0 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-profile-\(getpid()).trellis").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let storage: TraceRecorder.Storage
            switch profileTrace {
            case .memory: storage = .memory
            case .file: storage = .file(try TraceFileWriter(path: path))
            case .jsonl: storage = .file(try TraceFileWriter(path: path, format: .jsonLines))
            case .discard: storage = .discard
            }
            let seconds = try await InProcessBench.repeatedTransitions(HierarchyShape(count: profileControllers), count: profileTransitions, storage: storage, superOnly: profileSuperOnly)
            print("\(profileTransitions) transitions of \(profileControllers) controllers: \(seconds) s")
            return
        }
        if let peer {
            guard let role = TransportBench.PeerRole(rawValue: peer) else { throw ValidationError("unknown peer role \(peer)") }
            try await TransportBench.runPeer(role, endpoint: peerEndpoint, connectTo: peerConnect, count: peerCount, size: peerSize)
            return
        }
        if memoryProbe == "validate" {
            // Spawned from this fresh, small process: a spawned process's peak counts the
            // spawner's own at the spawn (Linux keeps the high-water mark of the memory it
            // started in across exec), which in the bench's own process is every hierarchy
            // measured before — 2.4 GB once the 1M-controller figures had run.
            print(ValidateBench.peakResidentBytes(executable: RunCommand.ownExecutable, arguments: ["validate", memoryFile]).map(String.init) ?? "nan")
            return
        }
        if let memoryProbe {
            let shape = HierarchyShape(count: memoryCount)
            let bytes = memoryProbe == "bare"
                ? await InProcessBench.bareBytesPerNode(shape)
                : try await InProcessBench.trellisBytesPerController(shape)
            print(bytes)
            return
        }
        var figures = BenchFigures(format: format)
        do {
            if !transportOnly { try await inProcessFigures(&figures) }
            if !inProcessOnly { try await transportFigures(&figures) }
        } catch {
            guard format == .json else { throw error }
            figures.errors.append(JSONFields.error(file: nil, message: "\(error)"))
        }
        guard format == .json else { return }
        var report = JSONReport(command: "bench")
        report.set("quick", .bool(quick))
        figures.fill(&report)
        // A figure that misses its target does not change the exit status (as in prose).
        let status: Int32 = figures.errors.isEmpty ? 0 : 2
        report.emit(status: status)
        if status != 0 { throw ExitCode(status) }
    }

    private func inProcessFigures(_ figures: inout BenchFigures) async throws {
        let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
        // Each side's best of several rounds: on a shared machine a round is slowed now and then, and
        // the fewer the rounds the likelier one side has no clean one (a 100k round takes about
        // 0.1 s, a 1M round about half a second with its anchor).
        let rounds = quick ? 6 : 8
        // The file figures (from 100k controllers on) are measured against the in-memory figure of
        // the same size.
        for count in sizes where wants("inproc-hops") || (count >= 100_000 && wants("inproc-hops-file-trace")) {
            let shape = HierarchyShape(count: count)
            // A 10k transition takes a few milliseconds: more rounds, so that its best is as
            // settled as a larger hierarchy's.
            let (ours, bare, plain, tracedPlain) = try await InProcessBench.interleavedHopsPerSecond(shape, rounds: rounds * min(10, max(1, 100_000 / count)))
            figures.add(BenchLine(name: "inproc-hops-\(count)", ours: ours, anchor: bare, unit: "hops/s", target: .atLeast(0.5),
                            note: "a hop: a message delivered to a controller's actor, viewWillTransition then layout (2 per controller); anchor: the same two walks over bare actors; measured in turns, best round of each"))
            if wants("inproc-hops") {
                figures.add(BenchLine(name: "inproc-hops-\(count)-plain-calls", ours: ours, anchor: plain, unit: "hops/s", target: .atLeast(0.33),
                                note: "anchor: the same two walks as plain Swift method calls over final class objects (no actors: the floor), measured in the same turns"))
                figures.add(BenchLine(name: "inproc-hops-\(count)-traced-plain-calls", ours: ours, anchor: tracedPlain, unit: "hops/s", target: .atLeast(0.5),
                                note: "anchor: the plain calls appending the events Trellis records (the same records, checked equal) to a preallocated buffer (the floor of a traced walk), measured in the same turns"))
            }
            if count >= 100_000 && wants("inproc-hops-file-trace") {
                try await fileTraceFigures(shape, readBack: count == sizes.last, into: &figures)
            }
        }
        if wants("validate-flat") { try validateFigures(&figures) }
        if wants("jsonl-encode") { try await lineEncodingFigure(&figures) }
        if wants("inproc-swift-super") {
            let walks = try await InProcessBench.interleavedSuperOnlyHopsPerSecond(HierarchyShape(count: 100_000), rounds: rounds)
            figures.add(BenchLine(name: "inproc-swift-super-100000", ours: walks.superOnly, anchor: walks.defaultWalk, unit: "hops/s", target: .atLeast(0.9),
                            note: "ours: every controller's behaviour a Swift one whose size hooks (viewWillTransitionBeforeSuper, size(forChild:)) only call super (a registered behaviour); anchor: the default walk (DefaultBehavior); measured in turns, best round of each"))
            figures.add(BenchLine(name: "inproc-swift-super-async-100000", ours: walks.asyncSuperOnly, anchor: walks.defaultWalk, unit: "hops/s", target: .atLeast(0.3),
                            note: "ours: the same with the async viewWillTransition, whose awaited super cannot join the synchronous walk (R11); a floor against regressions; anchor: the default walk, in the same turns"))
            figures.add(BenchLine(name: "inproc-swift-super-control-100000", ours: walks.defaultAgain, anchor: walks.defaultWalk, unit: "hops/s", target: .atLeast(0),
                            note: "a control, no target: the default walk on a second window of the same shape, in the same turns; what the turns' noise alone makes of two equal walks, beside which inproc-swift-super is read"))
        }
        if wants("storyboard-import") { try storyboardFigure() }
        guard wants("memory-per-controller") else { return }
        // Each memory figure in a fresh process: freed memory from the figures above would be
        // reused and hide the growth.
        let count = quick ? 100_000 : 1_000_000
        let trellis = try Self.probe("trellis", count: count)
        let bare = try Self.probe("bare", count: count)
        figures.add(BenchLine(name: "memory-per-controller", ours: trellis, anchor: bare, unit: "resident bytes per controller",
                        target: .valueAtMost(400), note: "\(count) controllers, idle after the initial layout, trace discarded, the description kept alive; anchor: a bare actor per node"))
    }

    /// Importing a storyboard of about a megabyte (read, mapped, decoded and validated) beside
    /// reading the same scenario from its JSON file (issue #25 "Speed": well under a second).
    private func storyboardFigure() throws {
        let (storyboard, scenario, bytes) = try StoryboardBench.importSeconds(targetBytes: 1 << 20, rounds: quick ? 3 : 5)
        print(BenchLine(name: "storyboard-import", ours: storyboard, anchor: scenario, unit: "seconds", target: .valueAtMost(0.5),
                        note: "a storyboard of \(bytes) bytes through a scenario's \"storyboard\" field; anchor: the same scenario read from its JSON file; best of each"))
    }

    /// Recording to a file in each form beside recording to memory, the bytes per event of
    /// each form, and (`readBack`) how fast `trellis trace show` reads a file beside `cat`.
    private func fileTraceFigures(_ shape: HierarchyShape, readBack: Bool, into figures: inout BenchFigures) async throws {
        let count = shape.count
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-\(getpid())").path
        var bytesPerEvent: [CaptureFileFormat: Double] = [:]
        for format in [CaptureFileFormat.compact, .jsonLines] {
            let path = base + (format == .compact ? "." + CaptureFileFormat.compactExtension : ".jsonl")
            defer { try? FileManager.default.removeItem(atPath: path) }
            // Each round appends a transition to the same file (about 900 MB of JSON Lines a round
            // at one million controllers). The anchor, tracing to memory, is measured in the same
            // turns, round for round.
            let writer = try TraceFileWriter(path: path, format: format)
            let (memory, toFile) = try await InProcessBench.interleavedFileTraceHopsPerSecond(
                shape, rounds: quick ? 4 : count >= 1_000_000 ? 2 : 3, file: writer)
            bytesPerEvent[format] = Double(Self.fileSize(path)) / Double(max(1, writer.eventsWritten))
            let name = format == .compact ? "inproc-hops-file-trace-\(count)" : "inproc-hops-file-trace-jsonl-\(count)"
            // Issue 27 item 8: JSON Lines at half of the trace in memory, the compact capture at three quarters.
            figures.add(BenchLine(name: name, ours: toFile, anchor: memory, unit: "hops/s", target: .atLeast(format == .compact ? 0.75 : 0.5),
                            note: (format == .compact ? "the compact capture" : "JSON Lines 1.1")
                                + "; anchor: the same transitions traced to memory, measured in turns, best round of each"))
        }
        figures.add(BenchLine(name: "trace-bytes-per-event-\(count)", ours: bytesPerEvent[.compact] ?? 0, anchor: bytesPerEvent[.jsonLines] ?? 0,
                        unit: "bytes per event", target: .atMost(1.0 / 6), note: "ours: the compact capture; anchor: JSON Lines 1.1 of the same transitions"))
        guard readBack else { return }
        // A file of the initial layout and one transition, read back by `trellis trace show`;
        // the anchor is `cat` reading the same bytes, as events per second.
        for format in count <= 100_000 ? [CaptureFileFormat.compact, .jsonLines] : [.compact] {
            let path = base + "-read" + (format == .compact ? "." + CaptureFileFormat.compactExtension : ".jsonl")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let writer = try TraceFileWriter(path: path, format: format)
            _ = try await InProcessBench.trellisHopsPerSecond(shape, rounds: 1, storage: .file(writer))
            let events = Double(writer.eventsWritten)
            let show = try Self.secondsToRun(RunCommand.ownExecutable, ["trace", "show", path])
            let cat = try Self.secondsToRun("/bin/cat", [path])
            let name = format == .compact ? "trace-show-\(count)" : "trace-show-jsonl-\(count)"
            figures.add(BenchLine(name: name, ours: events / show, anchor: events / cat, unit: "events/s", target: .atLeast(0),
                            note: "\(Int(events)) events, \(Self.fileSize(path)) bytes (\(format == .compact ? "compact" : "JSON Lines")): trellis trace show to /dev/null \(BenchLine.format(show)) s, cat \(BenchLine.format(cat)) s; no target, reported"))
        }
    }

    /// The JSON Lines encoder alone (issue 27 item 8: the file figure's largest share of CPU once
    /// the disk keeps up), beside `memcpy` of the bytes it writes; no target, reported.
    private func lineEncodingFigure(_ figures: inout BenchFigures) async throws {
        let count = 100_000
        let rounds = quick ? 10 : 20
        let (encode, copy, events, bytes) = try await InProcessBench.lineEncodingEventsPerSecond(HierarchyShape(count: count), rounds: rounds)
        figures.add(BenchLine(name: "jsonl-encode-\(count)", ours: encode, anchor: copy, unit: "events/s", target: .atLeast(0),
                        note: "the \(events) events of one \(count)-controller transition encoded as JSON Lines (\(bytes) bytes, \(BenchLine.format(1e9 / encode)) ns an event) into a reused buffer; anchor: memcpy of the same bytes in the same 4 MB pieces; best of \(rounds) turns each; no target, reported"))
    }

    /// `trellis validate` of a flat scenario (issue 27) beside reading the same file with the
    /// JSON reader alone, in turns; and the most memory `trellis validate` of it holds, beside
    /// the file's size.
    private func validateFigures(_ figures: inout BenchFigures) throws {
        let count = quick ? 100_000 : 1_000_000
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-flat-\(getpid()).json").path
        try ValidateBench.flatScenario(count: count).write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Double(Self.fileSize(path))
        let rounds = quick ? 5 : 3
        let (validate, parse) = try ValidateBench.seconds(path: path, rounds: rounds)
        figures.add(BenchLine(name: "validate-flat-\(count)", ours: bytes / validate / 1e6, anchor: bytes / parse / 1e6, unit: "MB/s", target: .atLeast(0.25),
                        note: "\(count) leaves under one root view, \(Int(bytes)) bytes: trellis validate's reading, decoding and checks \(BenchLine.format(validate)) s; anchor: FileBytes and JSONParser alone \(BenchLine.format(parse)) s; best of \(rounds) turns each"))
        // The memory figure always of a million leaves: at 100k the process's own 25 MB would
        // hide what the file costs.
        let large = 1_000_000
        if count != large { try ValidateBench.flatScenario(count: large).write(toFile: path, atomically: false, encoding: .utf8) }
        let largeBytes = Double(Self.fileSize(path))
        let peak = try Self.probe("validate", count: large, file: path)
        figures.add(BenchLine(name: "validate-flat-\(large)-memory", ours: peak / 1e6, anchor: largeBytes / 1e6, unit: "MB", target: .atMost(8),
                        note: "the peak resident memory of a trellis validate process of a flat scenario of \(large) leaves, beside the file's size"))
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Seconds `executable` takes with `arguments`, its output thrown away.
    private static func secondsToRun(_ executable: String, _ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    private func transportFigures(_ figures: inout BenchFigures) async throws {
        let launcher = PeerLauncher(executable: RunCommand.ownExecutable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // At least a few hundred milliseconds a turn: shorter turns let a lucky anchor round count.
        let messages = quick ? 300_000 : 1_000_000
        let throughputRounds = 3
        var port = 47_100 + Int(getpid() % 1_000) * 4
        func endpoint(_ kind: String, _ name: String) -> String {
            port += 1
            return kind == "ipc" ? "ipc://\(directory.path)/\(name)-\(port).sock" : "tcp://127.0.0.1:\(port)"
        }
        for kind in ["ipc", "tcp"] where wants("zmq-throughput") {
            for size in [64, 1024] {
                // Raw and Trellis take turns, and each side's best round counts: the anchor alone
                // moves by half from one minute to the next on a shared machine.
                var raw = 0.0, ours = 0.0
                for _ in 0..<throughputRounds {
                    raw = max(raw, try TransportBench.rawThroughput(peer: launcher, endpoint: endpoint(kind, "raw"), count: messages, size: size))
                    ours = max(ours, try await TransportBench.trellisThroughput(
                        peer: launcher, endpoint: endpoint(kind, "measure"), peerEndpoint: endpoint(kind, "push"), count: messages, size: size))
                }
                let name = size == 64 ? "zmq-throughput-64B-\(kind)" : "zmq-throughput-1KiB-\(kind)"
                figures.add(BenchLine(name: name, ours: ours, anchor: raw, unit: "messages/s", target: .atLeast(0.7),
                                note: "\(messages) messages, best of \(throughputRounds) turns each; ours: CALL frames through the node I/O thread, decoded; anchor: raw PUSH/PULL"))
            }
        }
        if wants("zmq-rtt") {
            try await roundTripFigures(launcher: launcher, endpoint: endpoint, into: &figures)
        }
        if wants("zmtp-rtt") {
            try zmtpRoundTripFigures(launcher: launcher, endpoint: endpoint, into: &figures)
        }
        guard wants("distributed-traversal") else { return }
        let shape = HierarchyShape(count: quick ? 20_000 : 100_000)
        let resizes = 3
        let traversal = try await DistributedBench.measure(shape, resizes: resizes, nodeExecutable: RunCommand.ownExecutable)
        figures.add(BenchLine(name: "distributed-traversal", ours: traversal.distributed, anchor: traversal.inProcess, unit: "seconds per transition",
                        target: .atMost(2), note: "\(shape.count) controllers over 4 processes (8 boundary edges) vs one process; best of \(resizes) resizes each; "
                            + String(format: "trace data: %.1f bytes an event (%d events, %d parts)",
                                     traversal.traceData.bytesPerEvent, traversal.traceData.events, traversal.traceData.parts)))
    }

    private func roundTripFigures(launcher: PeerLauncher, endpoint: @escaping (String, String) -> String, into figures: inout BenchFigures) async throws {
        // The p99 of 2,000 trips was their 20th slowest, at the mercy of one busy moment.
        let trips = quick ? 6_000 : 20_000
        let times = try await TransportBench.roundTrips(peer: launcher, endpoint: { endpoint("ipc", $0) }, count: trips, block: 500)
        let raw = times.raw.sorted(), layout = times.layout.sorted(), nodeIO = times.nodeIO.sorted(), ours = times.trellis.sorted()
        func percentile(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))] }
        // Not targets: raw libzmq over Trellis's own socket layout shows what the layout costs
        // before any Trellis code, and an echo through bare NodeIOs what the I/O loop adds.
        func layoutNote(_ p: Double) -> String {
            "raw libzmq over Trellis's socket layout: \(BenchLine.format(percentile(layout, p))) µs, bare NodeIO echo: \(BenchLine.format(percentile(nodeIO, p))) µs"
        }
        figures.add(BenchLine(name: "zmq-rtt-median", ours: percentile(ours, 0.5), anchor: percentile(raw, 0.5), unit: "µs", target: .atMost(1.5),
                        note: "\(trips) round trips over ipc, in turns of 500; ours: CALL/RETURN from a task on the node's I/O thread; anchor: raw REQ/REP; \(layoutNote(0.5))"))
        figures.add(BenchLine(name: "zmq-rtt-p99", ours: percentile(ours, 0.99), anchor: percentile(raw, 0.99), unit: "µs", target: .atMost(1.5),
                        note: layoutNote(0.99)))
    }

    /// zmtp-rtt (issue 27 item 6): the round trip through `TrellisZMTP`, whose I/O thread owns its
    /// socket, beside raw REQ/REP; over ipc as zmq-rtt, and over tcp as Erlang's distribution.
    private func zmtpRoundTripFigures(launcher: PeerLauncher, endpoint: @escaping (String, String) -> String, into figures: inout BenchFigures) throws {
        let trips = quick ? 6_000 : 20_000
        func percentile(_ values: [Double], _ p: Double) -> Double { values.isEmpty ? 0 : values[min(values.count - 1, Int(Double(values.count) * p))] }
        for kind in ["ipc", "tcp"] {
            let times = try ZMTPBench.roundTrips(peer: launcher, endpoint: { endpoint(kind, $0) }, count: trips, block: 500)
            let raw = times.raw.sorted(), ours = times.zmtp.sorted()
            let suffix = kind == "ipc" ? "" : "-tcp"
            figures.add(BenchLine(name: "zmtp-rtt\(suffix)-median", ours: percentile(ours, 0.5), anchor: percentile(raw, 0.5), unit: "µs", target: .atMost(1.0),
                            note: "\(trips) round trips over \(kind), in turns of 500, two processes; ours: TrellisZMTP DEALER to a ROUTER echo, each thread owning its socket and spinning 50 µs before it sleeps; anchor: raw REQ/REP"))
            figures.add(BenchLine(name: "zmtp-rtt\(suffix)-p99", ours: percentile(ours, 0.99), anchor: percentile(raw, 0.99), unit: "µs", target: .atMost(1.5),
                            note: "\(trips) round trips over \(kind)"))
            guard kind == "ipc" else { continue }
            let calls = times.call.sorted()
            figures.add(BenchLine(name: "zmtp-rtt-call-median", ours: percentile(calls, 0.5), anchor: percentile(raw, 0.5), unit: "µs", target: .atMost(1.0),
                            note: "the same trips over ipc as Trellis CALL/RETURN messages: the wire codec on both sides over TrellisZMTP, no node transport; anchor: raw REQ/REP"))
            figures.add(BenchLine(name: "zmtp-rtt-call-p99", ours: percentile(calls, 0.99), anchor: percentile(raw, 0.99), unit: "µs", target: .atMost(1.5),
                            note: "CALL/RETURN over ipc"))
        }
    }

    /// One memory figure measured in a fresh process (`--memory-probe`): what it printed.
    static func probe(_ kind: String, count: Int, file: String? = nil) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunCommand.ownExecutable)
        process.arguments = ["bench", "--memory-probe", kind, "--memory-count", String(count)] + (file.map { ["--memory-file", $0] } ?? [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }
}
