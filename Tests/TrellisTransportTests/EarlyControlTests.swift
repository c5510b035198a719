import Foundation
import Synchronization
import Testing
import TrellisTrace
@testable import TrellisTransport
import TrellisWire
import ZeroMQ
import TrellisTestSupport

/// A node started by hand before its conductor has its HELLO queued on its DEALER, and libzmq
/// delivers it the moment the conductor binds — which can be before the conductor has set its
/// handlers. That HELLO used to be dropped, and the run then failed after 30 s with "node … did
/// not greet the conductor" (seen with the Python node of `TrellisInteropTests`).
@Suite(.distributedHangGuard)
struct EarlyControlTests {
    @Test("a control message that arrives before the handlers are set is handed to them when they are")
    func helloBeforeHandlers() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = NodeTransport(nodeName: "main", recorder: TraceRecorder(node: "main", storage: .discard))
        // The raw peer sends no heartbeat: a long peer-gone timeout keeps it from being declared
        // gone (and its answer dropped) while this test's task waits its turn on a busy machine.
        var configuration = NodeIOConfiguration(nodeName: "main", bindEndpoint: "ipc://\(directory.path)/main.sock")
        configuration.peerTimeoutMilliseconds = 120_000
        let bound = try await node.start(configuration)

        // The test plays the hand-started node "py": a DEALER into the node's inbox, a ROUTER for its answers.
        let context = try ZMQContext()
        let inbox = try context.socket(.router)
        try inbox.set(ZMQOption.linger, 0)
        try inbox.bind("ipc://\(directory.path)/py.sock")
        let outbound = try rawDealer(in: context, routingID: "py", connectedTo: bound)
        defer {
            outbound.close()
            inbox.close()
            context.terminate()
        }
        await node.connect(peer: "py", endpoint: "ipc://\(directory.path)/py.sock")

        // HELLO, then a CALL: the node answers the CALL (it is not set up) only after it has
        // taken the HELLO, which came first on the same stream — so the HELLO has arrived
        // before any handler was set.
        try outbound.send(WireMessage(.hello(node: "py", runID: "", capabilities: 0)).encode(), dontWait: false)
        try outbound.send(BatchingTests.call(1).encode(), dontWait: false)
        var answered = false
        while !answered {
            var items = [ZMQPollItem(.socket(inbox))]
            try #require(try await pollGivingWay(&items, timeout: .seconds(20)) == 1, "no answer from the node")
            guard var frames = try inbox.receive() else { continue }
            frames.removeFirst()  // the node's routing id
            if let message = try? WireMessage.decode(frames), case .return(.fault) = message.body { answered = true }
        }

        let received = Mutex<[String]>([])
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        await node.setHandlers(call: { _, _ in .ok([]) }, control: { message, peer in
            if case let .hello(name, _, _, _) = message.body { received.withLock { $0.append("\(name) from \(peer)") } }
            continuation.yield()
        }, peerGone: { _, _ in })
        let timeout = Task {
            try? await Task.sleep(for: .seconds(20))
            continuation.finish()
        }
        for await _ in stream where !received.withLock({ $0.isEmpty }) { break }
        timeout.cancel()
        #expect(received.withLock { $0 } == ["py from py"])
        await node.stop()
    }
}
