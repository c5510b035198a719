import TrellisModel
import TrellisTrace

/// The trace of the traced floor (`TracedPlainNode`): the records a `TraceRecorder` with
/// `.memory` storage keeps for a size transition — `CompactTraceEvent`s with the same sequence
/// numbers, causes, Lamport offsets, transition ids, interned controllers and sizes, and the
/// coarse clock read at the same calls and kept as time runs — appended to a buffer allocated
/// once, by one thread: no lock, no chunks, no other storages. What is left is the least a walk
/// that keeps Trellis's trace must do, so Trellis's traced walk is measured against it.
struct PlainTrace {
    /// One round's events; emptied, not freed, between rounds.
    private(set) var events: [CompactTraceEvent] = []
    /// From `position` on, events happened at `time` (as `CompactTraceLog`'s time runs).
    private(set) var times: [(position: Int, time: UInt64)] = []
    private var lastTime: UInt64?
    /// The sizes the events carry, interned as the recorder interns them.
    private(set) var sizes: [Size] = []
    /// The last two sizes interned, most recent first, by bits (as `TraceTables`).
    private var mostRecentSize: (width: UInt64, height: UInt64, index: UInt32)?
    private var previousSize: (width: UInt64, height: UInt64, index: UInt32)?
    /// The sequence number of `events[0]`.
    private(set) var firstSequence: UInt64
    private var nextSequence: UInt64
    private var lamport: UInt64
    /// The transition the walk's events belong to.
    private(set) var transition: Int32
    private let start = PlainTrace.monotonicNanoseconds()

    /// A buffer with room for `capacity` events, its first event numbered `firstSequence`, in
    /// transition `transition`.
    init(capacity: Int, firstSequence: UInt64 = 1, transition: Int32 = 0) {
        events.reserveCapacity(capacity)
        times.reserveCapacity(1024)
        self.firstSequence = firstSequence
        nextSequence = firstSequence
        lamport = firstSequence &- 1
        self.transition = transition
    }

    /// Starts the next transition in an emptied buffer (its memory kept): the numbers go on.
    mutating func beginTransition() {
        events.removeAll(keepingCapacity: true)
        times.removeAll(keepingCapacity: true)
        lastTime = nil
        firstSequence = nextSequence
        transition &+= 1
    }

    /// `viewWillTransition(to: size)` received by `controller`; returns the event's sequence.
    @inline(__always)
    mutating func recordViewWillTransition(to size: Size, controller: UInt32, cause: UInt64?) -> UInt64 {
        let time = elapsedNanoseconds()
        return append(.viewWillTransition, controller, detail: 0, cause: cause, hasTransition: true, intern(size), 0, time: time)
    }

    /// `controller` answering `size(forChild: child, parent:)` with `answer`.
    @inline(__always)
    mutating func recordSizeForChild(_ child: UInt32, parent: Size, answer: Size, controller: UInt32, cause: UInt64?) {
        let time = elapsedNanoseconds()
        let first = intern(parent), second = intern(answer)
        append(.sizeForChild, controller, detail: child, cause: cause, hasTransition: true, first, second, time: time)
    }

    /// `viewWillLayoutSubviews` with the pass's frame, then `viewDidLayoutSubviews`; returns the first.
    @inline(__always)
    mutating func recordLayoutPair(controller: UInt32, frame: Rect, cause: UInt64?) -> UInt64 {
        let time = elapsedNanoseconds()
        let size = intern(frame.size)
        let (detail, origin) = frame.origin == .zero
            ? (CompactTraceEvent.frameAtZero, UInt32(0))
            : (CompactTraceEvent.frameWithOrigin, intern(Size(frame.origin.x, frame.origin.y)))
        let will = append(.viewWillLayoutSubviews, controller, detail: detail, cause: cause, hasTransition: false, origin, size, time: time)
        append(.viewDidLayoutSubviews, controller, detail: 0, cause: cause, hasTransition: false, 0, 0, time: time)
        return will
    }

    @inline(__always)
    @discardableResult
    private mutating func append(
        _ code: CompactTraceEvent.Code, _ controller: UInt32, detail: UInt32, cause: UInt64?, hasTransition: Bool,
        _ first: UInt32, _ second: UInt32, time: UInt64
    ) -> UInt64 {
        let sequence = nextSequence
        nextSequence &+= 1
        lamport &+= 1
        if lastTime != time {
            times.append((events.count, time))
            lastTime = time
        }
        events.append(CompactTraceEvent(
            code: code, hasTransition: hasTransition, causeNode: cause == nil ? -1 : 0, controller: controller, detail: detail, step: 0,
            transitionID: hasTransition ? transition : 0, lamportOffset: UInt32(truncatingIfNeeded: lamport &- sequence),
            causeSequence: cause ?? 0, first: first, second: second))
        return sequence
    }

    /// The size table index of `size`, compared bit for bit (as `TraceTables.intern`).
    @inline(__always)
    private mutating func intern(_ size: Size) -> UInt32 {
        let width = size.width.bitPattern, height = size.height.bitPattern
        if let recent = mostRecentSize, recent.width == width, recent.height == height { return recent.index }
        if let previous = previousSize, previous.width == width, previous.height == height {
            previousSize = mostRecentSize
            mostRecentSize = previous
            return previous.index
        }
        let index = sizes.firstIndex { $0.width.bitPattern == width && $0.height.bitPattern == height }
            .map { UInt32(truncatingIfNeeded: $0) } ?? append(size)
        previousSize = mostRecentSize
        mostRecentSize = (width, height, index)
        return index
    }

    private mutating func append(_ size: Size) -> UInt32 {
        sizes.append(size)
        return UInt32(truncatingIfNeeded: sizes.count - 1)
    }

    /// The events as a recorder's reader makes them (times 0), with `controllers` the names
    /// the walk's controller indices stand for.
    func traceEvents(controllers: [ControllerID], node: String) -> [TraceEvent] {
        CompactTraceLog.events(events, firstSequence: firstSequence, tables: TraceTables.Snapshot(controllers: controllers, nodes: [node], sizes: sizes))
    }

    @inline(__always)
    private func elapsedNanoseconds() -> UInt64 {
        Self.monotonicNanoseconds() &- start
    }

    /// The recorder's own clock, the coarse monotonic one.
    @inline(__always)
    static func monotonicNanoseconds() -> UInt64 {
        TraceRecorder.monotonicNanoseconds()
    }
}
