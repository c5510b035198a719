/// Why a CURVE handshake between two nodes failed, as libzmq's socket monitor tells it
/// (`HandshakeWatch`): the reason a run whose keys do not match names instead of waiting.
package enum HandshakeFailure: Sendable, Equatable, CustomStringConvertible {
    /// The server's ZAP handler refused the client's public key (its status code, 400).
    case keyRefused(status: UInt32)
    /// The CURVE boxes did not open: the client's idea of the server's public key is wrong.
    case wrongKey
    /// One side uses CURVE and the other does not.
    case mechanismMismatch
    /// Another protocol error (its `ZMQ_PROTOCOL_ERROR_*` code), or one libzmq gave no detail of.
    case other(code: UInt32?)

    package var description: String {
        switch self {
        case let .keyRefused(status): return "the CURVE key was refused (ZAP status \(status))"
        case .wrongKey: return "the CURVE keys do not match (a box did not open)"
        case .mechanismMismatch: return "one side uses CURVE and the other does not"
        case let .other(code?): return "the handshake failed (protocol error 0x\(String(code, radix: 16)))"
        case .other(nil): return "the handshake failed"
        }
    }
}
