/// The 64-byte greeting each peer sends first (RFC 23 and 37, "Greeting"): a signature, the
/// version, the security mechanism's name and the as-server flag, then zero filler.
///
///     offset  size  field
///     0       1     0xFF
///     1       8     padding (any value; sent as zeros)
///     9       1     0x7F (a ZMTP 2.0+ peer's signature ends with bit 0 set)
///     10      2     version major 3, minor 1
///     12      20    mechanism, ASCII, zero padded ("NULL")
///     32      1     as-server (0 or 1)
///     33      31    filler, zeros
public struct ZMTPGreeting: Equatable, Sendable {
    /// The greeting's size on the wire.
    public static let size = 64
    /// The version this module speaks.
    public static let majorVersion: UInt8 = 3
    /// ZMTP 3.1: PING and PONG (RFC 37) on top of 3.0.
    public static let minorVersion: UInt8 = 1

    /// The peer's major version (3 for every peer accepted).
    public var major: UInt8
    /// The peer's minor version: 0 for ZMTP 3.0, 1 for 3.1.
    public var minor: UInt8
    /// The mechanism's name without its zero padding.
    public var mechanism: String
    /// Meaningless for NULL (both sides are peers); sent as 0.
    public var asServer: Bool

    /// A greeting; by default this module's own (3.1, NULL, not as server).
    public init(major: UInt8 = ZMTPGreeting.majorVersion, minor: UInt8 = ZMTPGreeting.minorVersion, mechanism: String = "NULL", asServer: Bool = false) {
        self.major = major
        self.minor = minor
        self.mechanism = mechanism
        self.asServer = asServer
    }

    /// The greeting's 64 bytes.
    public var bytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Self.size)
        bytes[0] = 0xFF
        bytes[9] = 0x7F
        bytes[10] = major
        bytes[11] = minor
        for (index, byte) in mechanism.utf8.prefix(20).enumerated() { bytes[12 + index] = byte }
        bytes[32] = asServer ? 1 : 0
        return bytes
    }

    /// Checks as many of the first bytes as have arrived, so that a peer that is not ZMTP 3 is
    /// refused from its first bytes rather than after a timeout.
    public static func checkPrefix(_ bytes: some Collection<UInt8>) throws(ZMTPError) {
        for (offset, byte) in zip(0..., bytes.prefix(12)) {
            switch offset {
            case 0 where byte != 0xFF, 9 where byte & 1 == 0: throw .badSignature
            case 10 where byte < majorVersion: throw .unsupportedVersion(major: byte)
            default: continue
            }
        }
    }

    /// Reads a complete greeting (exactly `size` bytes) and checks that it is ZMTP 3.x with NULL.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ZMTPError) -> ZMTPGreeting {
        let bytes = Array(bytes)
        guard bytes.count == size else { throw .badSignature }
        try checkPrefix(bytes)
        let name = bytes[12..<32].prefix { $0 != 0 }
        guard name.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { throw .unsupportedMechanism("(not ASCII)") }
        let mechanism = String(decoding: name, as: UTF8.self)
        guard mechanism == "NULL" else { throw .unsupportedMechanism(mechanism) }
        return ZMTPGreeting(major: bytes[10], minor: bytes[11], mechanism: mechanism, asServer: bytes[32] == 1)
    }
}
