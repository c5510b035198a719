#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif
import TrellisModel

/// Collects the events of one node, in the order they happen, safe to call from any actor.
///
/// Each window processes one event at a time, so the order of `record` calls — and therefore
/// the trace — is deterministic; the lock only makes the hand-over between actors safe.
///
/// Events are kept in a compact form (numbers, interned names) and become `TraceEvent`s when
/// read: recording is on the router's hot path, reading is not.
public final class TraceRecorder: Sendable {
    public let node: String
    public let runID: String

    /// Where recorded events go.
    public enum Storage: Sendable {
        /// Kept in memory (the default): `events` returns them.
        case memory
        /// Counted and dropped: for measuring the runtime without the trace's memory.
        case discard
        /// Written to a capture file: handed to the sink (a `TraceFileWriter`) in chunks,
        /// encoded and written on the writer's own thread; nothing kept in memory. Call `flush()`
        /// before closing the writer.
        case file(any TraceChunkSink)

        var discards: Bool {
            if case .discard = self { return true }
            return false
        }
    }

    public let storage: Storage

    private struct State {
        var log = CompactTraceLog(firstSequence: 1)
        var tables: TraceTables
        var recorded = 0
        var nextSequence: UInt64 = 1
        var lamport: UInt64 = 0
        var step = 0
    }

    private let state: SegmentLock<State>
    private let buffers = TraceChunkPool()
    private let start = TraceRecorder.monotonicNanoseconds()
    /// Events a file recorder collects before handing them to its writer's thread.
    static let fileChunkSize = CompactTraceLog.chunkCapacity

    public init(node: String = "main", runID: String = "run", storage: Storage = .memory) {
        self.node = node
        self.runID = runID
        self.storage = storage
        state = SegmentLock(State(tables: TraceTables(node: node)))
    }

    /// Makes room for `count` more controller names at once (a window about to build its
    /// controllers): interned one at a time, the tables doubled and left each outgrown copy
    /// resident, some 40 bytes a controller at 100k (issue 27 item 7).
    public func reserveNames(_ count: Int) {
        state.withLock { $0.tables.reserveNames(count) }
    }

    /// Runs `body`, a segment of recordings on this thread that nothing else of this thread's
    /// waits for (a synchronous walk: `Controller`'s `SynchronousWalk`), holding the recorder's
    /// lock across it: its calls then take no lock each, where a walk took two a controller.
    /// Another thread's calls come before or after the segment's events (or between runs of
    /// `SegmentLock.segmentLength` of them), never among them, and each thread's own events
    /// keep the order of its calls, as without a segment. Segments nest.
    public func recordingSegment(_ body: () -> Void) {
        let began = state.beginSegment()
        defer { state.endSegment(began) }
        body()
    }

    /// The interned form of `id`, for the recording methods that take a `TraceName`.
    public func intern(_ id: ControllerID) -> TraceName {
        TraceName(index: state.withLock { $0.tables.intern(id) })
    }

    /// The interned form of `id` if something interned it, else nil; adds no name, so a table
    /// kept by name position (a window's controllers) can look up an id it holds elsewhere.
    public func internedName(_ id: ControllerID) -> TraceName? {
        state.withLock { $0.tables.index(of: id) }.map { TraceName(index: $0) }
    }

