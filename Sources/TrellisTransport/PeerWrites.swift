import TrellisZMTP
import ZeroMQ

/// The outbound side of a node's I/O loop: one DEALER per peer and, for each, the ZeroMQ messages
/// (single messages or BATCHes) its socket has not taken yet. Nothing is dropped: what libzmq
/// refuses (high-water mark reached) waits here, and the loop polls the socket for writability
/// until it is taken (backpressure, SPEC §7).
struct PeerWrites {
    /// A stream's DEALER, of the layer the loop chose at start (`NodeSocketLayer`).
    enum Dealer {
        case libzmq(ZMQSocket)
        case zmtp(ZMTPDealer)
    }

    /// One peer's DEALER and what waits to go out on it.
    final class Stream {
        /// Replaced (ZMTP only) when the stream is redialled.
        var socket: Dealer
        /// Where the socket is connected.
        let endpoint: String
        /// ZeroMQ messages the socket has not taken yet, from `pendingStart` on.
        var pending: [[[UInt8]]] = []
        var pendingStart = 0
        /// Heartbeats go out once the stream is open: after the first message sent on it (a stream
        /// opens with HELLO, TWP/1 §9.1), or once the peer was heard (it then counts our silence).
        var opened = false
        /// The peer's silence counts (it was heard, or sent a message other than HELLO).
        var silenceCounts = false

        init(socket: Dealer, endpoint: String) {
            self.socket = socket
            self.endpoint = endpoint
        }

        var hasPending: Bool { pendingStart < pending.count }

