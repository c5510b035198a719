import Foundation
import TrellisZMTP
import ZeroMQ

/// `TrellisZMTP`'s sockets under a node's I/O loop (`NodeSocketLayer.zmtp`, never with CURVE):
/// the ROUTER bound for inbound traffic and one poll(2) set holding it, the wake-up fd and every
/// DEALER of `PeerWrites`. The thread that waits for a message reads it from the kernel itself,
/// with no libzmq I/O thread between (issue 27 item 6). libzmq's options map as
/// docs/decisions.md's plan says: ROUTER_MANDATORY ↔ `.unknownPeer`, the high-water marks ↔ the
/// receive bound and `NodeIOTuning.zmtpWriteBound`, linger ↔ flushing until a deadline on
/// close, the handshake monitors ↔ the sockets' `lastError`.
final class ZMTPNodeSockets: NodeLoopSockets {
    let router: ZMTPRouter
    private var set = ZMTPPollSet()
    private var wakeUpIndex = -1
    /// Whether a client's handshake failure on the inbox is reported (`watchesPlainInbox`).
    private var watchesInbox: Bool
    /// Failures already reported, by peer ("" the inbox): each once, as `HandshakeWatch` does.
    private var reported: Set<String> = []
    /// The earliest reconnect or handshake deadline of this turn's sockets.
    private(set) var nextDeadline: ContinuousClock.Instant?
    /// Whether the last `service` left a DEALER with messages read and undecoded behind its
    /// bound (`ZMTPDealer.hasUndecodedInput`).
    private var dealersStoppedAtBound = false

    init(configuration: NodeIOConfiguration) throws(ZMQError) {
        do {
            router = try ZMTPRouter(
                binding: configuration.bindEndpoint, writeBound: NodeIOTuning.zmtpWriteBound,
                receiveBound: Self.receiveBound(configuration.highWaterMark), handshakeTimeout: NodeIOTuning.zmtpHandshakeTimeout)
        } catch {
            throw ZMQError("bind \(configuration.bindEndpoint)", code: error.errnoValue)
        }
        watchesInbox = configuration.watchesPlainInbox
    }

    /// The ROUTER's receive bound for a high-water mark: as with libzmq, 0 (or less) is no limit
    /// (the throughput bench asks for it), not a bound of one message.
    static func receiveBound(_ highWaterMark: Int32) -> Int {
        highWaterMark > 0 ? Int(highWaterMark) : Int.max
    }

    /// The endpoint the ROUTER is bound to, any wildcard port resolved.
    var boundEndpoint: String { router.endpoint.description }

    /// Fills this turn's poll set: the wake-up fd, the ROUTER and its connections, every DEALER
    /// (each reads, writes what is queued, or finishes connecting).
    func prepare(wakeUp: Int32, writes: PeerWrites) {
        set.removeAll()
        wakeUpIndex = set.add(fileDescriptor: wakeUp)
        router.register(in: &set)
        var deadline = router.nextDeadline
        for stream in writes.streams.values {
            guard case let .zmtp(dealer) = stream.socket else { continue }
            dealer.register(in: &set)
            if let due = dealer.nextDeadline, deadline.map({ due < $0 }) ?? true { deadline = due }
        }
        nextDeadline = deadline
    }

    /// Waits (zero: looks) until something in the set is ready; how many are.
    @discardableResult
    func poll(timeout: Duration) throws(ZMQError) -> Int {
        do {
            return try set.poll(timeout: timeout)
        } catch {
            throw ZMQError("poll", code: error.errnoValue)
        }
    }

    /// Reads, writes, accepts and reconnects what the last poll found ready or what is due,
    /// drains the wake-up, and reports a handshake that failed because one side uses CURVE.
    func serviceBeforeInbound(io: NodeIO, writes: PeerWrites) {
        if set.isReadable(wakeUpIndex) { io.wakeUp.drain() }
        router.service(set)
        if watchesInbox, case .unsupportedMechanism? = router.lastError { report(nil, io: io) }
        dealersStoppedAtBound = false
        for (peer, stream) in writes.streams {
            guard case let .zmtp(dealer) = stream.socket else { continue }
            dealer.service(set)
            // A node's peers answer on its ROUTER; whatever reaches a DEALER is not looked at.
            while dealer.receive() != nil {}
            if dealer.hasUndecodedInput { dealersStoppedAtBound = true }
            if dealer.connectionsMade == 0, case .unsupportedMechanism? = dealer.lastError { report(peer, io: io) }
        }
    }