    /// Records one event and returns its identity, to be passed as the cause of what it leads to.
    @discardableResult
    public func record(
        _ message: TraceMessage, controller: ControllerID, cause: EventRef?, transition: Int? = nil
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            appendOther(message, state.tables.intern(controller), cause: cause, transition: transition, time: time, to: &state)
        }
    }

    /// Records `viewWillTransition(to: size)` received by `controller`.
    @discardableResult
    public func recordViewWillTransition(to size: Size, controller: TraceName, cause: EventRef?, transition: Int?) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            appendViewWillTransition(to: size, controller: controller, cause: cause, transition: transition, time: time, to: &state)
        }
    }

    /// Records `controller` answering `size(forChild: child, parent:)` with `answer`.
    @discardableResult
    public func recordSizeForChild(
        _ child: TraceName, parent: Size, answer: Size, controller: TraceName, cause: EventRef?, transition: Int?
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            appendSizeForChild(child, parent: parent, answer: answer, controller: controller, cause: cause, transition: transition, time: time, to: &state)
        }
    }

    /// Records `parent` answering `size(forChild: child, parent: parentSize)` with `answer`, then
    /// `child` receiving `viewWillTransition(to: answer)` with the same cause, under one lock: the
    /// size walk's two events of one edge when nothing can come between them (the child takes the
    /// message synchronously). Returns the second.
    public func recordSizeForChildAndViewWillTransition(
        _ child: TraceName, parent: TraceName, parentSize: Size, answer: Size, cause: EventRef?, transition: Int?
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            appendSizeForChild(child, parent: parentSize, answer: answer, controller: parent, cause: cause, transition: transition, time: time, to: &state)
            return appendViewWillTransition(to: answer, controller: child, cause: cause, transition: transition, time: time, to: &state)
        }
    }

    @inline(__always)
    private func appendViewWillTransition(
        to size: Size, controller: TraceName, cause: EventRef?, transition: Int?, time: UInt64, to state: inout State
    ) -> EventRef {
        let first = state.tables.intern(size)
        return append(.viewWillTransition, controller.index, detail: 0, cause: cause, transition: transition, first, 0, time: time, to: &state)
            ?? appendOther(.viewWillTransition(to: size), controller.index, cause: cause, transition: transition, time: time, to: &state)
    }

    @inline(__always)
    @discardableResult
    private func appendSizeForChild(
        _ child: TraceName, parent: Size, answer: Size, controller: TraceName, cause: EventRef?, transition: Int?, time: UInt64,
        to state: inout State
    ) -> EventRef {
        let first = state.tables.intern(parent), second = state.tables.intern(answer)
        return append(.sizeForChild, controller.index, detail: child.index, cause: cause, transition: transition, first, second, time: time, to: &state)
            ?? appendOther(
                .sizeForChild(child: state.tables.controllers[Int(child.index)], parent: parent, answer: answer), controller.index,
                cause: cause, transition: transition, time: time, to: &state)
    }

    /// Records a layout callback; a view controller's carries the frame its container gave it (R60).
    @discardableResult
    public func recordLayout(_ callback: LayoutCallback, controller: TraceName, frame: Rect? = nil, cause: EventRef?) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            let interned = intern(frame, &state)
            return appendLayout(callback, controller.index, frame: frame, interned: interned, cause: cause, time: time, to: &state)
        }
    }

    /// Records `viewWillLayoutSubviews` (with the pass's frame) and `viewDidLayoutSubviews` of one
    /// controller whose callbacks do nothing in between, under one lock; returns the first.
    @discardableResult
    public func recordLayoutPair(controller: TraceName, frame: Rect, cause: EventRef?) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            let interned = intern(frame, &state)
            let will = appendLayout(.viewWillLayoutSubviews, controller.index, frame: frame, interned: interned, cause: cause, time: time, to: &state)
            appendLayout(.viewDidLayoutSubviews, controller.index, frame: nil, interned: nil, cause: cause, time: time, to: &state)
            return will
        }
    }

    /// A frame as the compact form keeps it (`CompactTraceEvent.frame`): its size interned and,
    /// unless it is the usual (0,0), its origin interned as a size. Nothing is interned for a
    /// trace that keeps nothing.
    private func intern(_ frame: Rect?, _ state: inout State) -> (detail: UInt32, origin: UInt32, size: UInt32)? {
        guard let frame, !storage.discards else { return nil }
        let size = state.tables.intern(frame.size)
        guard frame.origin != .zero else { return (CompactTraceEvent.frameAtZero, 0, size) }
        return (CompactTraceEvent.frameWithOrigin, state.tables.intern(Size(frame.origin.x, frame.origin.y)), size)
    }

    @discardableResult
    private func appendLayout(
        _ callback: LayoutCallback, _ controller: UInt32, frame: Rect?, interned: (detail: UInt32, origin: UInt32, size: UInt32)?,
        cause: EventRef?, time: UInt64, to state: inout State
    ) -> EventRef {
        let code: CompactTraceEvent.Code
        switch callback {
        case .viewWillLayoutSubviews: code = .viewWillLayoutSubviews
        case .viewDidLayoutSubviews: code = .viewDidLayoutSubviews
        case .containerViewWillLayoutSubviews, .containerViewDidLayoutSubviews:
            return appendOther(.layout(callback, frame: frame), controller, cause: cause, transition: nil, time: time, to: &state)
        }
        return append(
            code, controller, detail: interned?.detail ?? 0, cause: cause, transition: nil,
            interned?.origin ?? 0, interned?.size ?? 0, time: time, to: &state)
            ?? appendOther(.layout(callback, frame: frame), controller, cause: cause, transition: nil, time: time, to: &state)
    }

    /// Appends an event whose message the compact form does not hold: it goes to the side table.
    private func appendOther(
        _ message: TraceMessage, _ controller: UInt32, cause: EventRef?, transition: Int?, time: UInt64, to state: inout State
    ) -> EventRef {
        let detail = UInt32(truncatingIfNeeded: state.log.others.count)
        let (sequence, lamport) = advance(&state)
        if case .discard = storage { return EventRef(node: node, sequence: sequence) }
        state.log.others.append(OtherTraceEvent(message: message, lamport: lamport, step: state.step, transition: transition))
        let (causeNode, causeSequence) = causeFields(cause, &state)
        store(CompactTraceEvent(
            code: .other, hasTransition: false, causeNode: causeNode, controller: controller, detail: detail, step: 0, transitionID: 0,
            lamportOffset: 0, causeSequence: causeSequence, first: 0, second: 0), time: time, to: &state)
        return EventRef(node: node, sequence: sequence)
    }

    /// Appends a compact event; nil (and nothing recorded) when its step, transition or clock
    /// do not fit the compact fields — the caller then records it as `.other`.
    @inline(__always)
    private func append(
        _ code: CompactTraceEvent.Code, _ controller: UInt32, detail: UInt32, cause: EventRef?, transition: Int?,
        _ first: UInt32, _ second: UInt32, time: UInt64, to state: inout State
    ) -> EventRef? {
        let step = Int32(truncatingIfNeeded: state.step)
        let transitionID = Int32(truncatingIfNeeded: transition ?? 0)
        let offset = state.lamport &+ 1 &- state.nextSequence
        guard Int(step) == state.step, Int(transitionID) == (transition ?? 0), state.lamport &+ 1 >= state.nextSequence,
              offset <= UInt64(UInt32.max) else { return nil }
        let (sequence, _) = advance(&state)
        if case .discard = storage { return EventRef(node: node, sequence: sequence) }
        let (causeNode, causeSequence) = causeFields(cause, &state)
        store(CompactTraceEvent(
            code: code, hasTransition: transition != nil, causeNode: causeNode, controller: controller, detail: detail, step: step,
            transitionID: transitionID, lamportOffset: UInt32(truncatingIfNeeded: offset), causeSequence: causeSequence,
            first: first, second: second), time: time, to: &state)
        return EventRef(node: node, sequence: sequence)
    }

    /// The next sequence number and Lamport clock.
    @inline(__always)
    private func advance(_ state: inout State) -> (sequence: UInt64, lamport: UInt64) {
        let sequence = state.nextSequence
        state.nextSequence += 1
        state.lamport += 1
        state.recorded += 1
        return (sequence, state.lamport)
    }

    @inline(__always)
    private func causeFields(_ cause: EventRef?, _ state: inout State) -> (Int16, UInt64) {
        guard let cause else { return (-1, 0) }
        return (state.tables.nodeIndex(cause.node), cause.sequence)
    }

    @inline(__always)
    private func store(_ event: CompactTraceEvent, time: UInt64, to state: inout State) {
        state.log.append(buffers: buffers, event, time: time)
        if state.log.count >= Self.fileChunkSize, case let .file(writer) = storage {
            handOver(to: writer, &state)
        }
    }

    private func handOver(to writer: any TraceChunkSink, _ state: inout State) {
        guard !state.log.isEmpty else { return }
        var log = CompactTraceLog(firstSequence: state.nextSequence)
        swap(&log, &state.log)
        let chunk = TraceChunk(log: log, tables: state.tables.snapshot, runID: runID, buffers: buffers)
        // The sink is anyone's code: a call back into the recorder from it traps (`SegmentLock`).
        self.state.callingOut(with: chunk) { writer.write($0) }
    }

    /// Gets memory ready for about `count` more events (a recorder that is about to record a
    /// large trace: a node of a distributed run, say), so that the first transitions do not pay
    /// for page faults. At most a million events' worth; nothing for a discarding recorder.
    public func reserve(events count: Int) {
        if case .discard = storage { return }
        let chunks = (min(max(0, count), 1_000_000) + CompactTraceLog.chunkCapacity - 1) / CompactTraceLog.chunkCapacity
        buffers.prepare(chunks: chunks)
    }

    /// Hands what a file recorder still holds to its writer and waits until the writer wrote
    /// everything it was given. Does nothing for the other storages.
    public func flush() {
        guard case let .file(writer) = storage else { return }
        state.withLock { handOver(to: writer, &$0) }
        writer.waitUntilWritten()
    }

    /// Starts step `number`: records its header; the events after it carry that step number.
    @discardableResult
    public func beginStep(_ number: Int, description: String) -> EventRef {
        state.withLock { $0.step = number }
        return record(.step(number: number, description: description), controller: "window", cause: nil)
    }

    /// Advances the Lamport clock past a clock received from another node.
    /// The clock comes from other processes, any value a peer sends: it is taken up to half the
    /// range at most, so counting on from it can never overflow (a clock that large is not one a
    /// run reaches, only one a broken or hostile peer sends).
    public func observe(lamport received: UInt64) {
        state.withLock { $0.lamport = max($0.lamport, min(received, Self.largestObservedLamport)) }
    }

    /// The largest clock `observe` takes from a peer.
    static let largestObservedLamport = UInt64.max / 2

    /// The Lamport clock now: what a message sent from this node carries.
    public var lamport: UInt64 {
        state.withLock { $0.lamport }
    }

    /// The step the next events belong to, on a node that records no header of its own (a
    /// node serving a step that another node conducts).
    public func enter(step: Int) {
        state.withLock { $0.step = step }
    }

    public var step: Int {
        state.withLock { $0.step }
    }

    /// Every event so far, in order (with `.memory`; the other storages keep none).
    public var events: [TraceEvent] {
        events(after: 0)
    }

    /// The events recorded after the first `count`.
    public func events(after count: Int) -> [TraceEvent] {
        guard case .memory = storage else { return [] }
        return state.withLock { state in
            state.log.events(from: max(0, count), tables: state.tables.snapshot)
        }
    }

    /// How many events are stored (with `.memory`, all recorded ones).
    public var count: Int {
        guard case .memory = storage else { return 0 }
        return state.withLock { $0.log.count }
    }

    /// How many events were recorded, whatever the storage.
    public var recordedCount: Int {
        state.withLock { $0.recorded }
    }

    /// The canonical text of every event so far, one line each.
    public var canonicalLines: [String] {
        events.map(\.canonicalLine)
    }

    private func elapsedNanoseconds() -> UInt64 {
        Self.monotonicNanoseconds() &- start
    }

    /// The coarse monotonic clock (a few milliseconds of resolution, a fraction of the cost of
    /// the precise one): event times are for viewers, never for ordering, and a recorder reads
    /// the clock for every event. Inlinable for the bench's traced floor, which reads the same
    /// clock at the same calls.
    @inlinable @inline(__always)
    package static func monotonicNanoseconds() -> UInt64 {
        #if canImport(Darwin)
        // Darwin's coarse monotonic clock, already in nanoseconds.
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW_APPROX)
        #else
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        #else
        clock_gettime(CLOCK_MONOTONIC, &now)
        #endif
        return UInt64(max(0, now.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, now.tv_nsec))
        #endif
    }
}
