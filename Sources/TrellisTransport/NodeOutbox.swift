import TrellisWire

/// The messages Swift code has queued for one peer since the I/O thread last took them, packed
/// into BATCH bodies (TWP/1 §7.9) as they are queued. Packing on the sending thread means the
/// I/O thread hands libzmq one message per burst, and a message is encoded straight into the
/// batch, with no frames of its own. Only what is already queued is packed: the I/O thread
/// takes everything at its next wake-up, so batching never delays a message.
struct NodeOutbox {
    /// Messages larger than this leave alone: packing them would only add a copy.
    static let largestBatched = 16 << 10
    /// A batch stops growing at about this many bytes (well below any receiver's size limit).
    static let batchBytes = 256 << 10

    /// One ZeroMQ message to be: a BATCH body being filled, or a message that leaves alone.
    struct Chunk {
        /// A BATCH body (`WireBatch.startBody`) and how many entries it holds.
        var body: [UInt8] = []
        var count = 0
        /// A message that leaves alone, as its frames (large, SETUP or TRACE-DATA, batching is
        /// off, or a message that had nothing to join when it was queued).
        var single: [[UInt8]]?
        /// `single` is a small message that the next one may join in a batch: a lone message
        /// (a CALL's RETURN, say) is encoded straight into its frames, never into a batch body
        /// it would then be copied out of.
        var joinable = false

        /// The frames to send, moved out of the chunk. A batch always holds two entries or more:
        /// a message with nothing to join leaves as a (joinable) single message.
        mutating func takeFrames() -> [[UInt8]] {
            if let single { return single }
            WireBatch.finish(&body, count: count)
            var taken: [UInt8] = []
            swap(&taken, &body)
            return [WireBatch.header, taken]
        }
    }

    /// The peer these messages go to.
    let peer: String
    let batching: Bool
    /// The room a new batch starts with: the size the last batches reached, so that a burst
    /// fills one allocation instead of growing (and copying) its body a dozen times.
    let batchCapacity: Int
    var chunks: [Chunk] = []
    /// A message other than HELLO is queued: it goes to a peer known to be up, whose silence
    /// counts from then on even if it was never heard (TWP/1 §9.5). HELLO alone may precede the
    /// peer itself: a worker greets a conductor that may not be started yet.
    private(set) var assumesPeerUp = false

    init(peer: String, batching: Bool, batchCapacity: Int = 1024) {
        self.peer = peer
        self.batching = batching
        self.batchCapacity = min(max(batchCapacity, 1024), Self.batchBytes + Self.largestBatched)
    }

    /// The largest body among the batches queued: the capacity hint for the next outboxes.
    var largestBatch: Int {
        var largest = 0
        for chunk in chunks where chunk.single == nil { largest = max(largest, chunk.body.count) }
        return largest
    }

    /// Hands each chunk's frames to `send`, in order, emptying the outbox. The chunks are
    /// finished in place: a body shared with another copy of the outbox would be copied whole
    /// when its entry count is written.
    mutating func drain(_ send: ([[UInt8]]) -> Void) {
        for index in chunks.indices { send(chunks[index].takeFrames()) }
        chunks.removeAll()
    }

    /// Queues `message` after those queued before it, encoding it into the open batch (or, the
    /// first one, into frames of its own).
    mutating func append(_ message: WireMessage) {
        if !assumesPeerUp, message.header.command != .hello { assumesPeerUp = true }
        switch message.body {
        case .setup, .traceData, .compactTraceData:
            // The bodies that can be megabytes: they leave alone, whatever their size (§7.9).
            chunks.append(Chunk(single: message.encode()))
            return
        default:
            break
        }
        guard batching else {
            chunks.append(Chunk(single: message.encode()))
            return
        }
        guard let last = batchToJoin() else {
            chunks.append(Chunk(single: message.encode(), joinable: true))
            return
        }
        WireBatch.append(message, to: &chunks[last].body)
        chunks[last].count += 1
    }

    /// Queues a message already encoded as its two frames.
    mutating func append(_ frames: [[UInt8]]) {
        if !assumesPeerUp, let header = frames.first, header.count > WireHeader.commandOffset,
           header[WireHeader.commandOffset] != WireCommand.hello.rawValue {
            assumesPeerUp = true
        }
        let size = WireBatch.entrySize(frames)
        // A BATCH already packed leaves as it is: a sender never nests one in another (§7.9).
        guard batching, frames.count == 2, size <= Self.largestBatched, !WireBatch.isBatchHeader(frames[0]) else {
            chunks.append(Chunk(single: frames))
            return
        }
        guard let last = batchToJoin() else {
            chunks.append(Chunk(single: frames, joinable: true))
            return
        }
        WireBatch.append(frames, to: &chunks[last].body)
        chunks[last].count += 1
    }

    /// The index of the batch the next message joins: the last chunk when it is a batch with
    /// room, or a joinable single message made the first entry of a new batch. Nil when there is
    /// nothing to join (the outbox is empty, its last batch is full, or its last message must
    /// leave alone): the next message then leaves as a joinable single message itself.
    private mutating func batchToJoin() -> Int? {
        guard let last = chunks.indices.last else { return nil }
        guard let frames = chunks[last].single else {
            return chunks[last].body.count < Self.batchBytes ? last : nil
        }
        guard chunks[last].joinable else { return nil }
        var body = WireBatch.startBody(reservingCapacity: batchCapacity)
        WireBatch.append(frames, to: &body)
        chunks[last] = Chunk(body: body, count: 1)
        return last
    }
}
