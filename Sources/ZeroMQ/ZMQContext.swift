import CZeroMQ

/// A libzmq context. Not `Sendable` on purpose: Trellis creates it, its sockets and every call on
/// them on one I/O thread, so no lock is needed and libzmq's socket rule (one thread per socket)
/// holds by construction.
package final class ZMQContext {
    let handle: UnsafeMutableRawPointer

    package init() throws(ZMQError) {
        guard let handle = zmq_ctx_new() else { throw ZMQError("zmq_ctx_new") }
        self.handle = handle
    }

    /// Creates a socket of this context.
    package func socket(_ type: ZMQSocketType) throws(ZMQError) -> ZMQSocket {
        guard let socket = zmq_socket(handle, type.rawValue) else { throw ZMQError("zmq_socket") }
        return ZMQSocket(handle: socket)
    }

    /// Terminates the context; every socket must be closed first (with a bounded linger), or
    /// this blocks until their queued messages are sent.
    package func terminate() {
        while zmq_ctx_term(handle) != 0, zmq_errno() == EINTR {}
    }

    /// libzmq's version, as `major.minor.patch`.
    package static var version: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }

    /// A new CURVE key pair in Z85 text (40 characters each).
    package static func curveKeyPair() throws(ZMQError) -> (publicKey: String, secretKey: String) {
        var publicKey = [CChar](repeating: 0, count: 41)
        var secretKey = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicKey, &secretKey) == 0 else { throw ZMQError("zmq_curve_keypair") }
        return (String(decoding: publicKey.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self),
                String(decoding: secretKey.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The Z85 public key that belongs to a Z85 secret key.
    package static func curvePublicKey(forSecretKey secretKey: String) throws(ZMQError) -> String {
        var publicKey = [CChar](repeating: 0, count: 41)
        let secret = Array(secretKey.utf8CString)
        guard secret.count == 41, zmq_curve_public(&publicKey, secret) == 0 else { throw ZMQError("zmq_curve_public", code: EINVAL) }
        return String(decoding: publicKey.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The socket types Trellis uses.
package enum ZMQSocketType: Int32, Sendable {
    case pair = 0, req = 3, rep = 4, dealer = 5, router = 6, pull = 7, push = 8
}

/// Z85, ZeroMQ's text encoding of CURVE keys.
package enum Z85 {
    /// The Z85 text of 32 key bytes (40 characters); nil for any other length.
    package static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 32 else { return nil }
        var text = [CChar](repeating: 0, count: 41)
        guard zmq_z85_encode(&text, bytes, bytes.count) != nil else { return nil }
        return String(decoding: text.prefix(40).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `text` is the Z85 text of a 32-byte key (40 characters of Z85's alphabet).
    package static func decodable(_ text: String) -> Bool {
        guard text.utf8.count == 40 else { return false }
        var bytes = [UInt8](repeating: 0, count: 32)
        return zmq_z85_decode(&bytes, text) != nil
    }
}
