import ZeroMQ

/// libzmq's sockets under a node's I/O loop (`NodeSocketLayer.libzmq`): the context, the ROUTER
/// bound for inbound traffic, the ZAP handler with CURVE, the handshake monitors, and the poll
/// set they fill each turn (the DEALERs are `PeerWrites`'). One thread owns them.
final class LibZMQNodeSockets: NodeLoopSockets {
    let context: ZMQContext
    let router: ZMQSocket
    let zap: ZAPHandler?
    /// The handshakes of every socket, watched so that a failure is said at once.
    let handshakes: HandshakeWatch?
    /// What the turn polls: the ROUTER, the wake-up fd, the ZAP handler, the monitors, then the
    /// DEALERs with something pending, for writability.
    private var items = ZMQPollSet()
    private var fixedItems = 0

    /// Sets up the context and the ROUTER, bound (with CURVE, the ZAP handler first). A step that
    /// fails releases everything made before it — sockets closed, context ended — so that a node
    /// that cannot start (an endpoint in use, say) leaves no thread or file descriptor behind.
    init(configuration: NodeIOConfiguration) throws(ZMQError) {
        let context = try ZMQContext()
        let handshakes = HandshakeWatch(context: context)
        let router: ZMQSocket
        do {
            router = try context.socket(.router)
        } catch {
            context.terminate()
            throw error
        }
        var zap: ZAPHandler?
        do {
            try router.set(ZMQOption.linger, configuration.lingerMilliseconds)
            try router.set(ZMQOption.receiveHighWaterMark, configuration.highWaterMark)
            try router.set(ZMQOption.sendHighWaterMark, configuration.highWaterMark)
            try router.set(ZMQOption.routerMandatory, 1)
            try router.set(ZMQOption.maximumMessageSize, int64: configuration.maximumMessageSize)
            if let curve = configuration.curve {
                zap = try ZAPHandler(in: context, allowing: curve.allowedPeers)
                try router.set(ZMQOption.curveServer, 1)
                try router.set(ZMQOption.curveSecretKey, text: curve.secretKey)
                try router.set(ZMQOption.zapDomain, text: "trellis")
                handshakes.watch(router, peer: nil)
            } else if configuration.watchesPlainInbox {
                handshakes.watch(router, peer: nil)
            }
            try router.bind(configuration.bindEndpoint)
        } catch {
            // In the order of `close()`: the context ends only once every socket is closed.
            handshakes.unwatch(router)
            handshakes.close()
            zap?.close()
            router.close()
            context.terminate()
            throw error
        }
        self.context = context
        self.handshakes = handshakes
        self.router = router
        self.zap = zap
    }

    /// The endpoint the ROUTER is bound to, any wildcard port resolved.
    var boundEndpoint: String { router.lastEndpoint }

    /// Fills this turn's poll set.
    func prepare(wakeUp: Int32, writes: PeerWrites) {
        items.removeAll()
        items.append(ZMQPollItem(.socket(router)))
        items.append(ZMQPollItem(.fileDescriptor(wakeUp)))
        if let zap { items.append(ZMQPollItem(.socket(zap.socket))) }
        handshakes?.addPollItems(to: &items)
        fixedItems = items.count
        writes.addWaiting(to: &items)
    }

    /// Waits (zero: looks) until something in the set is ready; how many are. In whole
    /// milliseconds, rounded up: waking a little early would only turn the loop once more for
    /// nothing.
    @discardableResult
    func poll(timeout: Duration) throws(ZMQError) -> Int {
        let (seconds, attoseconds) = max(timeout, .zero).components
        return try items.poll(timeoutMilliseconds: Int(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    /// libzmq keeps its own reconnect and handshake timers.
    var nextDeadline: ContinuousClock.Instant? { nil }

    /// libzmq's ROUTER stays readable while messages wait in it.
    var inputWaitsWithoutWaking: Bool { false }

    /// libzmq reads and writes on its own threads: nothing to do before the inbound messages.
    func serviceBeforeInbound(io: NodeIO, writes: PeerWrites) {}

    /// Whether the last poll found inbound messages.
    var inboundReady: Bool { items[0].readable }

    /// Whether a DEALER waits to take what is pending for it.
    func waitsToWrite(_ writes: PeerWrites) -> Bool { items.count > fixedItems }

    /// After the inbound messages: the ZAP handler's answer, the monitors' events, the wake-up.
    func serviceAfterInbound(io: NodeIO) {
        if let zap, items[2].readable, let refused = zap.answer() { io.onEvent(.peerRefused(publicKey: refused)) }
        handshakes?.readEvents(in: items, report: io.onEvent)
        if items[1].readable { io.wakeUp.drain() }
    }

    /// The next inbound message (its routing id first) into `frames`; false when none waits.
    func receive(into frames: inout [[UInt8]]) -> Bool {
        (try? router.receive(into: &frames, dontWait: true, readsUserID: zap != nil)) == true
    }

    /// With CURVE, the node named by the ZAP handler for the last message's key.
    var lastAuthenticatedSender: String? {
        zap == nil ? nil : router.lastUserID ?? ""
    }

    /// Answers a sender by its routing id; an unknown or gone one fails (ROUTER_MANDATORY),
    /// and there is nothing to keep.
    func reply(_ message: [[UInt8]]) {
        _ = try? router.send(message, dontWait: true)
    }

    /// A CURVE inbox is watched for as long as it runs; a plain one only while asked.
    func stopWatchingInbox() {
        if zap == nil { handshakes?.unwatch(router) }
    }

    /// Opens the DEALER to `peer` in this context, its handshake watched.
    func connect(
        _ peer: String, endpoint: String, serverKey: String?, writes: inout PeerWrites, configuration: NodeIOConfiguration
    ) throws -> Bool {
        try writes.connect(peer, endpoint: endpoint, serverKey: serverKey, in: context, configuration: configuration, handshakes: handshakes)
    }

    /// Forgets `peer`'s DEALER and stops watching its handshake.
    func abandon(_ peer: String, writes: inout PeerWrites) {
        writes.abandon(peer, handshakes: handshakes)
    }

    /// Shutdown: the DEALERs' last chance and bounded linger (libzmq's own, set on each socket),
    /// then the rest; the context last.
    func close(writes: PeerWrites, lingerMilliseconds: Int32) {
        writes.close()
        zap?.close()
        handshakes?.close()
        router.close()
        context.terminate()
    }
}
