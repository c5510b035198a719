import Foundation
import ZeroMQ

/// The loop of a node's I/O thread: it owns every socket — the ROUTER bound for inbound traffic,
/// a DEALER per peer (`PeerWrites`), with libzmq the context and the ZAP handler with CURVE —
/// and turns. Each turn sleeps in a poll until traffic, a wake-up signal or the next deadline of
/// the heartbeats, then takes what came in, what Swift code queued (`NodeIOQueue`) and the jobs
/// of tasks that prefer the thread, sends, and keeps the peers alive. `run()` only dispatches;
/// each part is a method of its own, its tuning in `NodeIOTuning`. Generic over the socket layer
/// chosen at start (`NodeLoopSockets`; `NodeIO` picks it), so each layer's loop is compiled for it.
struct NodeIOLoop<Sockets: NodeLoopSockets> {
    let io: NodeIO
    let sockets: Sockets
    private var writes = PeerWrites()
    private var heartbeats: Heartbeats
    /// The frames of a HEARTBEAT (none: heartbeats off, as in the bench).
    private let heartbeat: [[UInt8]]
    private var running = true
    /// One clock read per turn: what came in during it was heard "now".
    private var now: ContinuousClock.Instant

    /// The routing id of the last inbound message and its name: a burst from one peer decodes
    /// the name once.
    private var lastRoutingID: [UInt8] = []
    private var lastPeerName = ""
    /// Messages dropped because their routing id was not the node their CURVE key belongs to.
    private var impersonations = 0
    /// Messages queued for a peer this node has no stream to (refused, each a fault, sampled).
    private var unconnectedSends = 0
    /// The frames of the last inbound message: their storage is reused for the next one unless
    /// `onMessage` kept them.
    private var frames: [[UInt8]] = []

    /// What a turn takes from the queue. Emptied after each turn with their storage kept, and
    /// swapped with the queue's: queueing the next command or message allocates no list.
    private var commands: [NodeIOQueue.Command] = []
    private var outboxes: [NodeOutbox] = []
    /// The jobs being run; its storage goes back and forth with the queue's (`runJobs`).
    private var runnable: [UnownedJob] = []
    /// The bytes of the largest batch the last turn took from the outboxes.
    private var drainedBytes = 0
    /// Whether an idle loop spins before it sleeps.
    private var spin: IdleSpin

    /// Sets up the layer's sockets, the ROUTER bound; a layer that cannot start leaves nothing
    /// behind (see each layer's `init`).
    init(io: NodeIO) throws(ZMQError) {
        let configuration = io.configuration
        self.io = io
        sockets = try Sockets(configuration: configuration)
        heartbeat = io.queue.withLock { $0.heartbeatFrames }
        spin = IdleSpin(
            budget: NodeIOTuning.idleSpin, missesBeforeRest: NodeIOTuning.idleSpinMissesBeforeRest,
            restingIdles: NodeIOTuning.idleSpinRestingIdles, shortWait: NodeIOTuning.idleSpinShortWait,
            yieldsCore: NodeIOTuning.idleSpinYields)
        now = ContinuousClock.now
        heartbeats = Heartbeats(
            interval: .milliseconds(configuration.heartbeatIntervalMilliseconds),
            timeout: .milliseconds(configuration.peerTimeoutMilliseconds), now: now, watchesSilence: !heartbeat.isEmpty)
    }

    /// The endpoint the ROUTER is bound to, any wildcard port resolved.
    var boundEndpoint: String { sockets.boundEndpoint }

    /// Turns until stopped (or until polling fails, which is reported).
    mutating func run() {
        while running {
            do {
                try waitForWork()
            } catch {
                io.onEvent(.failed(error.description))
                return
            }
            now = ContinuousClock.now
            sockets.serviceBeforeInbound(io: io, writes: writes)
            if sockets.inboundReady { receiveInbound() }
            sockets.serviceAfterInbound(io: io)
            takeQueuedWork()
            carryOutCommands()
            sendOutboxes()
            keepPeersAlive()
        }
    }

    /// Shutdown: whatever is still queued gets one last chance, then every socket closes with its
    /// bounded linger (with libzmq, the context ends).
    func close() {
        sockets.close(writes: writes, lingerMilliseconds: io.configuration.lingerMilliseconds)
    }

    // MARK: Wake-up and jobs

