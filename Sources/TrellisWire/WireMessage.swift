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
        var path: [String] = []
        // An upper bound of the encoded size: the header, and each value at most its fixed part
        // plus what its strings hold.
        var bytes = WireLimits.fixedPartBound
        func check(string: String, _ field: String, limit: Int = WireLimits.maxStringBytes) throws(WireError) {
            let count = string.utf8.count
            bytes += 4 + count
            guard count <= limit else {
                throw WireError(part: .body, path: path, reason: .limitExceeded(
                    "\(field) of \(count) bytes exceeds the limit of \(limit)"))
            }
        }
        func check(_ value: WireValue, level: Int) throws(WireError) {
            bytes += WireLimits.fixedPartBound
            switch value {
            case .none, .bool, .int, .double, .size, .rect, .traits, .transition:
                break
            case .string(let text): try check(string: text, "string")
            case .longString(let text): try check(string: text, "long string", limit: WireLimits.maxLongStringBytes)
            case .address(let address):
                try check(string: address.node, "address node")
                try check(string: address.controller, "address controller")
            case .eventRef(let ref): try check(string: ref.node, "eventref node")
            case .list(let items):
                guard level <= WireLimits.maxListNesting else {
                    throw WireError(part: .body, path: path, reason: .limitExceeded(
                        "list nested deeper than \(WireLimits.maxListNesting) lists"))
                }
                guard items.count <= WireLimits.maxListCount else {
                    throw WireError(part: .body, path: path, reason: .limitExceeded(
                        "list of \(items.count) items exceeds the limit of \(WireLimits.maxListCount)"))
                }
                for (index, item) in items.enumerated() {
                    path.append("item \(index + 1)")
                    try check(item, level: level + 1)
                    path.removeLast()
                }
            }
        }
        func check(values: [WireValue]) throws(WireError) {
            guard values.count <= WireLimits.maxValueCount else {
                throw WireError(part: .body, path: path, reason: .limitExceeded(
                    "\(values.count) values exceed the limit of \(WireLimits.maxValueCount)"))
            }
            for (index, value) in values.enumerated() {
                path.append("value \(index + 1)")
                try check(value, level: 1)
                path.removeLast()
            }
        }
        switch body {
        case .hello(let node, let runID, _, let endpoint):
            try check(string: node, "node")
            try check(string: runID, "run id")
            try check(string: endpoint, "endpoint")
        case .setup(let runID, let node, let scenario, _, _, let peers):
            try check(string: runID, "run id")
            try check(string: node, "node")
            try check(string: scenario, "scenario", limit: WireLimits.maxLongStringBytes)
            for peer in peers {
                try check(string: peer.node, "peer node")
                try check(string: peer.endpoint, "peer endpoint")
                try check(string: peer.publicKey, "peer key")
            }
        case .ready(let node):
            try check(string: node, "node")
        case .call(let target, _, let arguments):
            try check(string: target.node, "target node")
            try check(string: target.controller, "target controller")
            try check(values: arguments)
        case .return(.ok(let values)):
            try check(values: values)
        case .return(.fault(let text)):
            try check(string: text, "fault text")
        case .heartbeat, .goodbye, .goodbyeAck, .traceRequest:
            break
        case .error(_, let text):
            try check(string: text, "text")
        case .traceData(_, let lines):
            try check(string: lines, "trace", limit: WireLimits.maxLongStringBytes)
        case .compactTraceData(_, let capture):
            bytes += 4 + capture.count
        }
        guard bytes <= WireLimits.maxMessageBytes else {
            throw WireError(part: .body, path: [], reason: .limitExceeded(
                "a message of about \(bytes) bytes exceeds the largest message, \(WireLimits.maxMessageBytes) bytes"))
        }
    }
}
