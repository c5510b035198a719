/// A ROUTER that listens on one endpoint and speaks ZMTP itself: every message received is
/// prefixed with the identity of the peer that sent it, and a message sent goes to the peer its
/// first frame names, as libzmq's ROUTER does. A peer's identity is the Identity its READY gave,
/// or one made up here (a zero byte and a counter, libzmq's shape) when it gave none; a second
/// peer claiming an identity already connected is refused (libzmq without ROUTER_HANDOVER).
/// One thread owns it and drives it with `register` / `poll` / `service`; nothing in it blocks.
public final class ZMTPRouter {
    /// What `send` did with a message.
    public enum SendResult: Equatable, Sendable {
        case queued
        /// The peer's queue is over `writeBound`: keep the message and try again.
        case full
        /// No connected peer has that identity (libzmq drops such a message silently).
        case unknownPeer
    }

    /// Where it listens (the port the system picked, for `tcp://…:*`).
    public let endpoint: ZMTPEndpoint
    /// The identity its READY gives.
    public let identity: [UInt8]
    /// What a peer may send at most.
    public let limits: ZMTPLimits
    /// The most bytes queued for one peer before `send` answers `.full`.
    public let writeBound: Int
    /// The most received messages kept untaken: past it the ROUTER reads no more (libzmq's
    /// receive high-water mark, 1000 by default), and the peers' kernel buffers fill instead.
    public let receiveBound: Int
    /// How long a peer may take over each step of its handshake (its signature and version, the rest of
    /// its greeting, its READY), from its step before: a step waiting in the socket when this
    /// ROUTER is served late counts as made in time.
    public let handshakeTimeout: Duration

    private let listener: Int32
    private var listenIndex = -1
    private var connections: [ZMTPConnection] = []
    private var peers: [[UInt8]: ZMTPConnection] = [:]
    private var identities: [ObjectIdentifier: [UInt8]] = [:]
    private var inbox = ZMTPMessageQueue()
    private var nextMadeUpIdentity: UInt32 = 1
    private let clock = ContinuousClock()
    private var closed = false
    /// Why the last connection ended (nil while none has).
    public private(set) var lastError: ZMTPError?
    /// Whether the last `service` left bytes read from the kernel undecoded because the inbox
    /// reached `receiveBound`: see `hasUndecodedInput`.
    private var stoppedAtBound = false

    /// A ROUTER listening on `endpoint` (`tcp://127.0.0.1:*` picks a port: see `endpoint`).
    public init(
        binding endpoint: String, identity: [UInt8] = [], limits: ZMTPLimits = .standard, writeBound: Int = 1 << 20,
        receiveBound: Int = 1000, handshakeTimeout: Duration = .seconds(5)
    ) throws(ZMTPError) {
        let (listener, bound) = try ZMTPSystem.listening(on: try ZMTPEndpoint(endpoint))
        self.listener = listener
        self.endpoint = bound
        self.identity = identity
        self.limits = limits
        self.writeBound = writeBound
        self.receiveBound = max(receiveBound, 1)
        self.handshakeTimeout = handshakeTimeout
    }

    deinit {
        close()
    }

    /// The identities of the peers whose handshake is done.
    public var connectedPeers: [[UInt8]] { Array(peers.keys) }

    /// The next message received, its first frame the sender's identity.
    public func receive() -> [[UInt8]]? {
        inbox.popFirst()
    }

    /// Messages received and not yet taken (at most `receiveBound`).
    public var waitingMessages: Int { inbox.count }

    /// Whether messages may wait, already read from the kernel, behind a full inbox: their
    /// descriptor will not wake a poll for them (the bytes left the socket), so once the inbox
    /// has room the owner must `service` again without waiting. An owner that sleeps in poll
    /// instead holds them until the peer sends more — forever, after a peer's last burst (the
    /// zmq-throughput stall, docs/decisions.md "zmtp3").
    public var hasUndecodedInput: Bool { stoppedAtBound }

    /// Sends `message`'s frames after the first to the peer the first names.
    public func send(_ message: [[UInt8]]) -> SendResult {
        guard let first = message.first else { return .unknownPeer }
        return send(to: first, Array(message.dropFirst()))
    }