    /// Polls: without waiting while anything is queued; else after a spin (`IdleSpin`) that found
    /// nothing, asleep until traffic, a wake-up signal or the heartbeats' next deadline.
    private mutating func waitForWork() throws(ZMQError) {
        prepareToPoll()
        let deadline = pollDeadline
        guard !inboundTaken, io.queue.withLock({ $0.isIdle }), ContinuousClock.now < deadline else {
            try look()
            return
        }
        if try spinFoundWork(deadline: deadline) { return }
        guard io.queue.withLock({ $0.maySleep() }) else {
            try look()
            return
        }
        let asleepSince = ContinuousClock.now
        let untilDeadline = max(asleepSince.duration(to: deadline), .zero)
        let ready = try sockets.poll(timeout: untilDeadline)
        spin.slept(for: asleepSince.duration(to: ContinuousClock.now), byTraffic: ready > 0)
    }

    /// When the loop must turn even without traffic: the heartbeats' next deadline, or a
    /// reconnect or handshake deadline of the sockets (ZMTP's; libzmq keeps its own).
    private var pollDeadline: ContinuousClock.Instant {
        min(heartbeats.nextDeadline, sockets.nextDeadline ?? heartbeats.nextDeadline)
    }

    /// Whether inbound messages were read from the kernel and not handed over yet (ZMTP: a turn
    /// that stopped early, `receiveInbound`, leaves them in the ROUTER, and a socket that
    /// reached its receive bound leaves them undecoded in its buffer; either way the descriptor
    /// then does not wake a poll. libzmq's ROUTER stays readable instead).
    private var inboundTaken: Bool { sockets.inputWaitsWithoutWaking }

    /// Polls without waiting; how many are ready.
    @discardableResult
    private func look() throws(ZMQError) -> Int {
        try sockets.poll(timeout: .zero)
    }

    /// Fills the poll set; after a large batch, gives the senders the core for a while.
    private mutating func prepareToPoll() {
        sockets.prepare(wakeUp: io.wakeUp.fileDescriptor, writes: writes)
        // After a large batch more is probably on its way: give the senders the core before
        // going to sleep, rather than have the next of them pay a wake-up.
        if drainedBytes >= NodeIOTuning.floodBytes {
            for _ in 0..<NodeIOTuning.floodYields {
                sched_yield()
                if io.queue.withLock({ !$0.isIdle }) { break }
            }
        }
    }

    /// Nothing to do: looks again and again, without blocking, until something comes (true: the
    /// poll set says what) or the spin is over (`IdleSpin`). Nothing queued signals the thread
    /// meanwhile — it is not asleep — so the queue is looked at too. The core is given away
    /// between looks, so that the threads this loop waits for run.
    private mutating func spinFoundWork(deadline: ContinuousClock.Instant) throws(ZMQError) -> Bool {
        guard spin.starts(at: ContinuousClock.now, deadline: deadline) else { return false }
        repeat {
            if spin.yieldsCore { sched_yield() }
            if try look() > 0 || io.queue.withLock({ !$0.isIdle }) {
                spin.found(at: ContinuousClock.now)
                return true
            }
        } while spin.keepsSpinning(at: ContinuousClock.now)
        return false
    }

    /// Everything queued, in one lock acquisition; then the jobs of tasks that prefer this thread,
    /// and what they queued goes out in this same turn.
    private mutating func takeQueuedWork() {
        io.queue.withLock { state in
            state.asleep = false
            swap(&runnable, &state.jobs)
            state.take(&commands, &outboxes)
        }
        guard !runnable.isEmpty else { return }
        runJobs()
        io.queue.withLock { $0.take(&commands, &outboxes) }
    }

    /// Runs the jobs taken, and those they queue, up to `NodeIOTuning.jobsPerTurn`.
    private mutating func runJobs() {
        let executor = io.asUnownedTaskExecutor()
        var ran = 0
        while !runnable.isEmpty {
            for job in runnable { job.runSynchronously(on: executor) }
            ran += runnable.count
            runnable.removeAll(keepingCapacity: true)
            if ran >= NodeIOTuning.jobsPerTurn { return }
            // Two buffers trade places: queueing a job never allocates once both have grown.
            io.queue.withLock { swap(&runnable, &$0.jobs) }
        }
    }

    private mutating func carryOutCommands() {
        for command in commands {
            switch command {
            case let .connect(peer, endpoint, serverKey):
                do {
                    // Silence counts only from the first message heard (or request sent): a peer
                    // still starting up is not gone (the conductor bounds startup itself).
                    heartbeats.isNode(peer)
                    // A gone peer is never connected again within the run (§9.5 rule 3).
                    guard !heartbeats.isGone(peer),
                        try sockets.connect(peer, endpoint: endpoint, serverKey: serverKey, writes: &writes, configuration: io.configuration)
                    else { continue }
                    if heartbeats.counts(peer) { writes.peerIsHeard(peer) }
                } catch {
                    io.onEvent(.failed("connect to \(peer) at \(endpoint): \(error)"))
                }
            case let .reply(routingID, frames):
                sockets.reply([routingID] + frames)
            case let .redial(peer):
                do {
                    try writes.redial(peer)
                } catch {
                    io.onEvent(.failed("redial \(peer): \(error)"))
                }
            case .stopWatchingInbox:
                sockets.stopWatchingInbox()
            case .stop:
                running = false
            }
        }
        commands.removeAll(keepingCapacity: true)
    }