    /// Whether inbound messages wait to be taken.
    var inboundReady: Bool { router.waitingMessages > 0 }

    /// Nothing more to do after the inbound messages: `serviceBeforeInbound` did it all.
    func serviceAfterInbound(io: NodeIO) {}

    /// The NULL mechanism authenticates no one.
    var lastAuthenticatedSender: String? { nil }

    /// Whether a DEALER has messages pending.
    func waitsToWrite(_ writes: PeerWrites) -> Bool { writes.anyPending }

    /// Opens the DEALER to `peer`, connecting in the background.
    func connect(
        _ peer: String, endpoint: String, serverKey: String?, writes: inout PeerWrites, configuration: NodeIOConfiguration
    ) throws -> Bool {
        try writes.connectZMTP(peer, endpoint: endpoint, configuration: configuration)
    }

    /// Forgets `peer`'s DEALER (no handshake watch: failures are read from the sockets).
    func abandon(_ peer: String, writes: inout PeerWrites) {
        writes.abandon(peer, handshakes: nil)
    }

    /// Whether the loop must turn again without sleeping: messages wait to be taken, or wait
    /// read and undecoded behind a socket's receive bound — bytes no poll wakes for, which a
    /// loop asleep would hold until the peer sends more (the zmq-throughput stall, after the
    /// sender's last burst; docs/decisions.md "zmtp3").
    var inputWaitsWithoutWaking: Bool { inboundReady || router.hasUndecodedInput || dealersStoppedAtBound }

    /// The next inbound message (the sender's identity first) into `frames`; false when none.
    func receive(into frames: inout [[UInt8]]) -> Bool {
        guard let message = router.receive() else { return false }
        frames = message
        return true
    }

    /// Answers a sender by its identity; dropped if it is not connected (ROUTER_MANDATORY).
    func reply(_ message: [[UInt8]]) {
        _ = router.send(message)
    }

    /// Stops reporting the inbox's handshake failures (`NodeIO.stopWatchingInbox`).
    func stopWatchingInbox() {
        watchesInbox = false
    }

    /// Shutdown: what is queued is written until every DEALER's queue is empty or the linger
    /// deadline passes, then every socket closes.
    func close(writes: PeerWrites, lingerMilliseconds: Int32) {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(max(lingerMilliseconds, 0)))
        while ContinuousClock.now < deadline, Self.hasUnwritten(writes) {
            writes.flushAll { _, _ in }
            prepare(wakeUp: -1, writes: writes)
            _ = try? set.poll(timeout: .milliseconds(10))
            for stream in writes.streams.values {
                if case let .zmtp(dealer) = stream.socket { dealer.service(set) }
            }
        }
        writes.close()
        router.close()
    }

    private static func hasUnwritten(_ writes: PeerWrites) -> Bool {
        writes.streams.values.contains { stream in
            guard case let .zmtp(dealer) = stream.socket else { return false }
            return stream.hasPending || dealer.queuedBytes > 0
        }
    }

    private func report(_ peer: String?, io: NodeIO) {
        guard reported.insert(peer ?? "").inserted else { return }
        io.onEvent(.handshakeFailed(peer: peer, failure: .mechanismMismatch))
    }
}

extension ZMTPError {
    /// The errno closest to the failure, for a `ZMQError` (what `NodeIO.start` reports).
    var errnoValue: Int32 {
        switch self {
        case let .system(_, errno): errno
        case .badEndpoint: EINVAL
        case .badSignature, .unsupportedVersion, .unsupportedMechanism, .badFrameHeader, .frameTooLarge, .messageTooLarge,
            .badCommand, .messageBeforeReady, .incompatibleSocketType, .duplicateIdentity, .peerError, .handshakeTimeout:
            EPROTO
        case .closedByPeer: ECONNRESET
        }
    }
}
