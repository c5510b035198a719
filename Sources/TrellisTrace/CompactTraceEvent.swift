import TrellisModel

/// One recorded event as the recorder keeps it: 40 bytes of plain numbers, so appending one
/// copies five words and releases nothing. A trace of a million controllers holds four million
/// of these, and every byte of them is memory the router writes on its hot path.
///
/// The router's frequent events (`viewWillTransition`, `sizeForChild`, the two layout
/// callbacks) are stored whole, with names and sizes as indices into the recorder's
/// `TraceTables`, the Lamport clock as its distance from the sequence number, and the time in the
/// log's time runs. Any other event — or a frequent one whose numbers do not fit — is `.other`:
/// its message and clocks are in the log's side table at `detail`. `TraceEvent`s are made from
/// these when they are read.
///
/// Public, with no public members, only so that the capture encoders in TrellisTraceFiles can
/// inline what they use of it for every event (the compiler inlines across modules only from a
/// public type); the same holds for `CompactTraceLog`.
public struct CompactTraceEvent: Sendable {
    @usableFromInline
    package enum Code: UInt8, Sendable {
        /// The message, Lamport clock, step and transition are `others[detail]` of the log.
        case other
        /// `viewWillTransition(to: sizes[first])`.
        case viewWillTransition
        /// `sizeForChild(controllers[detail], parent: sizes[first]) -> sizes[second]`.
        case sizeForChild
        /// `viewWillLayoutSubviews` / `viewDidLayoutSubviews`; `detail` says whether they carry a
        /// frame (`frameAtZero`, `frameWithOrigin`), whose size is `sizes[second]` and origin
        /// (0,0) or `sizes[first]` (x as width, y as height).
        case viewWillLayoutSubviews
        case viewDidLayoutSubviews
    }

    @usableFromInline package var code: Code
    @usableFromInline package var hasTransition: Bool
    /// The node of the cause, an index into the node table; -1 when there is no cause.
    @usableFromInline package var causeNode: Int16
    /// The receiver: an index into the controller table.
    @usableFromInline package var controller: UInt32
    @usableFromInline package var detail: UInt32
    @usableFromInline package var step: Int32
    @usableFromInline package var transitionID: Int32
    /// The Lamport clock minus the sequence number (it only grows: both count every event, and
    /// the clock also jumps past clocks received from other nodes).
    @usableFromInline package var lamportOffset: UInt32
    @usableFromInline package var causeSequence: UInt64
    /// Indices into the size table.
    @usableFromInline package var first: UInt32
    @usableFromInline package var second: UInt32

    /// Package-wide and inlinable: the bench's traced floor (`TracedPlainNode`, TrellisBench)
    /// makes the same records as the recorder, as cheaply as the recorder makes them.
    @inlinable
    package init(
        code: Code, hasTransition: Bool, causeNode: Int16, controller: UInt32, detail: UInt32, step: Int32, transitionID: Int32,
        lamportOffset: UInt32, causeSequence: UInt64, first: UInt32, second: UInt32
    ) {
        self.code = code
        self.hasTransition = hasTransition
        self.causeNode = causeNode
        self.controller = controller
        self.detail = detail
        self.step = step
        self.transitionID = transitionID
        self.lamportOffset = lamportOffset
        self.causeSequence = causeSequence
        self.first = first
        self.second = second
    }

    @inlinable
    package var transition: Int? { hasTransition ? Int(transitionID) : nil }

    /// A layout event's `detail`: a frame at (0,0), or a frame whose origin is `first`.
    @inlinable package static var frameAtZero: UInt32 { 1 }
    @inlinable package static var frameWithOrigin: UInt32 { 2 }

    /// A layout event's frame, if it carries one.
    func frame(sizes: [Size]) -> Rect? {
        switch detail {
        case Self.frameAtZero: return Rect(sizes[Int(second)])
        case Self.frameWithOrigin:
            let origin = sizes[Int(first)]
            return Rect(origin: Point(x: origin.width, y: origin.height), size: sizes[Int(second)])
        default: return nil
        }
    }
}

/// What an `.other` event holds besides its compact fields.
struct OtherTraceEvent: Sendable {
    var message: TraceMessage
    var lamport: UInt64
    var step: Int
    var transition: Int?
}

