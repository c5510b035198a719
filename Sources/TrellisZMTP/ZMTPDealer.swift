/// A DEALER that connects to one endpoint and speaks ZMTP itself: messages out in order, messages
/// in in order, and a new connection whenever the peer goes away (after `reconnectInterval`),
/// as libzmq's DEALER does. One thread owns it and drives it with `register` / `poll` /
/// `service`; nothing in it blocks.
///
/// Messages sent while no connection is up wait (within `writeBound`) for the next one; bytes
/// already handed to a connection that fails are lost with it, as with libzmq.
public final class ZMTPDealer {
    /// Where it connects.
    public let endpoint: ZMTPEndpoint
    /// The identity its READY gives (a ROUTER addresses it by it).
    public let identity: [UInt8]
    /// What the peer may send at most.
    public let limits: ZMTPLimits
    /// The most bytes queued before `send` refuses (a message is always accepted into an empty
    /// queue, whatever its size).
    public let writeBound: Int
    /// The most received messages kept untaken: past it the DEALER reads no more (libzmq's
    /// receive high-water mark, 1000 by default), and the peer's kernel buffer fills instead.
    public let receiveBound: Int
    /// How long after a failed or lost connection the next is tried.
    public let reconnectInterval: Duration
    /// How long the peer may take over each step of the handshake (the connection made, its
    /// signature and version, the rest of its greeting, its READY), from its step before: a step waiting in
    /// the socket when this DEALER is served late counts as made in time.
    public let handshakeTimeout: Duration

    private var connection: ZMTPConnection?
    /// Messages sent while no connection is up, as given.
    private var waiting: [[[UInt8]]] = []
    private var waitingBytes = 0
    private var inbox = ZMTPMessageQueue()
    private var reconnectAt: ContinuousClock.Instant?
    private let clock = ContinuousClock()
    /// Why the last connection ended (nil while none has).
    public private(set) var lastError: ZMTPError?
    /// How many connections were made (handshake done) so far.
    public private(set) var connectionsMade = 0
    /// Whether the last `service` left bytes read from the kernel undecoded because the inbox
    /// reached `receiveBound`: see `hasUndecodedInput`.
    private var stoppedAtBound = false

    /// A DEALER that starts connecting at once (and again after every failure).
    public init(
        connectingTo endpoint: String, identity: [UInt8] = [], limits: ZMTPLimits = .standard, writeBound: Int = 1 << 20,
        receiveBound: Int = 1000, reconnectInterval: Duration = .milliseconds(100), handshakeTimeout: Duration = .seconds(5)
    ) throws(ZMTPError) {
        self.endpoint = try ZMTPEndpoint(endpoint)
        self.identity = identity
        self.limits = limits
        self.writeBound = writeBound
        self.receiveBound = max(receiveBound, 1)
        self.reconnectInterval = reconnectInterval
        self.handshakeTimeout = handshakeTimeout
        reconnectAt = clock.now
        connectIfDue(at: clock.now)
    }

    deinit {
        connection?.close()
    }

    /// Whether the handshake with the peer is done.
    public var isConnected: Bool { connection?.peer != nil }

    /// Bytes queued and not written.
    public var queuedBytes: Int { waitingBytes + (connection?.queuedBytes ?? 0) }

    /// Queues a message and writes what it can at once; false, queuing nothing, when the queue
    /// is over `writeBound` (backpressure: the caller keeps the message and tries again).
    public func send(_ parts: [[UInt8]]) -> Bool {
        let queued = queuedBytes
        guard queued == 0 || queued + ZMTPFrame.encodedSize(of: parts) <= writeBound else { return false }
        if let connection, connection.peer != nil {
            connection.enqueue(parts)
            if !connection.flush() { drop(connection, .closedByPeer) }
        } else {
            waiting.append(parts)
            waitingBytes += ZMTPFrame.encodedSize(of: parts)
        }
        return true
    }

    /// The next message received, if one is waiting.
    public func receive() -> [[UInt8]]? {
        inbox.popFirst()
    }

    /// Messages received and not yet taken (at most `receiveBound`).
    public var waitingMessages: Int { inbox.count }

    /// Whether messages may wait, already read from the kernel, behind a full inbox: the
    /// descriptor will not wake a poll for them, so once the inbox has room the owner must
    /// `service` again without waiting (as `ZMTPRouter.hasUndecodedInput`).
    public var hasUndecodedInput: Bool { stoppedAtBound }

    /// When `service` must run even if nothing is ready (a reconnect or a handshake deadline).
    public var nextDeadline: ContinuousClock.Instant? {
        if let connection, connection.peer == nil { return connection.handshakeDeadline }
        return connection == nil ? reconnectAt : nil
    }

    /// Adds the connection's descriptor to this turn's set.
    public func register(in set: inout ZMTPPollSet) {
        guard let connection else { return }
        connection.pollIndex = set.add(fileDescriptor: connection.fd, readable: inbox.count < receiveBound, writable: connection.wantsWrite)
    }

    /// Does what the last poll found ready, and what is due.
    public func service(_ set: ZMTPPollSet) {
        let now = clock.now
        stoppedAtBound = false
        guard let connection else {
            connectIfDue(at: now)
            return
        }
        if connection.connecting {
            guard set.isWritable(connection.pollIndex) else { return timeOutIfDue(connection, now) }
            let code = connection.finishConnecting(at: now)
            guard code == 0 else { return drop(connection, .system("connect", errno: code)) }
        }
        // Decodes what was read (also what a full inbox left waiting): a peer that closed after
        // its last messages still has them delivered.
        let closed = set.isReadable(connection.pollIndex) && connection.read() == .closed
        do {
            if try connection.advanceHandshake(at: now) != nil { established(connection) }
            while inbox.count < receiveBound, let message = try connection.nextMessage() { inbox.append(message) }
            if inbox.count >= receiveBound, connection.hasBufferedInput { stoppedAtBound = true }
        } catch {
            return drop(connection, error)
        }
        guard !closed, connection.flush() else { return drop(connection, .closedByPeer) }
        timeOutIfDue(connection, now)
    }

    /// Closes the connection; nothing more is sent or received.
    public func close() {
        connection?.close()
        connection = nil
        reconnectAt = nil
    }

    private func established(_ connection: ZMTPConnection) {
        connectionsMade += 1
        for message in waiting { connection.enqueue(message) }
        waiting.removeAll()
        waitingBytes = 0
    }

    private func timeOutIfDue(_ connection: ZMTPConnection, _ now: ContinuousClock.Instant) {
        if connection.handshakeExpired(at: now) { drop(connection, .handshakeTimeout) }
    }

    private func drop(_ connection: ZMTPConnection, _ error: ZMTPError) {
        connection.close()
        self.connection = nil
        lastError = error
        reconnectAt = clock.now.advanced(by: reconnectInterval)
    }

    private func connectIfDue(at now: ContinuousClock.Instant) {
        guard connection == nil, let due = reconnectAt, now >= due else { return }
        do {
            let (fd, inProgress) = try ZMTPSystem.startConnecting(to: endpoint)
            connection = ZMTPConnection(
                fd: fd, handshake: ZMTPHandshake(socketType: .dealer, identity: identity), limits: limits,
                connecting: inProgress, handshakeTimeout: handshakeTimeout, now: now)
            reconnectAt = nil
            if let connection, !inProgress, !connection.flush() { drop(connection, .closedByPeer) }
        } catch {
            lastError = error
            reconnectAt = now.advanced(by: reconnectInterval)
        }
    }
}
