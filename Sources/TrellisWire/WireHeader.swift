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
        var writer = WireWriter()
        writer.bytes.reserveCapacity(Self.length)
        writer.bytes += Self.signature
        writer.u8(majorVersion)
        writer.u8(minorVersion)
        writer.u8(command.rawValue)
        writer.u8(flags)
        writer.u16(0)
        writer.u64(correlationID)
        writer.u64(lamport)
        writer.u32(step)
        writer.u32(0)
        return writer.bytes
    }

    /// Reads a header frame: at least 32 bytes, signature "TR", major version 1, a known command.
    /// Bytes after the 32nd, the reserved bytes and the flags are not checked (forward compatibility).
    public static func decode(_ frame: [UInt8]) throws(WireError) -> WireHeader {
        guard frame.count >= length else {
            throw WireError(part: .header, reason: .headerTooShort(length: frame.count))
        }
        guard frame[0] == signature[0], frame[1] == signature[1] else {
            throw WireError(part: .header, offset: 0, reason: .badSignature(frame[0], frame[1]))
        }
        guard frame[2] == currentMajorVersion else {
            throw WireError(part: .header, offset: 2, reason: .unsupportedMajorVersion(frame[2]))
        }
        var reader = WireReader(frame, part: .header)
        reader.skip(3)
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