/// What a recorder has interned: controller ids, node names and sizes, each once.
package struct TraceTables: Sendable {
    private(set) var controllers: [ControllerID] = []
    /// Where each of `controllers` is in it.
    private var controllerIndex = ControllerNameIndex()
    /// Node names; the recorder's own node is first.
    private(set) var nodes: [String]
    /// The sizes events carry: a transition has a handful of distinct ones.
    private(set) var sizes: [Size] = []
    /// Keyed by bits, so that -0 and NaN are kept as they are.
    private var sizeIndex: [SizeBits: UInt32] = [:]
    /// The last two sizes interned, most recent first: consecutive events almost always carry
    /// them again.
    private var mostRecentSize: (bits: SizeBits, index: UInt32)?
    private var previousSize: (bits: SizeBits, index: UInt32)?

    /// `nodes[0]`, kept beside the array: almost every cause is the recorder's own node, and
    /// comparing with this reads no memory of the array's.
    private let ownNode: String

    init(node: String) {
        nodes = [node]
        ownNode = node
    }

    mutating func reserveNames(_ count: Int) {
        controllers.reserveCapacity(controllers.count + count)
        controllerIndex.reserve(controllers.count + count, names: controllers)
    }

    /// The index of `id` if it was interned; interns nothing.
    func index(of id: ControllerID) -> UInt32? { controllerIndex.position(of: id, in: controllers) }

    mutating func intern(_ id: ControllerID) -> UInt32 {
        if let index = controllerIndex.position(of: id, in: controllers) { return index }
        let index = UInt32(truncatingIfNeeded: controllers.count)
        controllers.append(id)
        controllerIndex.appendLast(of: controllers)
        return index
    }

    /// The node table index of `node`; the recorder's own node is 0. A run has a handful of
    /// nodes (a node refuses a CALL whose cause names none of them); past Int16's range, which
    /// only a caller of the recorder inventing node names could reach, the last index is reused
    /// rather than trap.
    @inline(__always)
    mutating func nodeIndex(_ node: String) -> Int16 {
        if node == ownNode { return 0 }
        return otherNodeIndex(node)
    }

    /// `nodeIndex` of a node other than the recorder's own: outlined, as it is rare (a cause on
    /// another node), so that the usual check inlines into every recording call.
    @inline(never)
    private mutating func otherNodeIndex(_ node: String) -> Int16 {
        if let index = nodes.firstIndex(of: node) { return Int16(clamping: index) }
        if nodes.count <= Int(Int16.max) { nodes.append(node) }
        return Int16(clamping: nodes.count - 1)
    }

    /// The size table index of `size`. Sizes compare bit for bit, so -0 and NaN keep their bits.
    @inline(__always)
    mutating func intern(_ size: Size) -> UInt32 {
        let key = SizeBits(width: size.width.bitPattern, height: size.height.bitPattern)
        if let recent = mostRecentSize, recent.bits == key { return recent.index }
        return intern(other: key, size)
    }

    /// `intern` of a size other than the most recent one: outlined, so that the usual check (a
    /// walk interns the same few sizes over and over) inlines into every recording call.
    @inline(never)
    private mutating func intern(other key: SizeBits, _ size: Size) -> UInt32 {
        if let previous = previousSize, previous.bits == key {
            previousSize = mostRecentSize
            mostRecentSize = previous
            return previous.index
        }
        let index: UInt32
        if let known = sizeIndex[key] {
            index = known
        } else {
            index = UInt32(truncatingIfNeeded: sizes.count)
            sizes.append(size)
            sizeIndex[key] = index
        }
        previousSize = mostRecentSize
        mostRecentSize = (key, index)
        return index
    }

    private struct SizeBits: Hashable {
        var width: UInt64
        var height: UInt64
    }

    /// The tables as they are now, for a chunk handed to a file writer.
    var snapshot: Snapshot { Snapshot(controllers: controllers, nodes: nodes, sizes: sizes) }

    /// The tables an event's indices refer to, frozen.
    package struct Snapshot: Sendable {
        package var controllers: [ControllerID]
        package var nodes: [String]
        package var sizes: [Size]

        /// Package-wide: tables kept outside a recorder (the bench's traced floor's).
        package init(controllers: [ControllerID], nodes: [String], sizes: [Size]) {
            self.controllers = controllers
            self.nodes = nodes
            self.sizes = sizes
        }
    }
}

/// Events in the order they were recorded, with what the compact form does not hold: the
/// `.other` events' side table and the times. Kept in chunks of fixed capacity, so a growing
/// trace is never copied to a larger buffer; an event's sequence number is `firstSequence` plus
/// its position.
public struct CompactTraceLog: Sendable {
    static let chunkCapacity = 16_384

    /// From `position` on, events happened at `time` (until the next run): the clock a recorder
    /// reads changes every few milliseconds, so a time per event would mostly repeat.
    @usableFromInline
    struct TimeRun: Sendable {
        @usableFromInline var position: Int
        @usableFromInline var time: UInt64
    }

    /// Full chunks, then `current`.
    @usableFromInline var full: [[CompactTraceEvent]] = []
    @usableFromInline var current: [CompactTraceEvent] = []
    package private(set) var count = 0
    @usableFromInline var firstSequence: UInt64
    var others: [OtherTraceEvent] = []
    @usableFromInline private(set) var times: [TimeRun] = []
    /// The time of the last run, beside the array: the check on every append then reads no
    /// memory of the array's own (a cache line the router's walk has usually evicted).
    private var lastTime: UInt64?

    init(firstSequence: UInt64) {
        self.firstSequence = firstSequence
    }

    var isEmpty: Bool { count == 0 }

