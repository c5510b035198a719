import Foundation
import Synchronization
import Testing
@testable import TrellisTransport
import ZeroMQ
import TrellisTestSupport

/// Issue 16 review: what a node makes on a path that fails — a start whose bind fails, a
/// connect to a malformed endpoint, a peer abandoned as gone — is released then, not at the end
/// of the process. Each is repeated often enough that a leak of one file descriptor per try
/// stands far above what the tests running alongside open and close meanwhile. One at a time:
/// each holds hundreds of sockets for a moment, which would blur the others' counts.
@Suite(.serialized, .distributedHangGuard)
struct ReleaseOnFailureTests {
    /// How many file descriptors the tests running alongside may hold more at the end than at
    /// the start; a leak of one per try is hundreds.
    static let slack = 64

    /// The open file descriptors of this process.
    static func openFileDescriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }

    /// Waits (bounded) until at most `limit` file descriptors are open — libzmq closes a socket's
    /// own descriptors on its reaper thread, shortly after `zmq_close` — and returns the count.
    static func openFileDescriptors(fallingTo limit: Int, within bound: Duration = .seconds(10)) async -> Int {
        let deadline = ContinuousClock.now.advanced(by: bound)
        var count = openFileDescriptors()
        while count > limit, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            count = openFileDescriptors()
        }
        return count
    }

    /// Counts the `failed` events a node reports.
    final class Failures: Sendable {
        private let texts = Mutex<[String]>([])

        func add(_ event: NodeIOEvent) {
            if case let .failed(text) = event { texts.withLock { $0.append(text) } }
        }

        var all: [String] { texts.withLock { $0 } }

        /// Waits (bounded) until `count` failures were reported.
        func wait(for count: Int, within bound: Duration = .seconds(30)) async -> [String] {
            let deadline = ContinuousClock.now.advanced(by: bound)
            while all.count < count, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return all
        }
    }

    /// One start of a node bound to `endpoint`, which is in use: the error it fails with, nil if
    /// it started (then it is stopped).
    static func failingStart(at endpoint: String, curve: CurveConfiguration?) async -> ZMQError? {
        var configuration = NodeIOConfiguration(nodeName: "late", bindEndpoint: endpoint)
        configuration.curve = curve
        do {
            let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
            await io.stop()
            return nil
        } catch {
            return error
        }
    }

    @Test("200 starts that cannot bind (the endpoint is in use), with CURVE and without, leave no file descriptor behind")
    func failedStartsReleaseTheirContext() async throws {
        // The endpoint is held by a socket of a context of its own.
        let holder = try ZMQContext()
        let socket = try holder.socket(.router)
        defer {
            socket.close()
            holder.terminate()
        }
        try socket.set(ZMQOption.linger, 0)
        try socket.bind("tcp://127.0.0.1:*")
        let endpoint = socket.lastEndpoint
        let pair = try ZMQContext.curveKeyPair()
        let curve = CurveConfiguration(publicKey: pair.publicKey, secretKey: pair.secretKey, allowedPeers: [:])
        // A first failure of each kind makes whatever is made once per process.
        #expect(await Self.failingStart(at: endpoint, curve: nil) != nil)
        #expect(await Self.failingStart(at: endpoint, curve: curve) != nil)
        let before = Self.openFileDescriptors()
        for attempt in 0..<200 {
            guard await Self.failingStart(at: endpoint, curve: attempt % 2 == 0 ? nil : curve) != nil else {
                Issue.record("a node started on an endpoint in use")
                return
            }
        }
        let after = await Self.openFileDescriptors(fallingTo: before + Self.slack)
        #expect(after <= before + Self.slack, "open file descriptors went from \(before) to \(after) over 200 failed starts")
    }

    @Test("200 connects to malformed endpoints each fail, and leave no socket or monitor behind")
    func failedConnectsReleaseTheirDealer() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let failures = Failures()
        var configuration = IOThreadExecutorTests.configuration("connecting", in: directory)
        // With CURVE, each DEALER is watched by a monitor too: both must go.
        let pair = try ZMQContext.curveKeyPair()
        configuration.curve = CurveConfiguration(publicKey: pair.publicKey, secretKey: pair.secretKey, allowedPeers: [:])
        let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, _ in }, onEvent: failures.add)
        io.connect(peer: "first", endpoint: "tcp://127.0.0.1:not-a-port", serverKey: pair.publicKey)
        #expect(await failures.wait(for: 1).count == 1)
        let before = Self.openFileDescriptors()
        for attempt in 0..<200 {
            io.connect(peer: "p\(attempt)", endpoint: "tcp://127.0.0.1:not-a-port", serverKey: pair.publicKey)
        }
        let reported = await failures.wait(for: 201)
        #expect(reported.count == 201)
        #expect(reported.last?.hasPrefix("connect to p199 at tcp://127.0.0.1:not-a-port") == true, "\(reported.last ?? "")")
        let after = await Self.openFileDescriptors(fallingTo: before + Self.slack)
        await io.stop()
        #expect(after <= before + Self.slack, "open file descriptors went from \(before) to \(after) over 200 failed connects")
    }

    @Test("an abandoned peer's socket is closed, its monitor stopped and its stream dropped")
    func abandonedPeersAreReleased() async throws {
        let context = try ZMQContext()
        let handshakes = HandshakeWatch(context: context)
        var writes = PeerWrites()
        let configuration = NodeIOConfiguration(nodeName: "a", bindEndpoint: "tcp://127.0.0.1:*")
        // Nobody listens there: the DEALERs keep trying, and are never heard.
        let nowhere = "tcp://127.0.0.1:1"
        #expect(try writes.connect("warm-up", endpoint: nowhere, serverKey: nil, in: context, configuration: configuration, handshakes: handshakes))
        writes.abandon("warm-up", handshakes: handshakes)
        let before = Self.openFileDescriptors()
        for index in 0..<300 {
            let peer = "p\(index)"
            #expect(try writes.connect(peer, endpoint: nowhere, serverKey: nil, in: context, configuration: configuration, handshakes: handshakes))
            writes[peer]?.pending.append([[1, 2, 3]])
            #expect(writes.abandon(peer, handshakes: handshakes) == 1)
        }
        #expect(writes.streams.isEmpty, "\(writes.streams.count) abandoned streams are kept")
        #expect(writes["p0"] == nil)
        // That they are gone, and are not connected again within the run (TWP/1 §9.5 rule 3), is
        // `Heartbeats`' to keep (HeartbeatsTests), not a second record here.
        var items = ZMQPollSet()
        handshakes.addPollItems(to: &items)
        #expect(items.count == 0, "the monitors of abandoned streams are still polled")
        let after = await Self.openFileDescriptors(fallingTo: before + Self.slack)
        writes.close()
        handshakes.close()
        context.terminate()
        #expect(after <= before + Self.slack, "open file descriptors went from \(before) to \(after) over 300 abandoned peers")
    }
}
