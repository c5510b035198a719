/// Decodes frames from a connection's inbound bytes once the greeting is read, and assembles the
/// parts of each multipart message. Every size is checked against `limits` as soon as its header
/// is readable, so bad input is an error before it is memory.
public struct ZMTPFrameDecoder: Sendable {
    /// What the peer sent: a whole message (its parts) or a command.
    public enum Item: Equatable, Sendable {
        case message([[UInt8]])
        case command(ZMTPCommand)
    }

    /// What the peer may send at most.
    public let limits: ZMTPLimits
    /// The parts received so far of a message whose last part has not arrived.
    private var parts: [[UInt8]] = []
    private var partBytes = 0

    /// A decoder at a frame boundary.
    public init(limits: ZMTPLimits = .standard) {
        self.limits = limits
    }

    /// The next complete item in `buffer`, consumed from it; nil when more bytes are needed.
    public mutating func next(from buffer: inout ZMTPInboundBuffer) throws(ZMTPError) -> Item? {
        while true {
            guard let (flags, headerSize, size) = try header(in: buffer) else { return nil }
            guard buffer.count >= headerSize + size else { return nil }
            let body = buffer.peek(headerSize + size).dropFirst(headerSize)
            if flags & ZMTPFrame.command != 0 {
                let command = try ZMTPCommand.decode(body: body)
                buffer.consume(headerSize + size)
                return .command(command)
            }
            parts.append(Array(body))
            partBytes += size
            buffer.consume(headerSize + size)
            if flags & ZMTPFrame.more == 0 {
                defer { parts = []; partBytes = 0 }
                return .message(parts)
            }
        }
    }

    /// The waiting frame's flags, header size and body size, checked; nil when the header has not
    /// all arrived.
    private func header(in buffer: ZMTPInboundBuffer) throws(ZMTPError) -> (UInt8, Int, Int)? {
        guard let flags = buffer.peek(1).first else { return nil }
        guard flags & ~ZMTPFrame.known == 0 else { throw .badFrameHeader(flags: flags) }
        let isCommand = flags & ZMTPFrame.command != 0
        if isCommand, flags & ZMTPFrame.more != 0 { throw .badFrameHeader(flags: flags) }
        if isCommand, !parts.isEmpty { throw .badCommand("command inside a multipart message") }
        let headerSize = flags & ZMTPFrame.long != 0 ? 9 : 2
        guard buffer.count >= headerSize else { return nil }
        var size: UInt64 = 0
        for byte in buffer.peek(headerSize).dropFirst() { size = size << 8 | UInt64(byte) }
        guard size <= UInt64(limits.maximumFrameBytes) else { throw .frameTooLarge(size: size, limit: limits.maximumFrameBytes) }
        let body = Int(size)
        if !isCommand, parts.count + 1 > limits.maximumParts || partBytes + body > limits.maximumMessageBytes {
            throw .messageTooLarge(parts: parts.count + 1, bytes: partBytes + body)
        }
        return (flags, headerSize, body)
    }
}
