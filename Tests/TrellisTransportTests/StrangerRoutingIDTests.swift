import Foundation
import Testing
import TrellisTrace
import TrellisTransport
import TrellisWire
import ZeroMQ
import TrellisTestSupport

/// Strangers whose routing ids are not node names — libzmq's generated ids (a zero octet and
/// four more), or octets that are not UTF-8 — each get their own answer, and none can pass for
/// another (issue 16).
@Suite(.distributedHangGuard)
struct StrangerRoutingIDTests {
    @Test func aNodeNameIsItsOwnRoutingID() {
        #expect(PeerName.of(routingID: Array("main".utf8)) == "main")
        #expect(PeerName.routingID(of: "main") == Array("main".utf8))
        #expect(PeerName.of(routingID: Array("größe".utf8)) == "größe")
    }

    @Test func otherIDsAreNamedOneToOneAndTurnBack() {
        let ids: [[UInt8]] = [
            [0, 0x6b, 0x8b, 0x45, 0x67], [0, 0x6b, 0x8b, 0x45, 0x68],  // libzmq's generated ids
            [0xff, 0xfe], [0xff, 0xfd], [0x61, 0xc3],  // not UTF-8
            [0, 0x61],  // UTF-8, but starting with the zero octet no node name has
        ]
        let names = ids.map(PeerName.of(routingID:))
        #expect(Set(names).count == ids.count)
        for (id, name) in zip(ids, names) {
            #expect(name.utf8.first == 0, "\(name.debugDescription) could be a node's name")
            #expect(PeerName.routingID(of: name) == id)
        }
        #expect(PeerName.readable(names[0]) == "routing id 0x006b8b4567")
        #expect(PeerName.readable("main") == "main")
    }

    /// Three strangers without node names send a node garbage; each gets its own ERROR back on
    /// its own socket. (Decoded with replacement characters, the ids came back wrong and the
    /// answers were dropped.)
    @Test func eachStrangerGetsItsOwnAnswer() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trellis-ids-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = NodeTransport(nodeName: "node", recorder: TraceRecorder(node: "node", runID: "ids"))
        var configuration = NodeIOConfiguration(nodeName: "node", bindEndpoint: "ipc://\(directory.path)/node.sock")
        configuration.peerTimeoutMilliseconds = 120_000
        let bound = try await node.start(configuration)
        await node.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
        let context = try ZMQContext()
        var strangers: [ZMQSocket] = []
        for routingID in [nil, nil, [0xff, 0xfe, 0x01] as [UInt8]] {
            let socket = try context.socket(.dealer)
            try socket.set(ZMQOption.linger, 0)
            if let routingID { try socket.set(ZMQOption.routingID, bytes: routingID) }
            try socket.connect(bound)
            strangers.append(socket)
        }
        for (index, stranger) in strangers.enumerated() {
            var frame = WireMessage(.heartbeat, correlationID: UInt64(100 + index)).encode()
            frame[0][4] = 0x77  // an unknown command
            try stranger.send(frame, dontWait: false)
        }
        for (index, stranger) in strangers.enumerated() {
            let answer = try await Self.nextMessage(on: stranger)
            #expect(answer?.header.correlationID == UInt64(100 + index), "stranger \(index) got \(String(describing: answer))")
            if case .error? = answer?.body {} else { Issue.record("stranger \(index) expected an ERROR, got \(String(describing: answer))") }
        }
        #expect(await node.malformedCount == strangers.count)
        await node.stop()
        for stranger in strangers { stranger.close() }
        context.terminate()
    }

    /// The next message on a DEALER that is not a heartbeat (at most 20 s).
    static func nextMessage(on socket: ZMQSocket) async throws -> WireMessage? {
        // A hang guard, not a timing check: with the whole suite's tests sharing two cores the
        // node's actors waited over 20 s for a thread of the pool.
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            var items = [ZMQPollItem(.socket(socket))]
            // Short polls that give way between them: the node's actor needs a thread to answer.
            guard try ZMQPoll.poll(&items, timeoutMilliseconds: 20) == 1, let frames = try socket.receive() else {
                await Task.yield()
                continue
            }
            var found: WireMessage?
            WireBatch.decodeEach(frames) { result in
                if case let .success(message) = result, message.body != .heartbeat, found == nil { found = message }
            }
            if let found { return found }
        }
        return nil
    }
}
