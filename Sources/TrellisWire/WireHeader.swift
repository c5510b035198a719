/// The first frame of every message: 32 bytes, big-endian.
///
/// | bytes | field |
/// |---|---|
/// | 0–1 | signature `0x54 0x52` ("TR") |
/// | 2 | major version |
/// | 3 | minor version |
/// | 4 | command |
/// | 5 | flags (reserved, 0) |
/// | 6–7 | reserved (0) |
/// | 8–15 | correlation id |
/// | 16–23 | Lamport clock |
/// | 24–27 | step number |
/// | 28–31 | reserved (0) |
public struct WireHeader: Hashable, Sendable {
    /// The length of a header frame this version writes, and the least a receiver accepts.
    public static let length = 32
    /// The two signature bytes, "TR".
    public static let signature: [UInt8] = [0x54, 0x52]
    /// The major version this implementation speaks; a header with another one is rejected.
    public static let currentMajorVersion: UInt8 = 1
    /// The minor version this implementation writes; higher ones are accepted.
    public static let currentMinorVersion: UInt8 = 0
    /// Where the command octet is: a receiver may look at it before decoding the header.
    public static let commandOffset = 4

    /// Major version (byte 2).
    public var majorVersion: UInt8
    /// Minor version (byte 3).
    public var minorVersion: UInt8
    /// What the body holds (byte 4).
    public var command: WireCommand
    /// Flags (byte 5): reserved, written as given (0), never interpreted.
    public var flags: UInt8
    /// Matches a reply to its request; 0 for messages that expect no reply (bytes 8–15).
    public var correlationID: UInt64
    /// The sender's Lamport clock when it sent the message (bytes 16–23).
    public var lamport: UInt64
    /// The scenario step the message belongs to; 0 for the initial layout and outside steps (bytes 24–27).
    public var step: UInt32

    /// A header of the current version.
    public init(
        command: WireCommand, correlationID: UInt64 = 0, lamport: UInt64 = 0, step: UInt32 = 0,
        flags: UInt8 = 0, majorVersion: UInt8 = WireHeader.currentMajorVersion,
        minorVersion: UInt8 = WireHeader.currentMinorVersion
    ) {
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.command = command
        self.flags = flags
        self.correlationID = correlationID
        self.lamport = lamport
        self.step = step
    }

    /// The 32-byte header frame; reserved bytes are zero.
    public func encode() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.length)
        encode(into: &bytes)
        return bytes
    }

    /// Appends the 32-byte header frame to `bytes` (a BATCH entry is written in place).
    func encode(into bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: Self.zeros)
        bytes.withUnsafeMutableBytes { raw in
            raw[start] = Self.signature[0]
            raw[start + 1] = Self.signature[1]
            raw[start + 2] = majorVersion
            raw[start + 3] = minorVersion
            raw[start + Self.commandOffset] = command.rawValue
            raw[start + 5] = flags
            raw.storeBytes(of: correlationID.bigEndian, toByteOffset: start + 8, as: UInt64.self)
            raw.storeBytes(of: lamport.bigEndian, toByteOffset: start + 16, as: UInt64.self)
            raw.storeBytes(of: step.bigEndian, toByteOffset: start + 24, as: UInt32.self)
        }
    }

    /// A header's worth of zero bytes: reserved fields stay zero.
    private static let zeros = [UInt8](repeating: 0, count: length)

    /// Reads a header frame: at least 32 bytes, signature "TR", major version 1, a known command.
    /// Bytes after the 32nd, the reserved bytes and the flags are not checked (forward compatibility).
    public static func decode(_ frame: [UInt8]) throws(WireError) -> WireHeader {
        try decode(frame, range: 0..<frame.count)
    }

    /// Reads the header frame at `range` of `bytes` (a BATCH entry is read in place).
    static func decode(_ bytes: [UInt8], range: Range<Int>) throws(WireError) -> WireHeader {
        try WireReader.borrowing(bytes) { raw throws(WireError) in try decode(raw, range: range) }
    }

    /// Reads the header frame at `range` of borrowed bytes.
    static func decode(_ bytes: UnsafeRawBufferPointer, range: Range<Int>) throws(WireError) -> WireHeader {
        var reader = WireReader(bytes, range: range, part: .header)
        guard reader.remaining >= length else {
            throw WireError(part: .header, reason: .headerTooShort(length: reader.remaining))
        }
        let first = try reader.u8("signature")
        let second = try reader.u8("signature")
        guard first == signature[0], second == signature[1] else {
            throw WireError(part: .header, offset: 0, reason: .badSignature(first, second))
        }
        let major = try reader.u8("major version")
        guard major == currentMajorVersion else {
            throw WireError(part: .header, offset: 2, reason: .unsupportedMajorVersion(major))
        }
        let minor = try reader.u8("minor version")
        let commandOffset = reader.offset
        let commandByte = try reader.u8("command")
        let flags = try reader.u8("flags")
        reader.skip(2)
        let correlationID = try reader.u64("correlation id")
        let lamport = try reader.u64("Lamport clock")
        let step = try reader.u32("step")
        guard let command = WireCommand(rawValue: commandByte) else {
            var error = WireError(part: .header, offset: commandOffset, reason: .unknownCommand(commandByte))
            error.correlationID = correlationID
            throw error
        }
        return WireHeader(
            command: command, correlationID: correlationID, lamport: lamport, step: step, flags: flags,
            majorVersion: currentMajorVersion, minorVersion: minor)
    }
}
