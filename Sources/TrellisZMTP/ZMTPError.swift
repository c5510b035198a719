/// Why a ZMTP connection was refused or ended: every way a peer's bytes can be wrong, each named,
/// so that bad input ends one connection with a reason and never traps or grows memory.
public enum ZMTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first ten bytes are not `FF`, eight padding bytes, then a byte with bit 0 set: not a
    /// ZMTP 2.0 or later peer (RFC 23 §"Version Negotiation").
    case badSignature
    /// A ZMTP peer older than 3.0 (the major version byte).
    case unsupportedVersion(major: UInt8)
    /// A security mechanism other than NULL (the only one this module speaks).
    case unsupportedMechanism(String)
    /// A frame whose flags use reserved bits, or a long size with its top bit set.
    case badFrameHeader(flags: UInt8)
    /// A frame larger than the connection's limit (`ZMTPLimits.maximumFrameBytes`).
    case frameTooLarge(size: UInt64, limit: Int)
    /// A multipart message with more parts or bytes than the limits allow.
    case messageTooLarge(parts: Int, bytes: Int)
    /// A command frame inside a multipart message, or a command that is malformed.
    case badCommand(String)
    /// A message frame before the handshake finished.
    case messageBeforeReady
    /// The peer's READY carries no Socket-Type, or one this socket cannot talk to.
    case incompatibleSocketType(String)
    /// The peer's identity is already connected to this ROUTER.
    case duplicateIdentity
    /// The peer sent ERROR during the handshake, with its reason.
    case peerError(String)
    /// The handshake did not finish in time.
    case handshakeTimeout
    /// A system call failed (its name and errno).
    case system(String, errno: Int32)
    /// The peer closed the connection, or it failed under a read or a write.
    case closedByPeer
    /// The endpoint text is not `tcp://HOST:PORT` or `ipc://PATH`.
    case badEndpoint(String)

    /// The reason in words, for logs and errors shown to people.
    public var description: String {
        switch self {
        case .badSignature: "not a ZMTP peer: bad signature"
        case .unsupportedVersion(let major): "ZMTP \(major).x is not supported (3.0 or later is)"
        case .unsupportedMechanism(let name): "security mechanism \(name) is not supported (NULL is)"
        case .badFrameHeader(let flags): "bad frame header (flags \(flags))"
        case .frameTooLarge(let size, let limit): "frame of \(size) bytes is larger than the limit of \(limit)"
        case .messageTooLarge(let parts, let bytes): "message of \(parts) parts and \(bytes) bytes is over the limits"
        case .badCommand(let reason): "bad command: \(reason)"
        case .messageBeforeReady: "message before the handshake finished"
        case .incompatibleSocketType(let type): "peer socket type \(type) is not compatible"
        case .duplicateIdentity: "peer identity already connected"
        case .peerError(let reason): "peer refused the connection: \(reason)"
        case .handshakeTimeout: "handshake timed out"
        case .system(let call, let errno): "\(call) failed (errno \(errno))"
        case .closedByPeer: "the connection closed"
        case .badEndpoint(let text): "bad endpoint \(text) (tcp://HOST:PORT or ipc://PATH)"
        }
    }
}
