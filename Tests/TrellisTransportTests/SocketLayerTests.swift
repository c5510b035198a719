import Foundation
import Synchronization
import Testing
import TrellisTransport
import TrellisWire
import ZeroMQ
import TrellisTestSupport

/// issue 27 item 6: a node's I/O over either socket layer (`NodeSocketLayer`), and across them —
/// libzmq's sockets and `TrellisZMTP`'s speak the same wire. The other transport tests run over
/// whichever layer `TRELLIS_SOCKET_LAYER` names (docs/decisions.md).
@Suite(.distributedHangGuard)
struct SocketLayerTests {
    /// What a node's I/O reported, and a wait for the first event that matches.
    final class Events: Sendable {
        private struct State {
            var events: [NodeIOEvent] = []
            var waiters: [(match: @Sendable (NodeIOEvent) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        }

        private let state = Mutex(State())

        func take(_ event: NodeIOEvent) {
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.events.append(event)
                let ready = state.waiters.filter { $0.match(event) }.map(\.continuation)
                state.waiters.removeAll { $0.match(event) }
                return ready
            }
            for continuation in ready { continuation.resume() }
        }

        func wait(for match: @escaping @Sendable (NodeIOEvent) -> Bool) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let seen = state.withLock { state -> Bool in
                    if state.events.contains(where: match) { return true }
                    state.waiters.append((match, continuation))
                    return false
                }
                if seen { continuation.resume() }
            }
        }
    }

    static func configuration(_ name: String, in directory: URL, layer: NodeSocketLayer) -> NodeIOConfiguration {
        var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: "ipc://\(directory.path)/\(name).sock")
        configuration.socketLayer = layer
        return configuration
    }

    @Test("ZMTP speaks only NULL: a node with CURVE keys stays on libzmq whatever was asked")
    func curveKeepsLibzmq() {
        var configuration = NodeIOConfiguration(nodeName: "a", bindEndpoint: "ipc:///tmp/unused.sock")
        configuration.socketLayer = .zmtp
        #expect(configuration.effectiveSocketLayer == .zmtp)
        configuration.socketLayer = .libzmq
        #expect(configuration.effectiveSocketLayer == .libzmq)
        configuration.socketLayer = .zmtp
        configuration.curve = CurveConfiguration(publicKey: "P", secretKey: "S", allowedPeers: [:])
        #expect(configuration.effectiveSocketLayer == .libzmq)
    }

    @Test(
        "thousands of messages in a burst arrive complete and in order, on either layer and across them",
        arguments: NodeSocketLayer.allCases, NodeSocketLayer.allCases)
    func burstArrivesInOrder(sender senderLayer: NodeSocketLayer, receiver receiverLayer: NodeSocketLayer) async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = BatchingTests.Received()
        let receiver = try await NodeIO.start(
            Self.configuration("receiver", in: directory, layer: receiverLayer), heartbeat: [],
            onMessage: { _, frames in received.take(frames) }, onEvent: { _ in })
        let sender = try await NodeIO.start(
            Self.configuration("sender", in: directory, layer: senderLayer), heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
        await BatchingTests.expectBurst(of: 20_000, from: sender, to: receiver, into: received)
    }

    @Test(
        "a burst larger than the receiver's inbound bound arrives whole though nothing wakes the receiver after it",
        arguments: NodeSocketLayer.allCases)
    func burstPastTheInboundBoundArrivesWhole(receiver receiverLayer: NodeSocketLayer) async throws {
        // The zmq-throughput stall (docs/decisions.md "zmtp3"): the ZMTP ROUTER reads up to
        // 256 KiB a turn but decodes only up to its bound; the rest, out of the kernel, made no
        // poll wake, and the loop — heartbeats off, as in the bench — slept with the end of the
        // burst in its buffer. The sender is libzmq's, which stops after its last message.
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = BatchingTests.Received()
        var receiverConfiguration = Self.configuration("receiver", in: directory, layer: receiverLayer)
        receiverConfiguration.highWaterMark = 10
        receiverConfiguration.batching = false
        let receiver = try await NodeIO.start(
            receiverConfiguration, heartbeat: [], onMessage: { _, frames in received.take(frames) }, onEvent: { _ in })
        var senderConfiguration = Self.configuration("sender", in: directory, layer: .libzmq)
        senderConfiguration.batching = false
        let sender = try await NodeIO.start(senderConfiguration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
        await BatchingTests.expectBurst(of: 5_000, from: sender, to: receiver, into: received)
    }

    @Test("a node on ZMTP names CURVE on one side only, on its inbox and on its stream, as libzmq's monitor does")
    func zmtpNamesAMechanismMismatch() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plainEvents = Events()
        var plainConfiguration = Self.configuration("plain", in: directory, layer: .zmtp)
        plainConfiguration.watchesPlainInbox = true
        let plain = try await NodeIO.start(plainConfiguration, heartbeat: [], onMessage: { _, _ in }, onEvent: plainEvents.take)
        let keys = try ZMQContext.curveKeyPair()
        var curveConfiguration = Self.configuration("curve", in: directory, layer: .zmtp)
        curveConfiguration.curve = CurveConfiguration(publicKey: keys.publicKey, secretKey: keys.secretKey, allowedPeers: [:])
        let curve = try await NodeIO.start(curveConfiguration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
        // The CURVE node's DEALER greets the plain inbox with CURVE; the plain node's DEALER
        // greets the CURVE inbox with NULL.
        curve.connect(peer: "plain", endpoint: plain.boundEndpoint, serverKey: keys.publicKey)
        plain.connect(peer: "curve", endpoint: curve.boundEndpoint)
        await plainEvents.wait { $0 == .handshakeFailed(peer: nil, failure: .mechanismMismatch) }
        await plainEvents.wait { $0 == .handshakeFailed(peer: "curve", failure: .mechanismMismatch) }
        await curve.stop()
        await plain.stop()
    }
}
