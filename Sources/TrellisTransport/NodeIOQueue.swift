import ZeroMQ

/// What Swift code on any thread hands a node's I/O thread, behind `NodeIO`'s lock: commands,
/// messages per peer, jobs of tasks that prefer the thread — and the wake-up protocol that signals
/// the thread only when it sleeps. Also the thread's start and stop hand-shakes.
struct NodeIOQueue {
    /// What the I/O thread is asked to do besides sending messages.
    enum Command {
        case connect(peer: String, endpoint: String, serverKey: String?)
        case reply(routingID: [UInt8], frames: [[UInt8]])
        case redial(peer: String)
        case stopWatchingInbox
        case stop
    }

    var commands: [Command] = []
    /// Messages for each peer, packed as they are queued (`NodeOutbox`). A short list found
    /// by comparing names, most recent peer first: no hashing of the name on every send.
    var outboxes: [NodeOutbox] = []
    /// How large the batches the I/O thread last took were (`NodeOutbox.batchCapacity`).
    var batchCapacity = 0
    /// Jobs of tasks that prefer the I/O thread (NodeIO is a `TaskExecutor`).
    var jobs: [UnownedJob] = []
    /// The thread found nothing queued and sleeps until a signal (or its next deadline): the
    /// first thing queued from now on signals it, and only that one. While the thread is
    /// awake nothing signals it: it looks again before it sleeps.
    var asleep = false

    var boundEndpoint = ""
    var stopped = false
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
    var startWaiter: CheckedContinuation<Result<String, ZMQError>, Never>?
    var heartbeatFrames: [[UInt8]] = []
    /// The thread has ended: jobs go to the global executor instead.
    var threadEnded = false

    /// Nothing queued for the thread.
    var isIdle: Bool { commands.isEmpty && outboxes.isEmpty && jobs.isEmpty }

    /// Whoever queues something calls this: true when the thread must be signalled — unless
    /// it is the I/O thread itself, which is awake (until its next turn's take, the flag still
    /// says what it was before the turn's poll returned).
    mutating func takeWakeUp() -> Bool {
        defer { asleep = false }
        return asleep
    }

    /// Queues into `peer`'s outbox (made on first use); true when the thread must be signalled.
    mutating func queue(for peer: String, batching: Bool, _ add: (inout NodeOutbox) -> Void) -> Bool {
        guard !stopped else { return false }
        if let index = outboxes.lastIndex(where: { $0.peer == peer }) {
            add(&outboxes[index])
        } else {
            outboxes.append(NodeOutbox(peer: peer, batching: batching, batchCapacity: batchCapacity))
            add(&outboxes[outboxes.count - 1])
        }
        return takeWakeUp()
    }

    /// The I/O thread, before it polls: it sleeps only on an empty queue, and says so here, under
    /// the lock — what is queued after this signals it (what it queued for itself, or what came
    /// while it was busy, did not). Returns whether it may sleep.
    mutating func maySleep() -> Bool {
        asleep = isIdle
        return asleep
    }

    /// Moves the queued commands and outboxes into the thread's own lists, after any taken
    /// before. The lists trade storage with the queue's: queueing the next command or message
    /// allocates nothing once both have grown.
    mutating func take(_ taken: inout [Command], _ takenOutboxes: inout [NodeOutbox]) {
        if taken.isEmpty { swap(&taken, &commands) } else { taken += commands; commands.removeAll() }
        guard !outboxes.isEmpty else { return }
        var largest = 0
        for outbox in outboxes { largest = max(largest, outbox.largestBatch) }
        batchCapacity = largest
        if takenOutboxes.isEmpty { swap(&takenOutboxes, &outboxes) } else { takenOutboxes += outboxes; outboxes.removeAll() }
    }
}