    /// Inlined into the recorder's calls, the rare work outlined (`makeRoom`): passed to a
    /// function, the event went through the stack, written field by field and read back in wider
    /// loads that the processor cannot forward from those stores — the stalls were half of this
    /// function's samples, the function a quarter of a traced walk's (issue 27 item 9, second pass).
    @inline(__always)
    mutating func append(buffers: TraceChunkPool, _ event: CompactTraceEvent, time: UInt64) {
        if lastTime != time || current.count == Self.chunkCapacity || current.capacity == 0 {
            makeRoom(buffers: buffers, time: time)
        }
        current.append(event)
        count += 1
    }

    /// What an append needs now and then: a new time run, a new chunk.
    @inline(never)
    private mutating func makeRoom(buffers: TraceChunkPool, time: UInt64) {
        if lastTime != time {
            times.append(TimeRun(position: count, time: time))
            lastTime = time
        }
        // A chunk holds exactly `chunkCapacity` events (the subscript relies on it).
        if current.count == Self.chunkCapacity {
            full.append(current)
            current = []
        }
        if current.capacity == 0 { current = buffers.take() }
    }

    /// Moves the chunks out, in order, leaving the log empty.
    package mutating func takeChunks() -> [[CompactTraceEvent]] {
        var all = full
        full = []
        if !current.isEmpty { all.append(current) }
        current = []
        count = 0
        return all
    }

    /// The events in order, chunk by chunk.
    @inlinable
    package var chunks: [[CompactTraceEvent]] { current.isEmpty ? full : full + [current] }

    subscript(position: Int) -> CompactTraceEvent {
        let chunk = position / Self.chunkCapacity
        return chunk < full.count ? full[chunk][position % Self.chunkCapacity] : current[position - full.count * Self.chunkCapacity]
    }

    /// The full events from `position` on.
    func events(from position: Int, tables: TraceTables.Snapshot) -> [TraceEvent] {
        guard position < count else { return [] }
        var run = max(0, timeRun(containing: position))
        return (position..<count).map { index in
            while run + 1 < times.count && times[run + 1].position <= index { run += 1 }
            return event(self[index], sequence: firstSequence + UInt64(index), time: times.isEmpty ? 0 : times[run].time, tables: tables)
        }
    }

    /// The index of the time run that covers `position` (-1 when there is none).
    private func timeRun(containing position: Int) -> Int {
        var low = 0, high = times.count - 1, found = -1
        while low <= high {
            let middle = (low + high) / 2
            if times[middle].position <= position {
                found = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        return found
    }

    /// Visits every event in order with its sequence number and time (inlined into the capture
    /// encoders, which call it for every event of a file trace).
    @inlinable
    package func forEach(_ body: (CompactTraceEvent, _ sequence: UInt64, _ time: UInt64) -> Void) {
        var position = 0
        var run = 0
        for events in chunks {
            for event in events {
                while run + 1 < times.count && times[run + 1].position <= position { run += 1 }
                body(event, firstSequence + UInt64(position), times.isEmpty ? 0 : times[run].time)
                position += 1
            }
        }
    }

    /// Compact events made outside a recorder (by the bench's traced floor), numbered from
    /// `firstSequence`, read as a recorder reads its own: so that the bench can check they are
    /// the events the recorder keeps. They have no times (0), and an `.other` event, whose
    /// message would be in a side table they do not have, is left out (the check then fails).
    package static func events(_ compact: [CompactTraceEvent], firstSequence: UInt64, tables: TraceTables.Snapshot) -> [TraceEvent] {
        let log = CompactTraceLog(firstSequence: firstSequence)
        return compact.indices.compactMap { index in
            guard compact[index].code != .other else { return nil }
            return log.event(compact[index], sequence: firstSequence &+ UInt64(index), time: 0, tables: tables)
        }
    }

    /// The full event: names, sizes and side-table entries looked up.
    package func event(_ compact: CompactTraceEvent, sequence: UInt64, time: UInt64, tables: TraceTables.Snapshot) -> TraceEvent {
        let message: TraceMessage
        var lamport = sequence &+ UInt64(compact.lamportOffset)
        var step = Int(compact.step)
        var transition = compact.transition
        switch compact.code {
        case .other:
            let other = others[Int(compact.detail)]
            message = other.message
            lamport = other.lamport
            step = other.step
            transition = other.transition
        case .viewWillTransition:
            message = .viewWillTransition(to: tables.sizes[Int(compact.first)])
        case .sizeForChild:
            message = .sizeForChild(
                child: tables.controllers[Int(compact.detail)], parent: tables.sizes[Int(compact.first)], answer: tables.sizes[Int(compact.second)])
        case .viewWillLayoutSubviews: message = .layout(.viewWillLayoutSubviews, frame: compact.frame(sizes: tables.sizes))
        case .viewDidLayoutSubviews: message = .layout(.viewDidLayoutSubviews, frame: compact.frame(sizes: tables.sizes))
        }
        let cause = compact.causeNode < 0 ? nil : EventRef(node: tables.nodes[Int(compact.causeNode)], sequence: compact.causeSequence)
        return TraceEvent(
            id: EventRef(node: tables.nodes[0], sequence: sequence), lamport: lamport, cause: cause,
            controller: tables.controllers[Int(compact.controller)], transition: transition, step: step,
            message: message, time: time)
    }
}
