/// BATCH (0x60, Protocols/wire-protocol.md §7.9): several messages of one stream carried in one
/// ZeroMQ message, so that a burst of small messages pays libzmq's per-message cost once.
///
/// The header frame is an ordinary 32-byte header with command BATCH and zero correlation id,
/// clock and step; the body is a u32 entry count, then per entry a u32 length and the entry's
/// header frame, a u32 length and its body frame. A receiver handles the entries in order, each
/// exactly as if it had arrived alone on the stream.
public enum WireBatch {
    /// Bytes of framing per entry: the two u32 lengths.
    public static let entryOverhead = 8

    /// The header frame of every BATCH: command 0x60, correlation id, clock and step zero.
    public static let header = WireHeader(command: .batch).encode()

    /// A body with no entry yet: the count, to be set by `finish(_:count:)`.
    public static func startBody(reservingCapacity capacity: Int = 0) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(max(4, capacity))
        body.append(contentsOf: [0, 0, 0, 0])
        return body
    }

    /// Appends one message (its two encoded frames) as the next entry of `body`. Total: a
    /// message without exactly two frames is packed with its first two frames, missing ones
    /// empty (the codec never produces one).
    public static func append(_ frames: [[UInt8]], to body: inout [UInt8]) {
        let header = frames.first ?? []
        let messageBody = frames.count > 1 ? frames[1] : []
        appendLength(header.count, to: &body)
        body.append(contentsOf: header)
        appendLength(messageBody.count, to: &body)
        body.append(contentsOf: messageBody)
    }

    /// Encodes `message` as the next entry of `body`, in place: no frame of its own is built.
    /// Returns the size of the entry.
    @discardableResult
    public static func append(_ message: WireMessage, to body: inout [UInt8]) -> Int {
        let start = body.count
        appendLength(WireHeader.length, to: &body)
        message.header.encode(into: &body)
        let lengthAt = body.count
        appendLength(0, to: &body)
        var writer = WireWriter()
        swap(&writer.bytes, &body)
        message.body.encode(into: &writer)
        swap(&writer.bytes, &body)
        WireWriter.store(u32: UInt32(truncatingIfNeeded: body.count - lengthAt - 4), at: lengthAt, in: &body)
        return body.count - start
    }

    /// Sets the entry count of a body begun with `startBody`.
    public static func finish(_ body: inout [UInt8], count: Int) {
        WireWriter.store(u32: UInt32(truncatingIfNeeded: count), at: 0, in: &body)
    }

    /// The bytes an entry for `frames` takes in a body.
    public static func entrySize(_ frames: [[UInt8]]) -> Int {
        entryOverhead + (frames.first?.count ?? 0) + (frames.count > 1 ? frames[1].count : 0)
    }

    /// The two frames of a BATCH holding `messages` (each the two frames of an encoded message),
    /// in their order.
    public static func encode(_ messages: ArraySlice<[[UInt8]]>) -> [[UInt8]] {
        var size = 4
        for frames in messages { size += entrySize(frames) }
        var body = startBody(reservingCapacity: size)
        for frames in messages { append(frames, to: &body) }
        finish(&body, count: messages.count)
        return [header, body]
    }

    private static func appendLength(_ length: Int, to body: inout [UInt8]) {
        WireWriter.append(u32: UInt32(truncatingIfNeeded: length), to: &body)
    }

    /// The frames of a batch of decoded messages (for tests and golden vectors; senders pack
    /// frames they already encoded with `encode(_:)`).
    public static func encode(messages: [WireMessage]) -> [[UInt8]] {
        encode(messages.map { $0.encode() }[...])
    }

    /// Decodes the frames of one received ZeroMQ message (without the routing-id frame): a
    /// single message, or every entry of a BATCH in order. `deliver` gets each message, or why
    /// it was rejected — with the rejected message's correlation id when its header could be
    /// read. An entry that does not decode is rejected alone and the entries after it are still
    /// delivered; when the batch's own framing is broken (a length past the end), the entries
    /// before the break are delivered, then one failure, and nothing after it.
    public static func decodeEach(_ frames: [[UInt8]], _ deliver: (Result<WireMessage, WireError>) -> Void) {
        guard frames.count == 2, isBatchHeader(frames[0]) else {
            do {
                deliver(.success(try WireMessage.decode(frames)))
            } catch {
                deliver(.failure(error))
            }
            return
        }
        frames[1].withUnsafeBytes { body in decodeEntries(of: body, deliver) }
    }

    /// The entries of a BATCH body, read in place: see `decodeEach(_:_:)`.
    private static func decodeEntries(of body: UnsafeRawBufferPointer, _ deliver: (Result<WireMessage, WireError>) -> Void) {
        var reader = WireReader(body, range: 0..<body.count, part: .body)
        do throws(WireError) {
            let countOffset = reader.offset
            let count = Int(try reader.u32("batch entry count"))
            // Each entry takes its two lengths at least: a larger count cannot be right.
            guard count <= reader.remaining / entryOverhead else {
                throw WireError(part: .body, path: ["batch"], offset: countOffset,
                                reason: .countPastEnd(count: count, left: reader.remaining))
            }
            for index in 0..<count {
                let header: Range<Int>
                let entryBody: Range<Int>
                do {
                    header = try reader.frame("header", length: "header length")
                    entryBody = try reader.frame("body", length: "body length")
                } catch {
                    var located = error
                    located.path.insert("batch entry \(index + 1)", at: 0)
                    throw located
                }
                do {
                    deliver(.success(try WireMessage.decode(header: body, header, body: body, entryBody)))
                } catch {
                    var located = error
                    located.path.insert("batch entry \(index + 1)", at: 0)
                    deliver(.failure(located))
                }
            }
        } catch {
            deliver(.failure(error))
        }
    }

    /// Strictly decodes a whole BATCH: its entries, or the first reason one cannot be read.
    public static func decode(_ frames: [[UInt8]]) throws(WireError) -> [WireMessage] {
        guard frames.count == 2 else { throw WireError(part: .message, reason: .frameCount(frames.count)) }
        let header = try WireHeader.decode(frames[0])
        guard header.command == .batch else {
            throw WireError(part: .header, offset: WireHeader.commandOffset, reason: .limitExceeded("header: expected a BATCH, got \(header.command)"))
        }
        var messages: [WireMessage] = []
        var failure: WireError?
        decodeEach(frames) { result in
            switch result {
            case let .success(message): if failure == nil { messages.append(message) }
            case let .failure(error): if failure == nil { failure = error }
            }
        }
        if let failure { throw failure }
        return messages
    }

    /// True when `frame` starts like a header whose command is BATCH (signature, major version 1,
    /// command 0x60); anything else is decoded as a single message.
    public static func isBatchHeader(_ frame: [UInt8]) -> Bool {
        frame.count >= WireHeader.length && frame[0] == WireHeader.signature[0] && frame[1] == WireHeader.signature[1]
            && frame[2] == WireHeader.currentMajorVersion && frame[WireHeader.commandOffset] == WireCommand.batch.rawValue
    }
}

extension WireReader {
    /// A u32 length and that many bytes: where one frame of a BATCH entry lies in the body.
    mutating func frame(_ what: String, length lengthField: String) throws(WireError) -> Range<Int> {
        let start = offset
        let length = Int(try u32(lengthField))
        guard length <= remaining else {
            throw failure(.pastEnd(field: what, needed: length, left: remaining), at: start)
        }
        let range = absolute(offset..<(offset + length))
        skip(length)
        return range
    }
}
