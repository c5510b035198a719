import Foundation
import Testing
import TrellisTestSupport
import TrellisTrace
import TrellisDistributed
import TrellisTransport
import TrellisWire
import ZeroMQ

/// SPEC §7 (issue 16): garbage costs a node bounded memory, and an answer that cannot be read
/// still ends the call it answers.
@Suite(.distributedHangGuard)
struct GarbageTests {
    /// A node and a raw peer "raw": a DEALER into the node's inbox, a ROUTER the node answers to.
    struct Stage {
        let directory: URL
        let recorder = TraceRecorder(node: "node", runID: "garbage")
        let node: NodeTransport
        let context: ZMQContext
        let inbox: ZMQSocket
        let outbound: ZMQSocket

        init() async throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("trellis-garbage-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            node = NodeTransport(nodeName: "node", recorder: recorder)
            var configuration = NodeIOConfiguration(nodeName: "node", bindEndpoint: "ipc://\(directory.path)/node.sock")
            // The raw peer sends no heartbeats: on a loaded machine the default 2 s would declare
            // it gone before the test is done with it.
            configuration.peerTimeoutMilliseconds = 120_000
            let bound = try await node.start(configuration)
            await node.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
            context = try ZMQContext()
            inbox = try context.socket(.router)
            try inbox.set(ZMQOption.linger, 0)
            try inbox.bind("ipc://\(directory.path)/raw.sock")
            outbound = try rawDealer(in: context, routingID: "raw", connectedTo: bound)
            await node.connect(peer: "raw", endpoint: "ipc://\(directory.path)/raw.sock")
        }

        /// The next message the node sends the raw peer that is not a heartbeat (bounded wait).
        func nextFromNode(timeoutMilliseconds: Int = 20_000) async throws -> WireMessage? {
            while true {
                var items = [ZMQPollItem(.socket(inbox))]
                guard try await pollGivingWay(&items, timeout: .milliseconds(timeoutMilliseconds)) == 1, var frames = try inbox.receive() else { return nil }
                frames.removeFirst()  // the node's routing id
                var found: WireMessage?
                WireBatch.decodeEach(frames) { result in
                    if case let .success(message) = result, message.body != .heartbeat, found == nil { found = message }
                }
                if let found { return found }
            }
        }

        func close() async {
            await node.stop()
            outbound.close()
            inbox.close()
            context.terminate()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Every garbage frame is answered and counted, but only the first 16 and then one at each
    /// power of two are traced: 2,000 frames leave 16 + 6 fault events (at 32, 64, … 1024), not 2,000.
    @Test func aFloodOfGarbageKeepsTheTraceBounded() async throws {
        let stage = try await Stage()
        let flood = 2_000
        for index in 0..<flood {
            var frame = WireMessage(.heartbeat, correlationID: UInt64(index + 1)).encode()
            frame[0][4] = 0x77  // an unknown command
            try stage.outbound.send(frame, dontWait: false)
        }
        var errors = 0
        while errors < flood, let message = try await stage.nextFromNode() {
            if case .error = message.body { errors += 1 }
        }
        #expect(errors == flood)
        #expect(await stage.node.malformedCount == flood)
        let faults = stage.recorder.events.filter { if case .fault = $0.message { return true } else { return false } }
        #expect(faults.count == NodeTransport.tracedRejections + 6)
        #expect(faults.last?.canonicalLine.contains("1024 malformed messages so far") == true)
        await stage.close()
    }

    /// A RETURN whose body cannot be read ends the call it answers with a fault naming why,
    /// instead of leaving the caller waiting for an answer that never comes.
    @Test func anUnreadableReturnEndsItsCall() async throws {
        let stage = try await Stage()
        let node = stage.node
        let call = Task {
            await node.call(peer: "raw", target: WireAddress(node: "raw", controller: "A", incarnation: 1), code: .snapshot, arguments: [])
        }
        // The call's task must get a thread to send the CALL: wait in short polls and give way
        // between them (at most 20 s in all), rather than hold a thread in one long poll.
        var received: WireMessage?
        for _ in 0..<400 where received == nil {
            received = try await stage.nextFromNode(timeoutMilliseconds: 50)
            await Task.yield()
        }
        let request = try #require(received)
        guard case .call = request.body else {
            Issue.record("expected the CALL, got \(request.body)")
            await stage.close()
            return
        }
        var answer = WireMessage(.return(.ok([.string("a long enough answer")])), correlationID: request.header.correlationID).encode()
        answer[1].removeLast(4)  // the string's length now claims more than the body holds
        try stage.outbound.send(answer, dontWait: false)
        let result = await call.value
        guard case let .fault(text) = result else {
            Issue.record("expected a fault, got \(result)")
            await stage.close()
            return
        }
        #expect(text.hasPrefix("the answer from raw could not be read"))
        await stage.close()
    }
}
