import TrellisModel

/// One recorded event as the recorder keeps it: plain numbers only, so appending one copies a
/// few words and releases nothing. The router's frequent events (`viewWillTransition`,
/// `sizeForChild`, the two layout callbacks) are stored whole; any other message lives in a side
/// table that `detail` points into. `TraceEvent`s are made from these when they are read.
struct CompactTraceEvent: Sendable {
    enum Code: UInt8, Sendable {
        /// The message is `messages[detail]` of the event's log or chunk.
        case other
        /// `viewWillTransition(to: first)`.
        case viewWillTransition
        /// `sizeForChild(names[detail], parent: first) -> second`.
        case sizeForChild
        case viewWillLayoutSubviews
        case viewDidLayoutSubviews
    }

    // Laid out in 80 bytes: a trace of a million controllers holds four million of these.
    var code: Code
    var hasTransition: Bool
    /// The node of the cause, an index into the recorder's node table; -1 when there is no cause.
    var causeNode: Int16
    /// The receiver: an index into the recorder's name table.
    var controller: UInt32
    var detail: UInt32
    var step: Int32
    var transitionID: Int64
    var lamport: UInt64
    var causeSequence: UInt64
    var time: UInt64
    var first: Size
    var second: Size

    var transition: Int? { hasTransition ? Int(truncatingIfNeeded: transitionID) : nil }
}

/// The names a recorder has interned: controller ids and node names, each once.
struct TraceNameTable: Sendable {
    private(set) var controllers: [ControllerID] = []
    private var controllerIndex: [ControllerID: UInt32] = [:]
    /// Node names; the recorder's own node is first.
    private(set) var nodes: [String]

    init(node: String) {
        nodes = [node]
    }

    mutating func intern(_ id: ControllerID) -> UInt32 {
        if let index = controllerIndex[id] { return index }
        let index = UInt32(truncatingIfNeeded: controllers.count)
        controllers.append(id)
        controllerIndex[id] = index
        return index
    }

    /// The node table index of `node`; the recorder's own node is 0. A run has a handful of
    /// nodes; past Int16's range (never in practice) the last index is reused rather than trap.
    mutating func nodeIndex(_ node: String) -> Int16 {
        if node == nodes[0] { return 0 }
        if let index = nodes.firstIndex(of: node) { return Int16(clamping: index) }
        if nodes.count <= Int(Int16.max) { nodes.append(node) }
        return Int16(clamping: nodes.count - 1)
    }
}

/// Events in the order they were recorded, with the messages the compact form does not hold.
/// Kept in chunks of fixed capacity, so a growing trace is never copied to a larger buffer; an
/// event's sequence number is `firstSequence` plus its position.
struct CompactTraceLog: Sendable {
    static let chunkCapacity = 16_384

    /// Full chunks, then `current`.
    private var full: [[CompactTraceEvent]] = []
    private var current: [CompactTraceEvent] = []
    private(set) var count = 0
    var firstSequence: UInt64
    var messages: [TraceMessage] = []

    init(firstSequence: UInt64) {
        self.firstSequence = firstSequence
    }

    var isEmpty: Bool { count == 0 }

    mutating func append(buffers: TraceChunkPool, _ event: CompactTraceEvent) {
        // A chunk holds exactly `chunkCapacity` events (the subscript relies on it).
        if current.count == Self.chunkCapacity {
            full.append(current)
            current = []
        }
        if current.capacity == 0 { current = buffers.take() }
        current.append(event)
        count += 1
    }

    /// Moves the chunks out, in order, leaving the log empty.
    mutating func takeChunks() -> [[CompactTraceEvent]] {
        var all = full
        full = []
        if !current.isEmpty { all.append(current) }
        current = []
        count = 0
        return all
    }

    /// The events in order, chunk by chunk.
    var chunks: [[CompactTraceEvent]] { current.isEmpty ? full : full + [current] }

    subscript(position: Int) -> CompactTraceEvent {
        let chunk = position / Self.chunkCapacity
        return chunk < full.count ? full[chunk][position % Self.chunkCapacity] : current[position - full.count * Self.chunkCapacity]
    }

    /// The full event: names and messages looked up.
    func event(at position: Int, controllers: [ControllerID], nodes: [String]) -> TraceEvent {
        Self.event(self[position], sequence: firstSequence + UInt64(position), messages: messages, controllers: controllers, nodes: nodes)
    }

    static func event(
        _ compact: CompactTraceEvent, sequence: UInt64, messages: [TraceMessage], controllers: [ControllerID], nodes: [String]
    ) -> TraceEvent {
        let message: TraceMessage
        switch compact.code {
        case .other: message = messages[Int(compact.detail)]
        case .viewWillTransition: message = .viewWillTransition(to: compact.first)
        case .sizeForChild: message = .sizeForChild(child: controllers[Int(compact.detail)], parent: compact.first, answer: compact.second)
        case .viewWillLayoutSubviews: message = .layout(.viewWillLayoutSubviews)
        case .viewDidLayoutSubviews: message = .layout(.viewDidLayoutSubviews)
        }
        let cause = compact.causeNode < 0 ? nil : EventRef(node: nodes[Int(compact.causeNode)], sequence: compact.causeSequence)
        return TraceEvent(
            id: EventRef(node: nodes[0], sequence: sequence), lamport: compact.lamport, cause: cause,
            controller: controllers[Int(compact.controller)], transition: compact.transition, step: Int(compact.step),
            message: message, time: compact.time)
    }
}
