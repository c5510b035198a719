import Glibc
import Synchronization
import TrellisModel

/// Collects the events of one node, in the order they happen, safe to call from any actor.
///
/// Each window processes one event at a time, so the order of `record` calls — and therefore
/// the trace — is deterministic; the lock only makes the hand-over between actors safe.
public final class TraceRecorder: Sendable {
    public let node: String
    public let runID: String

    /// Where recorded events go.
    public enum Storage: Sendable {
        /// Kept in memory (the default): `events` returns them.
        case memory
        /// Counted and dropped: for measuring the runtime without the trace's memory.
        case discard
        /// Written to a capture file as they happen (JSON Lines), nothing kept in memory.
        case file(TraceFileWriter)
    }

    public let storage: Storage

    private struct State {
        var events: [TraceEvent] = []
        var recorded = 0
        var nextSequence: UInt64 = 1
        var lamport: UInt64 = 0
        var step = 0
    }

    private let state = Mutex(State())
    private let start = TraceRecorder.monotonicNanoseconds()

    public init(node: String = "main", runID: String = "run", storage: Storage = .memory) {
        self.node = node
        self.runID = runID
        self.storage = storage
    }

    /// Records one event and returns its identity, to be passed as the cause of what it leads to.
    @discardableResult
    public func record(
        _ message: TraceMessage, controller: ControllerID, cause: EventRef?, transition: Int? = nil
    ) -> EventRef {
        let time = elapsedNanoseconds()
        return state.withLock { state in
            let id = EventRef(node: node, sequence: state.nextSequence)
            state.nextSequence += 1
            state.lamport += 1
            state.recorded += 1
            let event = TraceEvent(
                id: id, lamport: state.lamport, cause: cause, controller: controller,
                transition: transition, step: state.step, message: message, time: time)
            switch storage {
            case .memory: state.events.append(event)
            case .discard: break
            case let .file(writer): writer.write(TraceCaptureFormat.line(for: event, runID: runID))
            }
            return id
        }
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


    /// Every event so far, in order.
    public var events: [TraceEvent] {
        state.withLock { $0.events }
    }

    /// The events recorded after the first `count`.
    public func events(after count: Int) -> [TraceEvent] {
        state.withLock { Array($0.events[min(count, $0.events.count)...]) }
    }

    /// How many events are stored (with `.memory`, all recorded ones).
    public var count: Int {
        state.withLock { $0.events.count }
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
