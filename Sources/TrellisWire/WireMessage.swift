/// One protocol message: a header frame and a body frame.
public struct WireMessage: Hashable, Sendable {
    /// The header; its `command` always matches the body's.
    public var header: WireHeader
    /// The body; setting it also sets the header's command.
    public var body: WireBody {
        didSet { header.command = body.command }
    }

    /// A message; the header's command is taken from `body`.
    public init(header: WireHeader, body: WireBody) {
        self.header = header
        self.header.command = body.command
        self.body = body
    }

    /// A message of the current version with the given header fields.
    public init(_ body: WireBody, correlationID: UInt64 = 0, lamport: UInt64 = 0, step: UInt32 = 0) {
        self.init(header: WireHeader(command: body.command, correlationID: correlationID, lamport: lamport, step: step), body: body)
    }

    /// The two frames: the 32-byte header and the body. A message that `validateForEncoding()`
    /// rejects is still written, with its over-long strings and lists cut to the limits.
    public func encode() -> [[UInt8]] {
        [header.encode(), body.encode()]
    }

    /// Reads a message from its frames (without the routing-id frame a ROUTER socket adds).
    /// Trailing bytes after what is parsed, in either frame, are ignored.
    public static func decode(_ frames: [[UInt8]]) throws(WireError) -> WireMessage {
        guard frames.count == 2 else { throw WireError(part: .message, reason: .frameCount(frames.count)) }
        return try WireReader.borrowing(frames[0]) { header throws(WireError) in
            try WireReader.borrowing(frames[1]) { body throws(WireError) in
                try decode(header: header, 0..<header.count, body: body, 0..<body.count)
            }
        }
    }

    /// Reads a message whose frames are at the given ranges of borrowed bytes (a BATCH entry is
    /// read in place).
    static func decode(
        header headerBytes: UnsafeRawBufferPointer, _ headerRange: Range<Int>,
        body bodyBytes: UnsafeRawBufferPointer, _ bodyRange: Range<Int>
    ) throws(WireError) -> WireMessage {
        let header = try WireHeader.decode(headerBytes, range: headerRange)
        do {
            return WireMessage(header: header, body: try WireBody.decode(header.command, bodyBytes, range: bodyRange))
        } catch {
            var located = error
            located.correlationID = header.correlationID
            located.command = header.command
            throw located
        }
    }

    /// Throws when the message cannot be written faithfully: a string or long string longer than
    /// its length prefix allows, more than 255 values in a CALL or RETURN, a list of more than
    /// 65 535 items or lists nested deeper than 16 — or when it would be larger than the
    /// protocol's largest message (`WireLimits.maxMessageBytes`), which no receiver takes.
    public func validateForEncoding() throws(WireError) {
        try WireEncodingCheck.check(body)
    }
}
