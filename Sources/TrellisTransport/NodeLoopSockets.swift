import ZeroMQ

/// What a node's I/O loop (`NodeIOLoop`) needs of the sockets under it, whichever layer was
/// chosen at start (`NodeSocketLayer`): libzmq's (`LibZMQNodeSockets`) or Trellis's own ZMTP 3.1
/// ones (`ZMTPNodeSockets`). The loop is generic over it, so each layer gets a loop of its own,
/// specialised at compile time: no existential and no tag branch on the round trip's path.
/// One thread owns the sockets; the DEALERs themselves are `PeerWrites`'.
protocol NodeLoopSockets: AnyObject {
    /// Sets up the ROUTER, bound; a layer that cannot start leaves nothing behind.
    init(configuration: NodeIOConfiguration) throws(ZMQError)

    /// The endpoint the ROUTER is bound to, any wildcard port resolved.
    var boundEndpoint: String { get }

    /// Fills this turn's poll set: the wake-up descriptor, the ROUTER, and the DEALERs of
    /// `writes` the layer polls.
    func prepare(wakeUp: Int32, writes: PeerWrites)

    /// Waits up to `timeout` (zero: only looks) until something in the set is ready; how many are.
    @discardableResult
    func poll(timeout: Duration) throws(ZMQError) -> Int

    /// A deadline of the sockets' own (a reconnect, a handshake) the loop must wake for, beside
    /// the heartbeats'.
    var nextDeadline: ContinuousClock.Instant? { get }

    /// Whether inbound messages were read from the kernel and wait without making a poll wake:
    /// the loop must turn again before it sleeps.
    var inputWaitsWithoutWaking: Bool { get }

    /// What comes before the inbound messages are taken (reading, writing, accepting what the
    /// poll found ready).
    func serviceBeforeInbound(io: NodeIO, writes: PeerWrites)

    /// Whether inbound messages wait to be taken.
    var inboundReady: Bool { get }

    /// The next inbound message (the sender's routing id first) into `frames`; false when none.
    func receive(into frames: inout [[UInt8]]) -> Bool

    /// With CURVE, the node the last received message's key belongs to (its ZAP User-Id, TWP §10
    /// rule 5); nil where senders are not authenticated.
    var lastAuthenticatedSender: String? { get }

    /// What comes after the inbound messages were taken (the ZAP handler's answers, handshake
    /// monitors, draining the wake-up).
    func serviceAfterInbound(io: NodeIO)

    /// Answers a sender by its routing id (the first frame); dropped if it is not connected
    /// (ROUTER_MANDATORY).
    func reply(_ message: [[UInt8]])

    /// Stops reporting the inbox's handshake failures (`NodeIO.stopWatchingInbox`).
    func stopWatchingInbox()

    /// Opens the DEALER to `peer` in this layer into `writes` (false: it exists already).
    func connect(
        _ peer: String, endpoint: String, serverKey: String?, writes: inout PeerWrites, configuration: NodeIOConfiguration
    ) throws -> Bool

    /// Whether a DEALER waits to take what is pending for it (the turn then flushes).
    func waitsToWrite(_ writes: PeerWrites) -> Bool

    /// Forgets `peer`'s stream once it is gone.
    func abandon(_ peer: String, writes: inout PeerWrites)

    /// Shutdown: what is queued gets its last chance within the linger, then every socket closes.
    func close(writes: PeerWrites, lingerMilliseconds: Int32)
}
