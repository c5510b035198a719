/// The commands of ZMTP 3.1 with the NULL mechanism (RFC 23 "NULL Security Mechanism"; RFC 37
/// "Connection Heartbeating"). A command's body is its name's length (1 byte, at least 1), its
/// name, then its data.
public enum ZMTPCommand: Equatable, Sendable {
    /// The handshake's one command: the sender's metadata (Socket-Type, Identity, …).
    case ready(ZMTPMetadata)
    /// The peer refuses the connection: a reason of at most 255 bytes.
    case error(String)
    /// A heartbeat: its time-to-live in tenths of a second and up to 16 bytes of context that
    /// the PONG must echo.
    case ping(ttl: UInt16, context: [UInt8])
    /// The answer to a PING, echoing its context.
    case pong(context: [UInt8])
    /// A command this module does not act on (SUBSCRIBE, CANCEL, …), kept by name.
    case other(name: String, data: [UInt8])

    /// The command's frame, header included.
    public var frame: [UInt8] {
        var bytes: [UInt8] = []
        switch self {
        case .ready(let metadata):
            ZMTPFrame.appendCommand(name: "READY", data: metadata.bytes, to: &bytes)
        case .error(let reason):
            let reason = Array(reason.utf8.prefix(255))
            ZMTPFrame.appendCommand(name: "ERROR", data: [UInt8(reason.count)] + reason, to: &bytes)
        case .ping(let ttl, let context):
            ZMTPFrame.appendCommand(name: "PING", data: [UInt8(ttl >> 8), UInt8(ttl & 0xFF)] + context.prefix(16), to: &bytes)
        case .pong(let context):
            ZMTPFrame.appendCommand(name: "PONG", data: Array(context.prefix(16)), to: &bytes)
        case .other(let name, let data):
            ZMTPFrame.appendCommand(name: name, data: data, to: &bytes)
        }
        return bytes
    }

    /// Reads a command frame's body (after its header).
    public static func decode(body: ArraySlice<UInt8>) throws(ZMTPError) -> ZMTPCommand {
        guard let nameSize = body.first.map(Int.init), nameSize > 0, body.count >= 1 + nameSize else {
            throw .badCommand("name missing or longer than the command")
        }
        let nameBytes = body.dropFirst().prefix(nameSize)
        guard nameBytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .badCommand("name is not printable ASCII") }
        let name = String(decoding: nameBytes, as: UTF8.self)
        let data = body.dropFirst(1 + nameSize)
        switch name {
        case "READY":
            return .ready(try ZMTPMetadata.decode(data))
        case "ERROR":
            guard let size = data.first.map(Int.init), data.count == 1 + size else { throw .badCommand("ERROR's reason size is wrong") }
            return .error(String(decoding: data.dropFirst(), as: UTF8.self))
        case "PING":
            guard data.count >= 2, data.count <= 18 else { throw .badCommand("PING must carry a ttl and at most 16 bytes of context") }
            let ttl = UInt16(data[data.startIndex]) << 8 | UInt16(data[data.startIndex + 1])
            return .ping(ttl: ttl, context: Array(data.dropFirst(2)))
        case "PONG":
            guard data.count <= 16 else { throw .badCommand("PONG's context is longer than 16 bytes") }
            return .pong(context: Array(data))
        default:
            return .other(name: name, data: Array(data))
        }
    }
}
