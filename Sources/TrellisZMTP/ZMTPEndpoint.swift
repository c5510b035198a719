/// Where a ZMTP socket binds or connects, in libzmq's own notation: `tcp://HOST:PORT` (HOST an
/// IPv4 address, `localhost`, or `*` to bind every interface; PORT a number, or `*`/0 for one the
/// system picks) or `ipc://PATH` (a Unix-domain stream socket).
public enum ZMTPEndpoint: Equatable, Sendable, CustomStringConvertible {
    case tcp(host: String, port: UInt16)
    case ipc(path: String)

    /// Reads libzmq's notation.
    public init(_ text: String) throws(ZMTPError) {
        if text.hasPrefix("ipc://") {
            let path = String(text.dropFirst("ipc://".count))
            // sockaddr_un's path holds 104 (Darwin) to 108 (Linux) bytes with its terminator.
            guard !path.isEmpty, path.utf8.count < 104, !path.utf8.contains(0) else { throw .badEndpoint(text) }
            self = .ipc(path: path)
            return
        }
        guard text.hasPrefix("tcp://"), let colon = text.lastIndex(of: ":") else { throw .badEndpoint(text) }
        let host = String(text[text.index(text.startIndex, offsetBy: "tcp://".count)..<colon])
        let portText = text[text.index(after: colon)...]
        let port: UInt16
        if portText == "*" {
            port = 0
        } else if let number = UInt16(portText) {
            port = number
        } else {
            throw .badEndpoint(text)
        }
        guard host == "*" || host == "localhost" || Self.ipv4(host) != nil else { throw .badEndpoint(text) }
        self = .tcp(host: host, port: port)
    }

    /// The endpoint in libzmq's notation.
    public var description: String {
        switch self {
        case .tcp(let host, let port): "tcp://\(host):\(port)"
        case .ipc(let path): "ipc://\(path)"
        }
    }

    /// The host's IPv4 address in network order, as `sockaddr_in` holds it (`*`: any interface;
    /// `localhost`: 127.0.0.1).
    var ipv4Address: UInt32? {
        switch self {
        case .tcp(let host, _):
            switch host {
            case "*": 0
            case "localhost": UInt32(0x7F00_0001).bigEndian
            default: Self.ipv4(host)
            }
        case .ipc:
            nil
        }
    }

    /// A dotted-quad address in network order; nil when the text is not one.
    static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard part.count <= 3, let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value.bigEndian
    }
}
