import Foundation
import Testing
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport
import TrellisWire
import ZeroMQ

/// The `trellis` command in distributed mode, and a node outliving its conductor.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct NodeProcessTests {
    /// Runs `trellis` with a bounded wait; returns status and standard output.
    func trellis(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let executable = try #require(TrellisBinary.url, "build the trellis executable first")
        let outcome = try #require(try await runBounded(executable, arguments, timeout: .seconds(90)))
        #expect(!outcome.timedOut, "trellis \(arguments.joined(separator: " ")) did not end within 90 s")
        return (outcome.status, outcome.stdout)
    }

    @Test(arguments: [["--endpoints", "tcp"], ["--curve"], ["--endpoints", "tcp", "--curve"]])
    func theCommandLinePrintsTheInProcessTrace(flags: [String]) async throws {
        let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/chain-dismiss-middle.json"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let inProcess = try await trellis(["run", file.path])
        let distributed = try await trellis(["run", file.path, "--transport", "zmq"] + flags)
        #expect(inProcess.status == 0)
        #expect(distributed.status == 0)
        #expect(distributed.output == inProcess.output)
    }

    @Test func perNodeTraceFilesMergeBackToTheRun() async throws {
        let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/current-context-in-navigation.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-nodes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let perNode = directory.appendingPathComponent("nodes").path
        let run = try await trellis(["run", file.path, "--transport", "zmq", "--trace-dir", perNode])
        #expect(run.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: perNode).sorted()
        #expect(files == ["b.jsonl", "c.jsonl", "main.jsonl"])
        let shown = try await trellis(["trace", "show"] + files.map { "\(perNode)/\($0)" })
        #expect(shown.status == 0)
        #expect(shown.output == run.output)
    }

    @Test func zmqOptionsWithoutZmqAreRejected() async throws {
        let example = packageRoot.appendingPathComponent("Examples/iphone-rotation.json").path
        #expect(try await trellis(["run", example, "--curve"]).status == 2)
        #expect(try await trellis(["node", "--name", "b", "--bind", "nonsense"]).status == 2)
        #expect(try await trellis(["node", "--name", "b", "--bind", "ipc:///tmp/x.sock", "--peer", "main"]).status == 2)
    }

    /// Issue 16: a distributed run set up wrongly exits 2 (bad input) within seconds, naming
    /// what is wrong: a --node the placement does not have, a --node given twice (refused with
    /// the arguments: the run waited 30 s for the endpoint it dropped), a --listen that is no
    /// endpoint, or one the conductor cannot listen on.
    @Test func setUpMistakesExit2() async throws {
        let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-mistakes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.json").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let binary = try #require(TrellisBinary.url)
        let cases: [([String], String)] = [
            (["--node", "x=tcp://127.0.0.1:5556"], "node x, started by hand, is not a node of the scenario's placement (its nodes: main, b, c; main conducts)"),
            (["--listen", "localhost:5555"], "--listen must be an ipc:// or tcp:// endpoint to listen on, got \"localhost:5555\""),
            // An endpoint that is written wrong is named at once: it waited 30 s for a greeting
            // that could not come, and exited 3.
            (["--node", "b=tcp://127.0.0.1:abc"], "--node b=tcp://127.0.0.1:abc: \"tcp://127.0.0.1:abc\" is not an endpoint to connect to: the port \"abc\" is not a number from 1 to 65535"),
            (["--node", "b=tcp://127.0.0.1:99999"], "the port \"99999\" is not a number from 1 to 65535"),
            (["--node", "b=tcp://:5555"], "tcp:// needs a host before the port"),
            (["--listen", "tcp://127.0.0.1:99999"], "the port \"99999\" is not a number from 0 to 65535, or *"),
            (["--node", "b=tcp://127.0.0.1:5556", "--node", "c=tcp://127.0.0.1:5557", "--node", "b=tcp://127.0.0.1:5558"],
             "--node b is given 2 times (tcp://127.0.0.1:5556, tcp://127.0.0.1:5558): each node started by hand is given once, NAME=ENDPOINT"),
            (["--listen", "ipc://\(directory.path)/no-such-folder/main.sock"], "the conductor cannot listen on ipc://\(directory.path)/no-such-folder/main.sock"),
        ]
        for (flags, said) in cases {
            let outcome = try #require(try await runBounded(binary, ["run", file, "--transport", "zmq"] + flags, timeout: .seconds(60)))
            #expect(outcome.status == 2, "\(flags): \(outcome.stderr)")
            #expect(outcome.stderr.contains(said), "\(flags): \(outcome.stderr)")
            #expect(!outcome.timedOut)
        }
    }

    /// A node given an endpoint written wrong refuses to start (exit 2), naming it.
    @Test func aNodesEndpointsAreChecked() async throws {
        let binary = try #require(TrellisBinary.url)
        let cases: [([String], String)] = [
            (["--bind", "tcp://127.0.0.1:abc", "--peer", "main=tcp://127.0.0.1:5555"],
             "--bind must be an ipc:// or tcp:// endpoint to listen on, got \"tcp://127.0.0.1:abc\": the port \"abc\" is not a number from 0 to 65535, or *"),
            (["--bind", "tcp://*:*", "--peer", "main=tcp://*:5555"],
             "--peer main=tcp://*:5555: \"tcp://*:5555\" is not an endpoint to connect to: * is for listening"),
        ]
        for (flags, said) in cases {
            let outcome = try #require(try await runBounded(binary, ["node", "--name", "b"] + flags, timeout: .seconds(60)))
            #expect(outcome.status == 2, "\(flags): \(outcome.stderr)")
            #expect(outcome.stderr.contains(said), "\(flags): \(outcome.stderr)")
        }
    }

    /// A `trellis node` named b started with `arguments`, greeting a stand-in conductor "main":
    /// a ROUTER the test reads, in a folder of its own. The conversation runs on a thread of its
    /// own (`converse`), as a conductor's does: on the test pool's threads a test kept waiting
    /// for a turn longer than the node's silence bound (2 s before a SETUP) lost its node.
    final class StandInConductor {
        let directory: URL
        let context: ZMQContext
        let router: ZMQSocket
        let node: Process
        let conductorEndpoint: String

        struct NoExecutable: Error {}

        /// `program`: the node's program and its first arguments (default: `trellis node`).
        init(nodeArguments: [String], program: [String]? = nil) throws {
            guard let executable = trellisExecutable else { throw NoExecutable() }
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-node-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            context = try ZMQContext()
            router = try context.socket(.router)
            try router.set(ZMQOption.linger, 0)
            conductorEndpoint = "ipc://\(directory.path)/main.sock"
            try router.bind(conductorEndpoint)
            node = Process()
            let command = program ?? [executable, "node"]
            node.executableURL = URL(fileURLWithPath: command[0])
            node.arguments = Array(command.dropFirst()) + ["--name", "b", "--bind", "ipc://\(directory.path)/b.sock", "--peer", "main=\(conductorEndpoint)"] + nodeArguments
            node.standardError = FileHandle.nullDevice
            try node.run()
        }

        deinit {
            if node.isRunning { kill(node.processIdentifier, SIGKILL) }
            router.close()
            context.terminate()
            try? FileManager.default.removeItem(at: directory)
        }

        /// What the stand-in heard and saw, checked by the test once the conversation is over.
        struct Transcript: Sendable {
            /// Each message from the node that is not a heartbeat, with its routing id, in order.
            var heard: [(from: String, message: WireMessage)] = []
            /// Whether the node still ran when the script said (`noteRunning`).
            var running: Bool?
            /// The node's exit status (`awaitExit`); nil when it had not exited.
            var exitStatus: Int32?
        }

        /// Starts the node, runs `script` with it on a new thread and returns the transcript; a
        /// node still running then is killed.
        static func converse(nodeArguments: [String], program: [String]? = nil,
                             _ script: @escaping @Sendable (StandInConductor, inout Transcript) throws -> Void) async throws -> Transcript {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    do {
                        let stage = try StandInConductor(nodeArguments: nodeArguments, program: program)
                        var transcript = Transcript()
                        try script(stage, &transcript)
                        continuation.resume(returning: transcript)
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        }

        /// The next message the node sends the conductor that is not a heartbeat (within 30 s),
        /// also added to `transcript`.
        func next(into transcript: inout Transcript) throws -> WireMessage? {
            while true {
                var items = [ZMQPollItem(.socket(router))]
                guard try ZMQPoll.poll(&items, timeoutMilliseconds: 30_000) == 1, let frames = try router.receive() else { return nil }
                let message = try WireMessage.decode(Array(frames.dropFirst()))
                guard message.body != .heartbeat else { continue }
                transcript.heard.append((String(decoding: frames[0], as: UTF8.self), message))
                return message
            }
        }

        /// Waits at most 60 s for the node to exit and notes its status, looking in short slices
        /// (this runs on the conversation's own thread). Called before the script's sockets
        /// close: they have no linger, and what they still queue would be dropped unsent.
        func awaitExit(into transcript: inout Transcript) {
            let deadline = ContinuousClock.now.advanced(by: .seconds(60))
            while node.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
            transcript.exitStatus = node.isRunning ? nil : node.terminationStatus
        }

        /// A DEALER into the node's inbox, as peer `name`.
        func dealer(_ name: String, to endpoint: String) throws -> ZMQSocket {
            let socket = try context.socket(.dealer)
            try socket.set(ZMQOption.linger, 0)
            try socket.set(ZMQOption.routingID, text: name)
            try socket.connect(endpoint)
            return socket
        }
    }

    @Test func aNodeWhoseConductorFallsSilentExits() async throws {
        // A stand-in conductor: it listens, hears the node's HELLO, answers once, then goes silent.
        let transcript = try await StandInConductor.converse(nodeArguments: []) { stage, transcript in
            guard case let .hello(_, _, _, endpoint)? = try stage.next(into: &transcript)?.body else { return }
            let dealer = try stage.dealer("main", to: endpoint)
            defer { dealer.close() }
            try dealer.send(WireMessage(.hello(node: "main", runID: "orphan", capabilities: 0)).encode(), dontWait: false)
            stage.awaitExit(into: &transcript)
        }
        let greeting = try #require(transcript.heard.first, "the node did not greet its conductor")
        #expect(greeting.from == "b")
        guard case let .hello(name, _, _, _) = greeting.message.body else {
            Issue.record("expected HELLO, got \(greeting.message.body)")
            return
        }
        #expect(name == "b")
        // Then silence: the node must declare its conductor gone (2 s by default) and exit 3.
        #expect(transcript.exitStatus == 3)
    }

    /// SPEC §7, authority (CONFORMANCE 37): a node started with `--conductor main` takes one
    /// SETUP, from main only. A stranger's SETUP changes nothing (main's is still accepted), a
    /// second SETUP from main is refused with ERROR 6, and the node keeps serving until main's
    /// goodbye.
    @Test func aNodeIsSetUpOnceByItsConductorOnly() async throws {
        let transcript = try await StandInConductor.converse(nodeArguments: ["--conductor", "main"]) { stage, transcript in
            guard case let .hello(_, _, _, endpoint)? = try stage.next(into: &transcript)?.body else { return }
            let scenario = #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
            func setup(_ correlation: UInt64) -> [[UInt8]] {
                WireMessage(.setup(runID: "authority", node: "b", scenarioJSON: scenario, heartbeatIntervalMilliseconds: 250,
                                   peerGoneTimeoutMilliseconds: 2_000, peers: [WirePeer(node: "main", endpoint: stage.conductorEndpoint)]),
                            correlationID: correlation).encode()
            }
            let stranger = try stage.dealer("x", to: endpoint)
            defer { stranger.close() }
            _ = try stranger.send(setup(1), dontWait: false)
            let conductor = try stage.dealer("main", to: endpoint)
            defer { conductor.close() }
            _ = try conductor.send(WireMessage(.hello(node: "main", runID: "authority", capabilities: 0)).encode(), dontWait: false)
            _ = try conductor.send(setup(2), dontWait: false)
            guard case .ready? = try stage.next(into: &transcript)?.body else { return }
            _ = try conductor.send(setup(3), dontWait: false)
            guard try stage.next(into: &transcript) != nil else { return }
            transcript.running = stage.node.isRunning
            _ = try conductor.send(WireMessage(.goodbye, correlationID: 4).encode(), dontWait: false)
            stage.awaitExit(into: &transcript)
        }
        try #require(transcript.heard.count == 3, "heard: \(transcript.heard.map(\.message.body))")
        guard case .ready(node: "b") = transcript.heard[1].message.body else {
            Issue.record("the conductor's SETUP after a stranger's got \(transcript.heard[1].message.body), not READY")
            return
        }
        #expect(transcript.heard[1].message.header.correlationID == 2)
        guard case let .error(code, text) = transcript.heard[2].message.body else {
            Issue.record("a second SETUP was not refused with an ERROR: \(transcript.heard[2].message.body)")
            return
        }
        #expect(code == WireErrorCode.unexpectedCommand.rawValue)
        #expect(text.contains("already set up by main"))
        #expect(transcript.running == true)
        #expect(transcript.exitStatus == 0)
    }

    /// TWP/1 §9.1 rule 4 (1.3), SPEC §4.1: a node that lacks a behaviour its SETUP names — the
    /// plain `trellis`, which registers none, or the Python node — refuses with ERROR 8 naming
    /// itself and the behaviour, builds nothing, and exits 2 at its conductor's goodbye.
    @Test("a node refuses a SETUP naming behaviours it lacks (ERROR 8), and exits 2 at the goodbye",
          arguments: ["trellis", "python"])
    func aNodeRefusesBehavioursItLacks(program: String) async throws {
        let python = [Self.python, packageRoot.appendingPathComponent("Tests/Interop/trellis_node.py").path]
        if program == "python", !Self.pythonHasZMQ { return }
        let transcript = try await StandInConductor.converse(nodeArguments: [], program: program == "python" ? python : nil) { stage, transcript in
            guard case let .hello(_, _, _, announced)? = try stage.next(into: &transcript)?.body else { return }
            let endpoint = announced.isEmpty ? "ipc://\(stage.directory.path)/b.sock" : announced
            let scenario = #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
            let conductor = try stage.dealer("main", to: endpoint)
            defer { conductor.close() }
            _ = try conductor.send(WireMessage(.hello(node: "main", runID: "named", capabilities: 0)).encode(), dontWait: false)
            let named = [WireBehavior(.presentationController, "Overlay"), WireBehavior(.viewController, "Sidebar")]
            _ = try conductor.send(WireMessage(.setup(
                runID: "named", node: "b", scenarioJSON: scenario, heartbeatIntervalMilliseconds: 250, peerGoneTimeoutMilliseconds: 2_000,
                behaviors: named), correlationID: 5).encode(), dontWait: false)
            guard try stage.next(into: &transcript) != nil else { return }
            transcript.running = stage.node.isRunning
            _ = try conductor.send(WireMessage(.goodbye, correlationID: 6).encode(), dontWait: false)
            stage.awaitExit(into: &transcript)
        }
        try #require(transcript.heard.count == 2, "heard: \(transcript.heard.map(\.message.body))")
        let reply = transcript.heard[1].message
        guard case let .error(code, text) = reply.body else {
            Issue.record("a SETUP naming unknown behaviours got \(reply.body), not ERROR 8")
            return
        }
        #expect(code == WireErrorCode.unknownBehavior.rawValue)
        #expect(reply.header.correlationID == 5)
        #expect(text.contains("node b"), "\(text)")
        #expect(text.contains("Sidebar (view-controller behaviour)"), "\(text)")
        #expect(text.contains("Overlay (presentation-controller behaviour)"), "\(text)")
        #expect(transcript.running == true)
        #expect(transcript.exitStatus == 2)
    }

    static let python = "/usr/bin/python3"

    /// Whether Debian's Python with pyzmq is there (the Python node's tests say so when not).
    static let pythonHasZMQ: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import zmq"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

}