    // MARK: Inbound

    /// Hands inbound messages to `onMessage`, up to `NodeIOTuning.inboundMessagesPerTurn`.
    private mutating func receiveInbound() {
        var received = 0
        while received < NodeIOTuning.inboundMessagesPerTurn, sockets.receive(into: &frames) {
            received += 1
            guard let routingID = frames.first else { continue }
            let samePeer = routingID == lastRoutingID
            if !samePeer {
                lastRoutingID = routingID
                lastPeerName = PeerName.of(routingID: routingID)
            }
            // With CURVE, the ZAP handler named the node each key belongs to (the message's
            // User-Id): a key's holder speaks as that node only, its routing id the name octet
            // for octet (TWP §10 rule 5).
            if let userID = sockets.lastAuthenticatedSender, !userID.utf8.elementsEqual(routingID) {
                impersonations += 1
                if RejectionSampling.traces(impersonations) {
                    io.onEvent(.impersonation(routingID: lastPeerName, userID: userID, count: impersonations))
                }
                lastRoutingID = []  // the next message's sender is looked at afresh
                continue
            }
            if !samePeer {
                // A peer heard for the first time counts our silence from now on: our stream to it
                // opens, with heartbeats (§9.5), even if we have nothing else to send it.
                if heartbeats.heard(lastPeerName, at: now) { writes.peerIsHeard(lastPeerName) }
            } else {
                heartbeats.heardRecentPeer(at: now)
            }
            // Handed over without the routing id, which then goes back in front: the array is not
            // copied for each message, and its storage stays for the next receive.
            let routingFrame = frames.removeFirst()
            io.onMessage(lastPeerName, frames)
            frames.insert(routingFrame, at: 0)
            // A first message that this thread has work to do about (a CALL to serve, a call to
            // resume) is answered before looking for more: the look that finds nothing costs a
            // few microseconds of libzmq's command processing, which a round trip would pay
            // twice. More messages keep the ROUTER readable.
            if received == 1, io.queue.withLock({ !$0.isIdle }) { break }
        }
    }

    // MARK: Per-peer pending writes

    /// Moves the messages taken from the outboxes to their peers' pending writes and sends what
    /// the sockets take. Connections come first in a turn: a message queued for a peer is sent
    /// once its DEALER exists.
    private mutating func sendOutboxes() {
        drainedBytes = 0
        for index in outboxes.indices {
            let peer = outboxes[index].peer
            guard !heartbeats.isGone(peer) else {
                // §9.5 rule 3: a gone peer is sent nothing more; never silently.
                io.onEvent(.failed("send to \(peer): the node is gone; what was queued for it is not sent"))
                continue
            }
            guard let stream = writes[peer] else {
                // Sampled: whatever made it, a flood of such sends must not flood the trace.
                unconnectedSends += 1
                if RejectionSampling.traces(unconnectedSends) {
                    let count = unconnectedSends > RejectionSampling.oneByOne ? " (\(unconnectedSends) such sends so far)" : ""
                    io.onEvent(.failed("send to \(PeerName.readable(peer)): no connection to that node\(count)"))
                }
                continue
            }
            if !stream.silenceCounts, outboxes[index].assumesPeerUp {
                stream.silenceCounts = true
                heartbeats.sentRequest(to: peer, at: now)
            }
            // In place: the outbox is this list's only copy (see `NodeOutbox.drain`).
            drainedBytes += outboxes[index].largestBatch
            outboxes[index].drain { stream.pending.append($0) }
            stream.opened = true
        }
        if !outboxes.isEmpty || sockets.waitsToWrite(writes) {
            writes.flushAll { peer, error in io.onEvent(.failed("send to \(peer): \(error)")) }
        }
        outboxes.removeAll(keepingCapacity: true)
    }

    // MARK: Heartbeats

    /// Heartbeats out when due; peers silent past their deadline declared gone, each once.
    private mutating func keepPeersAlive() {
        guard now >= heartbeats.nextDeadline else { return }
        if heartbeats.beatIsDue(at: now) { writes.beat(heartbeat) }
        for peer in heartbeats.newlySilent(at: now) {
            sockets.abandon(peer, writes: &writes)
            io.onEvent(.peerGone(peer))
        }
    }
}