    /// Sends `parts` to the peer `identity` names, writing what it can at once.
    public func send(to identity: [UInt8], _ parts: [[UInt8]]) -> SendResult {
        guard let connection = peers[identity] else { return .unknownPeer }
        let queued = connection.queuedBytes
        guard queued == 0 || queued + ZMTPFrame.encodedSize(of: parts) <= writeBound else { return .full }
        connection.enqueue(parts)
        if !connection.flush() { drop(connection, .closedByPeer) }
        return .queued
    }

    /// The earliest handshake deadline of a connection still shaking hands (a deadline moves on
    /// with each step its peer makes).
    public var nextDeadline: ContinuousClock.Instant? {
        connections.lazy.filter { $0.peer == nil }.map(\.handshakeDeadline).min()
    }

    /// Adds the listening socket and every connection to this turn's set.
    public func register(in set: inout ZMTPPollSet) {
        guard !closed else { return }
        listenIndex = set.add(fileDescriptor: listener)
        for connection in connections {
            connection.pollIndex = set.add(fileDescriptor: connection.fd, readable: inbox.count < receiveBound, writable: connection.wantsWrite)
        }
    }

    /// Does what the last poll found ready, and what is due: new connections, reads, writes,
    /// handshakes that took too long.
    public func service(_ set: ZMTPPollSet) {
        guard !closed else { return }
        let now = clock.now
        stoppedAtBound = false
        for connection in connections where connection.pollIndex >= 0 {
            serve(connection, set, now)
        }
        for connection in connections where connection.handshakeExpired(at: now) {
            drop(connection, .handshakeTimeout)
        }
        if set.isReadable(listenIndex) { acceptWaiting(now) }
    }

    /// Stops listening and closes every connection (an ipc path is removed).
    public func close() {
        guard !closed else { return }
        closed = true
        for connection in connections { connection.close() }
        connections.removeAll()
        peers.removeAll()
        identities.removeAll()
        ZMTPSystem.closeDescriptor(listener)
        if case .ipc(let path) = endpoint { ZMTPSystem.removeFile(path) }
    }

    /// Reads, decodes what was read (also what a full inbox left waiting), writes. A peer that
    /// closed after its last messages still has them delivered.
    private func serve(_ connection: ZMTPConnection, _ set: ZMTPPollSet, _ now: ContinuousClock.Instant) {
        let closed = set.isReadable(connection.pollIndex) && connection.read() == .closed
        do {
            if let peer = try connection.advanceHandshake(at: now) { try admit(connection, peer) }
            if let identity = identities[ObjectIdentifier(connection)] {
                while inbox.count < receiveBound, let message = try connection.nextMessage() { inbox.append([identity] + message) }
                if inbox.count >= receiveBound, connection.hasBufferedInput { stoppedAtBound = true }
            }
        } catch {
            return drop(connection, error)
        }
        if closed || !connection.flush() { drop(connection, .closedByPeer) }
    }

    /// Gives a peer whose handshake is done its identity, or refuses it.
    private func admit(_ connection: ZMTPConnection, _ peer: ZMTPHandshake.Peer) throws(ZMTPError) {
        var identity = peer.identity
        if identity.isEmpty {
            let number = nextMadeUpIdentity
            nextMadeUpIdentity &+= 1
            identity = [0, UInt8(number >> 24), UInt8(number >> 16 & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number & 0xFF)]
        }
        guard peers[identity] == nil else { throw .duplicateIdentity }
        peers[identity] = connection
        identities[ObjectIdentifier(connection)] = identity
    }

    private func acceptWaiting(_ now: ContinuousClock.Instant) {
        let isTCP: Bool
        switch endpoint {
        case .tcp: isTCP = true
        case .ipc: isTCP = false
        }
        // A bounded number a turn: a flood of connections cannot starve the connected peers.
        for _ in 0..<64 {
            guard let fd = ZMTPSystem.acceptOne(from: listener, tcp: isTCP) else { return }
            let connection = ZMTPConnection(
                fd: fd, handshake: ZMTPHandshake(socketType: .router, identity: identity), limits: limits,
                connecting: false, handshakeTimeout: handshakeTimeout, now: now)
            connections.append(connection)
            if !connection.flush() { drop(connection, .closedByPeer) }
        }
    }

    private func drop(_ connection: ZMTPConnection, _ error: ZMTPError) {
        connection.close()
        connection.pollIndex = -1
        lastError = error
        connections.removeAll { $0 === connection }
        if let identity = identities.removeValue(forKey: ObjectIdentifier(connection)) { peers[identity] = nil }
    }
}
