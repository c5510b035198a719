import TrellisWire

/// What a node's transport sends through and hears from: libzmq sockets on an I/O thread
/// (`NodeIO`), or the in-memory link of a node that shares its process with the other nodes of
/// its run (`LoopbackLink`). Both carry the same encoded frames to the same `onMessage`, so
/// everything above — calls, batches, the wire codec, control messages — is one code path.
///
/// An enum rather than a protocol: a message costs one branch on the tag, never an existential
/// box or a witness-table call, on the ZeroMQ path that every real run takes.
enum NodeLink: Sendable {
    case zeroMQ(NodeIO)
    case loopback(LoopbackLink)

    /// Queues `message` for `peer` (`NodeIO.send(to:_:)`).
    func send(to peer: String, _ message: WireMessage) {
        switch self {
        case let .zeroMQ(io): io.send(to: peer, message)
        case let .loopback(link): link.send(to: peer, message)
        }
    }

    /// Answers `peer`, to which this node has no stream, back through the inbox its message came
    /// in on (`NodeIO.reply(toRoutingID:_:)`).
    func reply(to peer: String, _ frames: [[UInt8]]) {
        switch self {
        case let .zeroMQ(io): io.reply(toRoutingID: PeerName.routingID(of: peer), frames)
        case .loopback:
            // What a node answers through its inbox reaches raw sockets only: a node's DEALER
            // reads nothing. A loopback network has no raw sockets: dropped, unread as over ZeroMQ.
            break
        }
    }

    /// Opens (once) the stream to `peer`.
    func connect(peer: String, endpoint: String, serverKey: String?) {
        switch self {
        case let .zeroMQ(io): io.connect(peer: peer, endpoint: endpoint, serverKey: serverKey)
        case let .loopback(link): link.connect(peer: peer, endpoint: endpoint)
        }
    }

    /// Stops watching a plain inbox's handshakes; a loopback link has none.
    func stopWatchingInbox() {
        switch self {
        case let .zeroMQ(io): io.stopWatchingInbox()
        case .loopback: break
        }
    }

    /// Connects the stream to `peer` afresh (`PeerWrites.redial`); a loopback stream has no
    /// handshake to retry.
    func redial(peer: String) {
        switch self {
        case let .zeroMQ(io): io.redial(peer: peer)
        case .loopback: break
        }
    }

    /// Ends the link: nothing more is sent or handed over.
    func stop() async {
        switch self {
        case let .zeroMQ(io): await io.stop()
        case let .loopback(link): await link.stop()
        }
    }

    /// Where tasks that prefer the node's I/O run (its I/O thread); nil on a loopback link, whose
    /// deliveries run on the shared pool.
    var executor: (any TaskExecutor)? {
        switch self {
        case let .zeroMQ(io): io
        case .loopback: nil
        }
    }

    /// How long a peer may be silent before it is gone (the loopback never declares one gone).
    var peerTimeoutMilliseconds: Int {
        switch self {
        case let .zeroMQ(io): io.configuration.peerTimeoutMilliseconds
        case let .loopback(link): link.configuration.peerTimeoutMilliseconds
        }
    }
}
