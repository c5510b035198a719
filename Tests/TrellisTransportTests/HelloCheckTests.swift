import Foundation
import Synchronization
import Testing
import TrellisDistributed
import TrellisTrace
import TrellisTransport
import TrellisWire
import ZeroMQ
import TrellisTestSupport

/// TWP/1 §9.1 rule 3, at the wire: a HELLO whose node name is not the routing id of its stream,
/// and a second HELLO on a stream, are answered with ERROR 6 and go no further — on a bare
/// transport and on a `trellis node` worker (issue 27: neither got its ERROR within 0.6 s).
@Suite(.distributedHangGuard)
struct HelloCheckTests {
    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trellis-hello-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func hello(_ node: String, correlationID: UInt64 = 0) -> [[UInt8]] {
        WireMessage(.hello(node: node, runID: "", capabilities: 0, endpoint: ""), correlationID: correlationID).encode()
    }

    /// The ERROR that answers on `socket` (at most 20 s): its code and text.
    static func error(on socket: ZMQSocket) async throws -> (code: UInt16, text: String)? {
        guard case let .error(code, text)? = try await StrangerRoutingIDTests.nextMessage(on: socket)?.body else { return nil }
        return (code, text)
    }

    @Test func aWrongNameAndASecondHelloGetErrorSixAndReachNoHandler() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = NodeTransport(nodeName: "node", recorder: TraceRecorder(node: "node", runID: "hello"))
        var configuration = NodeIOConfiguration(nodeName: "node", bindEndpoint: "ipc://\(directory.path)/node.sock")
        configuration.peerTimeoutMilliseconds = 120_000
        let bound = try await node.start(configuration)
        // What reaches the node's control handler, in order.
        let seen = Mutex<[String]>([])
        await node.setHandlers(call: { _, _ in .ok([]) }, control: { message, peer in
            switch message.body {
            case let .hello(name, _, _, _): seen.withLock { $0.append("hello \(name) from \(peer)") }
            case .goodbye: seen.withLock { $0.append("goodbye from \(peer)") }
            default: break
            }
        }, peerGone: { _, _ in })
        let context = try ZMQContext()
        defer { context.terminate() }
        let impostor = try rawDealer(in: context, routingID: "b", connectedTo: bound)
        defer { impostor.close() }
        // A HELLO that names another node than its stream's routing id: refused, not greeted.
        try impostor.send(Self.hello("c", correlationID: 3), dontWait: false)
        let wrongName = try await Self.error(on: impostor)
        #expect(wrongName?.code == WireErrorCode.unexpectedCommand.rawValue, "\(String(describing: wrongName))")
        #expect(wrongName?.text.contains("HELLO names c but came from b") == true, "\(String(describing: wrongName))")
        // Its own name next: greeted. Then once more: refused, and ignored.
        try impostor.send(Self.hello("b"), dontWait: false)
        try impostor.send(Self.hello("b", correlationID: 4), dontWait: false)
        let second = try await Self.error(on: impostor)
        #expect(second?.code == WireErrorCode.unexpectedCommand.rawValue, "\(String(describing: second))")
        #expect(second?.text.contains("second HELLO from b") == true, "\(String(describing: second))")
        // A GOODBYE after them: once the handler has it, it has had everything before it.
        try impostor.send(WireMessage(.goodbye, correlationID: 5).encode(), dontWait: false)
        let deadline = ContinuousClock.now + .seconds(90)
        while !seen.withLock({ $0.contains("goodbye from b") }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(seen.withLock { $0 } == ["hello b from b", "goodbye from b"])
        await node.stop()
    }

    /// The same on a worker started as `trellis node` would be: the impostor's HELLO and a
    /// second HELLO get ERROR 6 at once.
    @Test func aWorkerRefusesAWrongNameAndASecondHello() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try ZMQContext()
        defer { context.terminate() }
        let mainInbox = try context.socket(.router)
        defer { mainInbox.close() }
        try mainInbox.set(ZMQOption.linger, 0)
        try mainInbox.bind("ipc://\(directory.path)/main.sock")
        let worker = WorkerNode(name: "w")
        let inbox = "ipc://\(directory.path)/w.sock"
        let running = Task {
            await worker.run(
                bind: inbox, peers: [(name: "main", endpoint: "ipc://\(directory.path)/main.sock", serverKey: nil)],
                curve: nil, conductor: "main", setupTimeout: .seconds(60))
        }
        let peer = try rawDealer(in: context, routingID: "x", connectedTo: inbox)
        defer { peer.close() }
        try peer.send(Self.hello("main", correlationID: 1), dontWait: true)
        let wrongName = try await Self.error(on: peer)
        #expect(wrongName?.code == WireErrorCode.unexpectedCommand.rawValue, "\(String(describing: wrongName))")
        try peer.send(Self.hello("x"), dontWait: true)
        try peer.send(Self.hello("x", correlationID: 2), dontWait: true)
        let second = try await Self.error(on: peer)
        #expect(second?.code == WireErrorCode.unexpectedCommand.rawValue, "\(String(describing: second))")
        #expect(second?.text.contains("second HELLO") == true, "\(String(describing: second))")
        // Its conductor ends it (a GOODBYE before a SETUP).
        let main = try rawDealer(in: context, routingID: "main", connectedTo: inbox)
        defer { main.close() }
        #expect(try main.send(WireMessage(.goodbye, correlationID: 1).encode(), dontWait: true))
        #expect(await running.value == 0)
    }
}
