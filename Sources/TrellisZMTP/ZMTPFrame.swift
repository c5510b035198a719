/// How a frame is laid out (RFC 23 and 37, "Framing"): a flags byte, a size (one byte, or eight
/// in network order with the LONG flag), then the body. Flags: bit 0 MORE (another part of the
/// same message follows), bit 1 LONG, bit 2 COMMAND; the other bits are reserved and zero.
public enum ZMTPFrame {
    /// Another part of the same message follows.
    public static let more: UInt8 = 0x01
    /// The size is eight bytes, not one.
    public static let long: UInt8 = 0x02
    /// The frame is a command, not a message part.
    public static let command: UInt8 = 0x04
    /// The bits a peer may set.
    static let known: UInt8 = more | long | command

    /// Appends the header of a frame of `size` bytes: short when the size fits in a byte (the RFC
    /// has a sender use the short form for sizes up to 255).
    @inlinable
    public static func appendHeader(size: Int, flags: UInt8, to bytes: inout [UInt8]) {
        if size <= 255 {
            bytes.append(flags)
            bytes.append(UInt8(truncatingIfNeeded: size))
        } else {
            bytes.append(flags | long)
            let value = UInt64(size)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
    }

    /// Appends one multipart message: each part a frame, MORE on all but the last. An empty
    /// message is one empty part (ZeroMQ has no message of zero parts).
    @inlinable
    public static func appendMessage(_ parts: [[UInt8]], to bytes: inout [UInt8]) {
        guard let lastIndex = parts.indices.last else {
            appendHeader(size: 0, flags: 0, to: &bytes)
            return
        }
        for index in parts.indices {
            appendHeader(size: parts[index].count, flags: index == lastIndex ? 0 : more, to: &bytes)
            bytes.append(contentsOf: parts[index])
        }
    }

    /// The bytes a message takes on the wire.
    @inlinable
    public static func encodedSize(of parts: [[UInt8]]) -> Int {
        var total = 0
        for part in parts { total += (part.count <= 255 ? 2 : 9) + part.count }
        return max(total, 2)
    }

    /// Appends a command frame: the name's length, the name, then its data.
    public static func appendCommand(name: String, data: [UInt8], to bytes: inout [UInt8]) {
        let name = Array(name.utf8.prefix(255))
        appendHeader(size: 1 + name.count + data.count, flags: command, to: &bytes)
        bytes.append(UInt8(name.count))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: data)
    }
}
