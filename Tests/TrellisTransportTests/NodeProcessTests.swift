import Foundation
import Testing
import TrellisTestSupport
import TrellisTransport
import TrellisWire
import ZeroMQ

/// The `trellis` command in distributed mode, and a node outliving its conductor.
@Suite(.timeLimit(.minutes(2)))
struct NodeProcessTests {
    /// Runs `trellis` with a bounded wait; returns status and standard output.
    func trellis(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let executable = try #require(trellisExecutable, "build the trellis executable first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // ends when the process does
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [["--endpoints", "tcp"], ["--curve"], ["--endpoints", "tcp", "--curve"]])
    func theCommandLinePrintsTheInProcessTrace(flags: [String]) throws {
        let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/chain-dismiss-middle.json"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let inProcess = try trellis(["run", file.path])
        let distributed = try trellis(["run", file.path, "--transport", "zmq"] + flags)
        #expect(inProcess.status == 0)
        #expect(distributed.status == 0)
        #expect(distributed.output == inProcess.output)
    }

    @Test func perNodeTraceFilesMergeBackToTheRun() throws {
        let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/current-context-in-navigation.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-nodes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("scenario.json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let perNode = directory.appendingPathComponent("nodes").path
        let run = try trellis(["run", file.path, "--transport", "zmq", "--trace-dir", perNode])
        #expect(run.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: perNode).sorted()
        #expect(files == ["b.jsonl", "c.jsonl", "main.jsonl"])
        let shown = try trellis(["trace", "show"] + files.map { "\(perNode)/\($0)" })
        #expect(shown.status == 0)
        #expect(shown.output == run.output)
    }

    @Test func zmqOptionsWithoutZmqAreRejected() throws {
        let example = packageRoot.appendingPathComponent("Examples/iphone-rotation.json").path
        #expect(try trellis(["run", example, "--curve"]).status == 2)
        #expect(try trellis(["node", "--name", "b", "--bind", "nonsense"]).status == 2)
        #expect(try trellis(["node", "--name", "b", "--bind", "ipc:///tmp/x.sock", "--peer", "main"]).status == 2)
    }

    @Test func aNodeWhoseConductorFallsSilentExits() throws {
        let executable = try #require(trellisExecutable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-orphan-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A stand-in conductor: it listens, hears the node's HELLO, answers once, then goes silent.
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.socket(.router)
        defer { router.close() }
        try router.set(ZMQOption.linger, 0)
        let conductorEndpoint = "ipc://\(directory.path)/main.sock"
        try router.bind(conductorEndpoint)

        let node = Process()
        node.executableURL = URL(fileURLWithPath: executable)
        node.arguments = ["node", "--name", "b", "--bind", "ipc://\(directory.path)/b.sock", "--peer", "main=\(conductorEndpoint)"]
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer { if node.isRunning { kill(node.processIdentifier, SIGKILL) } }

        var items = [ZMQPollItem(.socket(router))]
        try #require(try ZMQPoll.poll(&items, timeoutMilliseconds: 30_000) == 1)
        let greeting = try #require(try router.receive())
        #expect(String(decoding: greeting[0], as: UTF8.self) == "b")
        let hello = try WireMessage.decode(Array(greeting.dropFirst()))
        guard case let .hello(name, _, _, endpoint) = hello.body else {
            Issue.record("expected HELLO, got \(hello.body)")
            return
        }
        #expect(name == "b")
        let dealer = try context.socket(.dealer)
        defer { dealer.close() }
        try dealer.set(ZMQOption.linger, 0)
        try dealer.set(ZMQOption.routingID, text: "main")
        try dealer.connect(endpoint)
        try dealer.send(WireMessage(.hello(node: "main", runID: "orphan", capabilities: 0)).encode(), dontWait: false)
        // Now silence: the node must declare its conductor gone (2 s by default) and exit 3.
        node.waitUntilExit()
        #expect(node.terminationStatus == 3)
    }

    /// SPEC §7, authority (CONFORMANCE 37): a node started with `--conductor main` takes one
    /// SETUP, from main only. A stranger's SETUP changes nothing (main's is still accepted), a
    /// second SETUP from main is refused with ERROR 6, and the node keeps serving until main's
    /// goodbye.
    @Test func aNodeIsSetUpOnceByItsConductorOnly() throws {
        let executable = try #require(trellisExecutable)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-authority-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.socket(.router)
        defer { router.close() }
        try router.set(ZMQOption.linger, 0)
        let conductorEndpoint = "ipc://\(directory.path)/main.sock"
        try router.bind(conductorEndpoint)

        let node = Process()
        node.executableURL = URL(fileURLWithPath: executable)
        node.arguments = ["node", "--name", "b", "--bind", "ipc://\(directory.path)/b.sock",
                          "--peer", "main=\(conductorEndpoint)", "--conductor", "main"]
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer { if node.isRunning { kill(node.processIdentifier, SIGKILL) } }

        /// The next message the stand-in conductor receives, within 30 s.
        func nextMessage() throws -> WireMessage? {
            var items = [ZMQPollItem(.socket(router))]
            guard try ZMQPoll.poll(&items, timeoutMilliseconds: 30_000) == 1, let frames = try router.receive() else { return nil }
            return try WireMessage.decode(Array(frames.dropFirst()))
        }
        guard case let .hello(_, _, _, endpoint)? = try nextMessage()?.body else {
            Issue.record("the node did not greet its conductor")
            return
        }
        func dealer(_ name: String) throws -> ZMQSocket {
            let socket = try context.socket(.dealer)
            try socket.set(ZMQOption.linger, 0)
            try socket.set(ZMQOption.routingID, text: name)
            try socket.connect(endpoint)
            return socket
        }
        let scenario = #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
        func setup(_ correlation: UInt64) -> [[UInt8]] {
            WireMessage(.setup(runID: "authority", node: "b", scenarioJSON: scenario, heartbeatIntervalMilliseconds: 250,
                               peerGoneTimeoutMilliseconds: 2_000, peers: [WirePeer(node: "main", endpoint: conductorEndpoint)]),
                        correlationID: correlation).encode()
        }
        let stranger = try dealer("x")
        defer { stranger.close() }
        _ = try stranger.send(setup(1), dontWait: false)
        let conductor = try dealer("main")
        defer { conductor.close() }
        _ = try conductor.send(WireMessage(.hello(node: "main", runID: "authority", capabilities: 0)).encode(), dontWait: false)
        _ = try conductor.send(setup(2), dontWait: false)
        var reply = try nextMessage()
        while case .heartbeat? = reply?.body { reply = try nextMessage() }
        guard case .ready(node: "b")? = reply?.body else {
            Issue.record("the conductor's SETUP after a stranger's got \(String(describing: reply?.body)), not READY")
            return
        }
        #expect(reply?.header.correlationID == 2)
        _ = try conductor.send(setup(3), dontWait: false)
        reply = try nextMessage()
        while case .heartbeat? = reply?.body { reply = try nextMessage() }
        guard case let .error(code, text)? = reply?.body else {
            Issue.record("a second SETUP got \(String(describing: reply?.body)), not ERROR")
            return
        }
        #expect(code == WireErrorCode.unexpectedCommand.rawValue)
        #expect(text.contains("already set up by main"))
        #expect(node.isRunning)
        _ = try conductor.send(WireMessage(.goodbye, correlationID: 4).encode(), dontWait: false)
        node.waitUntilExit()
        #expect(node.terminationStatus == 0)
    }
}