        /// Sends what is queued until the socket would block.
        func flush() throws(ZMQError) {
            while pendingStart < pending.count {
                switch socket {
                case let .libzmq(socket):
                    guard try socket.send(pending[pendingStart], dontWait: true) else { return }
                case let .zmtp(dealer):
                    // Refused past its write bound: kept here, the DEALER polled for writing.
                    guard dealer.send(pending[pendingStart]) else { return }
                }
                pending[pendingStart] = []
                pendingStart += 1
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
    }

    /// The open streams. Which peers are gone — sent nothing more, never connected again within
    /// the run (TWP/1 §9.5 rule 3) — is `Heartbeats`' to say; a gone peer has no stream here.
    private(set) var streams: [String: Stream] = [:]

    subscript(peer: String) -> Stream? { streams[peer] }

    /// Opens the DEALER to `peer` (once: false when it already exists; a gone peer the loop does
    /// not connect, `Heartbeats` saying which are gone). A
    /// DEALER that cannot be set up or connected (a malformed endpoint) is closed, its monitor
    /// stopped, before the error is thrown: a failed connect leaves nothing behind.
    mutating func connect(
        _ peer: String, endpoint: String, serverKey: String?, in context: ZMQContext, configuration: NodeIOConfiguration,
        handshakes: HandshakeWatch?
    ) throws(ZMQError) -> Bool {
        guard streams[peer] == nil else { return false }
        let dealer = try context.socket(.dealer)
        do {
            try dealer.set(ZMQOption.linger, configuration.lingerMilliseconds)
            try dealer.set(ZMQOption.sendHighWaterMark, configuration.highWaterMark)
            try dealer.set(ZMQOption.receiveHighWaterMark, configuration.highWaterMark)
            try dealer.set(ZMQOption.routingID, text: configuration.nodeName)
            if let curve = configuration.curve, let serverKey {
                try dealer.set(ZMQOption.curveServerKey, text: serverKey)
                try dealer.set(ZMQOption.curvePublicKey, text: curve.publicKey)
                try dealer.set(ZMQOption.curveSecretKey, text: curve.secretKey)
            }
            handshakes?.watch(dealer, peer: peer)
            try dealer.connect(endpoint)
        } catch {
            handshakes?.unwatch(dealer)
            // Nothing was sent on it: closing at once drops nothing.
            try? dealer.set(ZMQOption.linger, 0)
            dealer.close()
            throw error
        }
        streams[peer] = Stream(socket: .libzmq(dealer), endpoint: endpoint)
        return true
    }

    /// Opens `TrellisZMTP`'s DEALER to `peer` (once), named as libzmq's is (its Identity is the
    /// node's name); it connects, and reconnects after a failure, by itself.
    mutating func connectZMTP(_ peer: String, endpoint: String, configuration: NodeIOConfiguration) throws(ZMTPError) -> Bool {
        guard streams[peer] == nil else { return false }
        let dealer = try ZMTPDealer(
            connectingTo: endpoint, identity: Array(configuration.nodeName.utf8), writeBound: NodeIOTuning.zmtpWriteBound,
            handshakeTimeout: NodeIOTuning.zmtpHandshakeTimeout)
        streams[peer] = Stream(socket: .zmtp(dealer), endpoint: endpoint)
        return true
    }

    /// Connects `peer`'s DEALER afresh: a new connection and handshake. libzmq makes no new
    /// attempt by itself after a handshake that failed on a protocol error (a CURVE mechanism
    /// mismatch); this one lets the peer see that error on its side too.
    func redial(_ peer: String) throws(ZMQError) {
        guard let stream = streams[peer] else { return }
        switch stream.socket {
        case let .libzmq(socket):
            try socket.disconnect(stream.endpoint)
            try socket.connect(stream.endpoint)
        case let .zmtp(dealer):
            // A new DEALER: a new connection and handshake, and its failures watched afresh.
            dealer.close()
            do {
                stream.socket = .zmtp(
                    try ZMTPDealer(
                        connectingTo: stream.endpoint, identity: dealer.identity, writeBound: dealer.writeBound,
                        handshakeTimeout: dealer.handshakeTimeout))
            } catch {
                throw ZMQError("redial", code: error.errnoValue)
            }
        }
    }

    /// `peer` was heard for the first time (or before its DEALER was opened): it counts our
    /// silence from now on, so our stream to it opens, with heartbeats (§9.5).
    func peerIsHeard(_ peer: String) {
        guard let stream = streams[peer] else { return }
        stream.opened = true
        stream.silenceCounts = true
    }

    /// Adds the sockets with something pending to `items`, to be polled for writability.
    func addWaiting(to items: inout ZMQPollSet) {
        for stream in streams.values where stream.hasPending {
            guard case let .libzmq(socket) = stream.socket else { continue }
            items.append(ZMQPollItem(.socket(socket), wantsWritable: true))
        }
    }

    /// Whether a message waits on some stream (ZMTP: the loop then flushes after servicing).
    var anyPending: Bool { streams.values.contains { $0.hasPending } }

    /// Sends what is pending on every stream until each socket would block; `failed` hears of
    /// each socket that fails.
    func flushAll(_ failed: (_ peer: String, ZMQError) -> Void) {
        for (peer, stream) in streams where stream.hasPending {
            do {
                try stream.flush()
            } catch {
                failed(peer, error)
            }
        }
    }

    /// Queues one heartbeat on each open stream of a peer not gone — unless something is already
    /// waiting there, which shows life as well — and sends.
    func beat(_ heartbeat: [[UInt8]]) {
        guard !heartbeat.isEmpty else { return }
        for stream in streams.values where stream.opened {
            if !stream.hasPending { stream.pending.append(heartbeat) }
            try? stream.flush()
        }
    }

    /// A gone peer is sent nothing more (TWP/1 §9.5 rule 3): what waits for it is dropped, its
    /// socket closes at once (no linger: it must not hold up the end of the run), its handshake
    /// is watched no more, and its stream is forgotten (that it is gone, `Heartbeats` keeps).
    /// Returns how many messages were dropped.
    @discardableResult
    mutating func abandon(_ peer: String, handshakes: HandshakeWatch?) -> Int {
        guard let stream = streams.removeValue(forKey: peer) else { return 0 }
        let dropped = stream.pending.count - stream.pendingStart
        stream.pending.removeAll()
        stream.pendingStart = 0
        switch stream.socket {
        case let .libzmq(socket):
            handshakes?.unwatch(socket)
            try? socket.set(ZMQOption.linger, 0)
            socket.close()
        case let .zmtp(dealer):
            dealer.close()
        }
        return dropped
    }

    /// Shutdown: whatever is still queued gets one last chance, then every socket closes with its
    /// bounded linger.
    func close() {
        for stream in streams.values { try? stream.flush() }
        for stream in streams.values {
            switch stream.socket {
            case let .libzmq(socket): socket.close()
            case let .zmtp(dealer): dealer.close()
            }
        }
    }
}
