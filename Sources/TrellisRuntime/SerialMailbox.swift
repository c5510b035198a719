import Synchronization

/// A mailbox that hands its messages to one consumer, one at a time and in arrival order.
///
/// Senders append under a lock; the first send into an idle mailbox starts one drain task,
/// which takes the whole queue per lock acquisition (batch drain) and runs until the mailbox
/// is empty. No task per message and no `AsyncStream`: see DEVELOPERS.md's machine facts.
public final class SerialMailbox<Message: Sendable>: Sendable {
    private struct State {
        var queue: [Message] = []
        var draining = false
        var closed = false
        /// Where the drain task prefers to run (nil: the global pool).
        var executor: (any TaskExecutor)?
    }

    private let state = Mutex(State())
    /// `State.draining`, readable without the lock (written under it). A message queued means a
    /// drain is on, so this alone says whether the mailbox is quiescent; read on every message
    /// a node receives, where taking the lock of this generic type cost a metadata look-up.
    private let busy = Atomic<Bool>(false)
    private let consumer: @Sendable (Message) async -> Void

    /// A mailbox that hands each message to `consumer`, one at a time.
    public init(consumer: @escaping @Sendable (Message) async -> Void) {
        self.consumer = consumer
    }

    /// Queues a message. Returns false, keeping nothing, when the mailbox is closed.
    @discardableResult
    public func send(_ message: Message) -> Bool {
        let startDrain: (start: Bool, executor: (any TaskExecutor)?)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.queue.append(message)
            guard !state.draining else { return (false, nil) }
            state.draining = true
            busy.store(true, ordering: .releasing)
            return (true, state.executor)
        }
        guard let startDrain else { return false }
        if startDrain.start {
            // Not `Task(executorPreference: nil)`: measured, a task made that way made every actor
            // hop of a window's walk about 30% dearer than one made by `Task {}`.
            if let executor = startDrain.executor {
                Task(executorPreference: executor) { await self.drain() }
            } else {
                Task { await self.drain() }
            }
        }
        return true
    }

    /// Drains from now on run on `executor` (a node's I/O thread, say) instead of the global pool;
    /// nil goes back to the pool (and lets go of the executor, which may hold this mailbox).
    public func prefer(_ executor: (any TaskExecutor)?) {
        state.withLock { $0.executor = executor }
    }

    /// Stops accepting messages; what is already queued is still delivered.
    public func close() {
        state.withLock { $0.closed = true }
    }

    /// True when nothing is queued and nothing is being handled.
    public var isQuiescent: Bool {
        !busy.load(ordering: .acquiring)
    }

    private func drain() async {
        while true {
            let batch: [Message] = state.withLock { state in
                if state.queue.isEmpty {
                    state.draining = false
                    busy.store(false, ordering: .releasing)
                    return []
                }
                var taken: [Message] = []
                swap(&taken, &state.queue)
                return taken
            }
            if batch.isEmpty { return }
            for message in batch {
                await consumer(message)
            }
        }
    }
}
