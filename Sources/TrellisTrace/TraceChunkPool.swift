import Dispatch
import Synchronization

/// Buffers for the recorder's chunks of compact events, ready before they are needed.
///
/// A trace grows by about 80 bytes an event, and the first write to fresh memory is a page
/// fault, which on these VMs costs more than recording the event: a transition of a large
/// hierarchy would spend a fifth of its time in the kernel. So spare chunks are allocated and
/// written once (the pages faulted in) on a queue of their own, off the router's path, and a file
/// writer gives the chunks it has written back for reuse.
package final class TraceChunkPool: Sendable {
    /// Spare chunks kept ready (made when fewer are left).
    static let spareCount = 3
    /// Spare chunks kept when a file writer gives them back; past this many they are freed. More
    /// than `spareCount`: a file trace has a few chunks in flight (`TraceFileWriter` takes four
    /// before the recorder waits), and keeping what comes back spares making new ones (with
    /// `spareCount` here, the refill made and faulted in a chunk while a recycled one was freed).
    static let recycledCount = spareCount + 5

    private struct State {
        var spares: [[CompactTraceEvent]] = []
        var refilling = false
        /// Chunks handed out so far: spares are made only for a trace past its first chunk, so
        /// the many small traces (a test's, a scenario's) never pay for memory they do not use.
        var taken = 0
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "trellis-trace-chunks")

    /// An empty chunk with room for `CompactTraceLog.chunkCapacity` events.
    func take() -> [CompactTraceEvent] {
        let (spare, refill) = state.withLock { state -> ([CompactTraceEvent]?, Bool) in
            let spare = state.spares.popLast()
            state.taken += 1
            let refill = state.taken > 1 && !state.refilling && state.spares.count < Self.spareCount
            if refill { state.refilling = true }
            return (spare, refill)
        }
        if refill { queue.async { self.refill() } }
        return spare ?? Self.emptyChunk(faultedIn: false)
    }

    /// Makes spare chunks, faulted in, until there are `count` (beyond the usual few): for a
    /// recorder about to record a large trace, before the run starts.
    func prepare(chunks count: Int) {
        while state.withLock({ $0.spares.count }) < count {
            let chunk = Self.emptyChunk(faultedIn: true)
            state.withLock { $0.spares.append(chunk) }
        }
    }

    /// A chunk whose events were written to the file: its memory is reused.
    package func recycle(_ chunk: consuming [CompactTraceEvent]) {
        var chunk = chunk
        chunk.removeAll(keepingCapacity: true)
        guard chunk.capacity >= CompactTraceLog.chunkCapacity else { return }
        state.withLock { state in
            if state.spares.count < Self.recycledCount { state.spares.append(chunk) }
        }
    }

    private func refill() {
        while state.withLock({ $0.spares.count }) < Self.spareCount {
            let chunk = Self.emptyChunk(faultedIn: true)
            state.withLock { $0.spares.append(chunk) }
        }
        state.withLock { $0.refilling = false }
    }

    private static func emptyChunk(faultedIn: Bool) -> [CompactTraceEvent] {
        var chunk: [CompactTraceEvent] = []
        chunk.reserveCapacity(CompactTraceLog.chunkCapacity)
        guard faultedIn else { return chunk }
        // Writing every slot once brings the pages in; the events written are then dropped.
        let blank = CompactTraceEvent(
            code: .other, hasTransition: false, causeNode: -1, controller: 0, detail: 0, step: 0, transitionID: 0,
            lamportOffset: 0, causeSequence: 0, first: 0, second: 0)
        chunk.append(contentsOf: repeatElement(blank, count: CompactTraceLog.chunkCapacity))
        chunk.removeAll(keepingCapacity: true)
        return chunk
    }
}
