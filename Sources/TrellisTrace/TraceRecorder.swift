import Glibc
import Synchronization
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
        /// Written to a capture file (JSON Lines): handed to the writer in chunks, formatted
        /// and written on the writer's own thread; nothing kept in memory. Call `flush()` before
        /// closing the writer.
        case file(TraceFileWriter)
    }

    public let storage: Storage

    private struct State {
        var log = CompactTraceLog(firstSequence: 1)
        var names: TraceNameTable
        var recorded = 0
        var nextSequence: UInt64 = 1
        var lamport: UInt64 = 0
        var step = 0
    }

    private let state: Mutex<State>
    private let buffers = TraceChunkPool()
    private let start = TraceRecorder.monotonicNanoseconds()
    /// Events a file recorder collects before handing them to its writer's thread.
    static let fileChunkSize = CompactTraceLog.chunkCapacity

    public init(node: String = "main", runID: String = "run", storage: Storage = .memory) {
        self.node = node
        self.runID = runID
        self.storage = storage
        state = Mutex(State(names: TraceNameTable(node: node)))
    }

    /// The interned form of `id`, for the recording methods that take a `TraceName`.
    public func intern(_ id: ControllerID) -> TraceName {
        TraceName(index: state.withLock { $0.names.intern(id) })
    }

    /// Records one event and returns its identity, to be passed as the cause of what it leads to.
    @discardableResult
    public func record(
        _ message: TraceMessage, controller: ControllerID, cause: EventRef?, transition: Int? = nil
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            appendOther(message, state.names.intern(controller), cause: cause, transition: transition, time: time, to: &state)
        }
    }

    /// Appends an event whose message the compact form does not hold: it goes to the side table.
    private func appendOther(
        _ message: TraceMessage, _ controller: UInt32, cause: EventRef?, transition: Int?, time: UInt64, to state: inout State
    ) -> EventRef {
        let detail = UInt32(truncatingIfNeeded: state.log.messages.count)
        if case .discard = storage {} else { state.log.messages.append(message) }
        return append(.other, controller, detail: detail, cause: cause, transition: transition, .zero, .zero, time: time, to: &state)
    }

    /// Records `viewWillTransition(to: size)` received by `controller`.
    @discardableResult
    public func recordViewWillTransition(to size: Size, controller: TraceName, cause: EventRef?, transition: Int?) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            append(.viewWillTransition, controller.index, detail: 0, cause: cause, transition: transition, size, .zero, time: time, to: &state)
        }
    }

    /// Records `controller` answering `size(forChild: child, parent:)` with `answer`.
    @discardableResult
    public func recordSizeForChild(
        _ child: TraceName, parent: Size, answer: Size, controller: TraceName, cause: EventRef?, transition: Int?
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            append(.sizeForChild, controller.index, detail: child.index, cause: cause, transition: transition, parent, answer, time: time, to: &state)
        }
    }

    /// Records a view controller's layout callback.
    @discardableResult
    public func recordLayout(_ callback: LayoutCallback, controller: TraceName, cause: EventRef?) -> EventRef {
        let code: CompactTraceEvent.Code
        switch callback {
        case .viewWillLayoutSubviews: code = .viewWillLayoutSubviews
        case .viewDidLayoutSubviews: code = .viewDidLayoutSubviews
        case .containerViewWillLayoutSubviews, .containerViewDidLayoutSubviews:
            let time = elapsedNanoseconds()
            return state.withLock { appendOther(.layout(callback), controller.index, cause: cause, transition: nil, time: time, to: &$0) }
        }
        let time = elapsedNanoseconds()
        return state.withLock { state in
            append(code, controller.index, detail: 0, cause: cause, transition: nil, .zero, .zero, time: time, to: &state)
        }
    }

    /// Records `viewWillLayoutSubviews` and `viewDidLayoutSubviews` of one controller whose
    /// callbacks do nothing in between, under one lock; returns the first.
    @discardableResult
    public func recordLayoutPair(controller: TraceName, cause: EventRef?) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            let will = append(.viewWillLayoutSubviews, controller.index, detail: 0, cause: cause, transition: nil, .zero, .zero, time: time, to: &state)
            append(.viewDidLayoutSubviews, controller.index, detail: 0, cause: cause, transition: nil, .zero, .zero, time: time, to: &state)
            return will
        }
    }

    @inline(__always)
    @discardableResult
    private func append(
        _ code: CompactTraceEvent.Code, _ controller: UInt32, detail: UInt32, cause: EventRef?, transition: Int?,
        _ first: Size, _ second: Size, time: UInt64, to state: inout State
    ) -> EventRef {
        let sequence = state.nextSequence
        state.nextSequence += 1
        state.lamport += 1
        state.recorded += 1
        if case .discard = storage { return EventRef(node: node, sequence: sequence) }
        var causeNode: Int16 = -1
        var causeSequence: UInt64 = 0
        if let cause {
            causeNode = state.names.nodeIndex(cause.node)
            causeSequence = cause.sequence
        }
        state.log.append(buffers: buffers, CompactTraceEvent(
            code: code, hasTransition: transition != nil, causeNode: causeNode, controller: controller, detail: detail,
            step: Int32(clamping: state.step), transitionID: Int64(transition ?? 0), lamport: state.lamport,
            causeSequence: causeSequence, time: time, first: first, second: second))
        if case let .file(writer) = storage, state.log.count >= Self.fileChunkSize {
            handOver(to: writer, &state)
        }
        return EventRef(node: node, sequence: sequence)
    }

    private func handOver(to writer: TraceFileWriter, _ state: inout State) {
        guard !state.log.isEmpty else { return }
        var log = CompactTraceLog(firstSequence: state.nextSequence)
        swap(&log, &state.log)
        writer.write(TraceChunk(log: log, controllers: state.names.controllers, nodes: state.names.nodes, runID: runID, buffers: buffers))
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
    public func observe(lamport received: UInt64) {
        state.withLock { $0.lamport = max($0.lamport, received) }
    }

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
            let first = min(max(0, count), state.log.count)
            return (first..<state.log.count).map { state.log.event(at: $0, controllers: state.names.controllers, nodes: state.names.nodes) }
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
    /// the clock for every event.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return UInt64(max(0, now.tv_sec)) &* 1_000_000_000 &+ UInt64(max(0, now.tv_nsec))
    }
}
