/// One connection's handshake with the NULL mechanism, as a state machine without sockets: the
/// bytes to send first, then the peer's greeting and READY read from the inbound buffer as they
/// arrive (RFC 23 "NULL Security Mechanism": each side sends READY with its metadata; a peer may
/// send ERROR instead).
///
/// Both sides send their greeting and READY at once: the NULL mechanism waits for nothing from
/// the peer before READY (libzmq's own client and server do the same), and a peer reads the
/// greeting's 64 bytes before anything after them.
public struct ZMTPHandshake: Sendable {
    /// Where the handshake stands.
    public enum State: Equatable, Sendable {
        case awaitingGreeting
        case awaitingReady(ZMTPGreeting)
        case established(Peer)
        case failed(ZMTPError)
    }

    /// Who the peer said it is.
    public struct Peer: Equatable, Sendable {
        public var socketType: String
        /// Its Identity property (empty when it gave none).
        public var identity: [UInt8]
        /// Its ZMTP minor version: PING is ZMTP 3.1's (never sent to a 3.0 peer).
        public var minorVersion: UInt8

        /// A peer as its READY and greeting described it.
        public init(socketType: String, identity: [UInt8], minorVersion: UInt8) {
            self.socketType = socketType
            self.identity = identity
            self.minorVersion = minorVersion
        }
    }

    /// This side's socket type, sent in READY and checked against the peer's.
    public let socketType: ZMTPSocketType
    /// This side's identity, sent in READY.
    public let identity: [UInt8]
    /// Where the handshake stands.
    public private(set) var state = State.awaitingGreeting

    /// A handshake not yet begun.
    public init(socketType: ZMTPSocketType, identity: [UInt8] = []) {
        self.socketType = socketType
        self.identity = identity
    }

    /// What this side sends as soon as the connection is open: its greeting, then its READY.
    public var opening: [UInt8] {
        ZMTPGreeting(asServer: false).bytes + ZMTPCommand.ready(ZMTPMetadata(socketType: socketType, identity: identity)).frame
    }

    /// Reads what it can of the peer's greeting and READY from `buffer`; the peer once the
    /// handshake is done (the bytes after its READY stay in `buffer`, for `decoder`). An error
    /// ends the connection; the state keeps it.
    public mutating func advance(_ buffer: inout ZMTPInboundBuffer, decoder: inout ZMTPFrameDecoder) throws(ZMTPError) -> Peer? {
        do {
            return try step(&buffer, decoder: &decoder)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    private mutating func step(_ buffer: inout ZMTPInboundBuffer, decoder: inout ZMTPFrameDecoder) throws(ZMTPError) -> Peer? {
        switch state {
        case .awaitingGreeting:
            try ZMTPGreeting.checkPrefix(buffer.peek(12))
            guard buffer.count >= ZMTPGreeting.size else { return nil }
            let greeting = try ZMTPGreeting.decode(buffer.peek(ZMTPGreeting.size))
            buffer.consume(ZMTPGreeting.size)
            state = .awaitingReady(greeting)
            return try step(&buffer, decoder: &decoder)
        case .awaitingReady(let greeting):
            guard let item = try decoder.next(from: &buffer) else { return nil }
            let peer = try Self.peer(from: item, greeting: greeting, accepting: socketType)
            state = .established(peer)
            return peer
        case .established(let peer):
            return peer
        case .failed(let error):
            throw error
        }
    }

    /// The peer a READY describes, if it is one `socketType` may talk to.
    static func peer(from item: ZMTPFrameDecoder.Item, greeting: ZMTPGreeting, accepting socketType: ZMTPSocketType) throws(ZMTPError) -> Peer {
        switch item {
        case .message:
            throw .messageBeforeReady
        case .command(.ready(let metadata)):
            guard let type = metadata["Socket-Type"] else { throw .incompatibleSocketType("(none given)") }
            let name = String(decoding: type, as: UTF8.self)
            guard socketType.accepts(peer: name) else { throw .incompatibleSocketType(name) }
            return Peer(socketType: name, identity: metadata["Identity"] ?? [], minorVersion: greeting.minor)
        case .command(.error(let reason)):
            throw .peerError(reason)
        case .command(.ping), .command(.pong), .command(.other):
            throw .badCommand("expected READY or ERROR during the handshake")
        }
    }
}
