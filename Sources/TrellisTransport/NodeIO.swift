import Foundation
import Synchronization
import TrellisWire
import ZeroMQ

/// What the I/O thread reports besides messages.
package enum NodeIOEvent: Sendable, Equatable {
    /// No traffic from this peer for its timeout (less `NodeIOTuning.goneCheckMargin`): it is
    /// gone, and is sent nothing more.
    case peerGone(String)
    /// A peer's CURVE handshake was refused (its key is not allowed).
    case peerRefused(publicKey: String)
    /// A CURVE handshake failed (`HandshakeWatch`): on the stream to `peer`, or (nil) on the inbox.
    case handshakeFailed(peer: String?, failure: HandshakeFailure)
    /// The I/O thread stopped on an error it cannot recover from.
    case failed(String)
    /// With CURVE, a message whose routing id is not the node its key belongs to was dropped
    /// (TWP §10 rule 5): the `count`-th such, reported as `RejectionSampling` says.
    case impersonation(routingID: String, userID: String, count: Int)
}

/// A node's ZeroMQ I/O: one thread owns the context and every socket — one ROUTER bound for
/// inbound traffic, one DEALER per peer for outbound — and runs `zmq_poll` (`NodeIOLoop`). Swift
/// code on any thread hands it messages through a locked queue (`NodeIOQueue`) and an eventfd
/// wake-up; it hands inbound messages to `onMessage`, in batches per wake-up.
package final class NodeIO: Sendable {
    package let configuration: NodeIOConfiguration

    let queue = Mutex(NodeIOQueue())
    let wakeUp: WakeUpSignal
    /// The I/O thread's `pthread_t` once it runs.
    private let ioThread = Atomic<UInt>(0)
    let onMessage: @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void
    let onEvent: @Sendable (NodeIOEvent) -> Void

    /// The endpoint the ROUTER is bound to, with any wildcard port resolved.
    package var boundEndpoint: String { queue.withLock { $0.boundEndpoint } }

    private init(
        configuration: NodeIOConfiguration, wakeUp: WakeUpSignal,
        onMessage: @escaping @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (NodeIOEvent) -> Void
    ) {
        self.configuration = configuration
        self.wakeUp = wakeUp
        self.onMessage = onMessage
        self.onEvent = onEvent
    }

    /// Starts the I/O thread and binds the ROUTER; returns once bound (or throws why not).
    /// `heartbeat` is the frames of the HEARTBEAT sent to every open stream each interval; with
    /// none (a bare I/O, as in the bench) no heartbeat is sent and no peer is declared gone.
    package static func start(
        _ configuration: NodeIOConfiguration, heartbeat: [[UInt8]],
        onMessage: @escaping @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (NodeIOEvent) -> Void
    ) async throws(ZMQError) -> NodeIO {
        let wakeUp = try WakeUpSignal()
        let io = NodeIO(configuration: configuration, wakeUp: wakeUp, onMessage: onMessage, onEvent: onEvent)
        io.queue.withLock { $0.heartbeatFrames = heartbeat }
        let result = await withCheckedContinuation { (started: CheckedContinuation<Result<String, ZMQError>, Never>) in
            io.queue.withLock { $0.startWaiter = started }
            let thread = Thread { io.run() }
            thread.name = "trellis-io-\(configuration.nodeName)"
            thread.start()
        }
        switch result {
        case let .success(endpoint):
            io.queue.withLock { $0.boundEndpoint = endpoint }
            return io
        case let .failure(error):
            throw error
        }
    }

    /// Opens (once) the DEALER to `peer`; `serverKey` is the peer's CURVE public key.
    package func connect(peer: String, endpoint: String, serverKey: String? = nil) {
        enqueue(.connect(peer: peer, endpoint: endpoint, serverKey: serverKey))
    }

    /// Stops watching a plain inbox's handshakes (`NodeIOConfiguration.watchesPlainInbox`).
    package func stopWatchingInbox() {
        enqueue(.stopWatchingInbox)
    }

    /// Connects the DEALER to `peer` afresh (`PeerWrites.redial`).
    package func redial(peer: String) {
        enqueue(.redial(peer: peer))
    }

    /// Queues a message for `peer`. Never dropped: when libzmq's queue is full it waits here
    /// until the socket can take it (backpressure); a peer never connected keeps it too.
    package func send(to peer: String, _ frames: [[UInt8]]) {
        queue(for: peer) { $0.append(frames) }
    }

    /// Queues `message` for `peer`, encoded straight into the batch that will carry it.
    package func send(to peer: String, _ message: WireMessage) {
        queue(for: peer) { $0.append(message) }
    }

    private func queue(for peer: String, _ add: (inout NodeOutbox) -> Void) {
        let batching = configuration.batching
        // Only the message that finds the thread asleep wakes it: it takes everything per
        // wake-up, so a burst costs one eventfd write, not one each.
        let wake = queue.withLock { $0.queue(for: peer, batching: batching, add) }
        if wake && !isIOThread { wakeUp.signal() }
    }

    /// Answers a sender that is not a peer (a malformed message from a raw socket) through the
    /// ROUTER it came in on. Best effort: dropped if that sender is gone.
    package func reply(toRoutingID routingID: [UInt8], _ frames: [[UInt8]]) {
        enqueue(.reply(routingID: routingID, frames: frames))
    }

    private func enqueue(_ command: NodeIOQueue.Command) {
        let wake = queue.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.commands.append(command)
            return state.takeWakeUp()
        }
        if wake && !isIOThread { wakeUp.signal() }
    }

    /// Closes every socket (each with its bounded linger) and ends the thread. Call after the
    /// conversation's goodbye was acknowledged: linger alone is not trusted to flush.
    package func stop() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let alreadyStopped = queue.withLock { state -> Bool in
                if state.stopped && state.commands.isEmpty && state.boundEndpoint.isEmpty { return true }
                state.stopWaiters.append(done)
                if !state.stopped {
                    state.stopped = true
                    state.commands.append(.stop)
                }
                return false
            }
            if alreadyStopped { done.resume() } else { wakeUp.signal() }
        }
    }

    /// Closed only here, never while a sender that saw the thread running may still signal it.
    deinit {
        wakeUp.close()
    }

    /// True on the I/O thread itself, which never needs a signal.
    var isIOThread: Bool {
        currentThreadNumber() == ioThread.load(ordering: .acquiring)
    }

    /// The I/O thread: sets up the sockets, turns the loop until stopped, then closes them and
    /// hands what is left (jobs, stop waiters) back.
    private func run() {
        ioThread.store(currentThreadNumber(), ordering: .relaxed)
        switch configuration.effectiveSocketLayer {
        case .libzmq: run(LibZMQNodeSockets.self)
        case .zmtp: run(ZMTPNodeSockets.self)
        }
    }

    /// `run()` over the sockets of one layer.
    private func run<Sockets: NodeLoopSockets>(_ layer: Sockets.Type) {
        var loop: NodeIOLoop<Sockets>
        do {
            loop = try NodeIOLoop(io: self)
        } catch {
            resumeStart(.failure(error))
            return
        }
        resumeStart(.success(loop.boundEndpoint))
        loop.run()
        loop.close()
        let (waiters, jobs) = queue.withLock { state -> ([CheckedContinuation<Void, Never>], [UnownedJob]) in
            state.stopped = true
            state.threadEnded = true
            state.commands.removeAll()
            state.outboxes.removeAll()
            state.boundEndpoint = ""
            let waiters = state.stopWaiters
            state.stopWaiters.removeAll()
            let jobs = state.jobs
            state.jobs.removeAll()
            return (waiters, jobs)
        }
        // Forgotten before the thread exits: a thread made later may get the same `pthread_t`
        // (glibc reuses an exited thread's descriptor), and must not pass for this one.
        ioThread.store(0, ordering: .releasing)
        for job in jobs { globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
        for waiter in waiters { waiter.resume() }
    }

    private func resumeStart(_ result: Result<String, ZMQError>) {
        let waiter = queue.withLock { state -> CheckedContinuation<Result<String, ZMQError>, Never>? in
            defer { state.startWaiter = nil }
            return state.startWaiter
        }
        waiter?.resume(returning: result)
    }
}

// MARK: The I/O thread as a task executor

/// Tasks that prefer a node's I/O thread (`Task(executorPreference:)`,
/// `withTaskExecutorPreference`) run their nonisolated code and default actors on it. A call
/// made there goes out in the same turn of the loop, and the RETURN that answers it resumes it
/// there, without waking another thread: a round trip then wakes as many threads as raw
/// REQ/REP does. Code on this thread must never block.
extension NodeIO: TaskExecutor {
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (wake, ended) = queue.withLock { state -> (Bool, Bool) in
            if state.threadEnded { return (false, true) }
            state.jobs.append(job)
            return (state.takeWakeUp(), false)
        }
        if ended {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        } else if wake && !isIOThread {
            wakeUp.signal()
        }
    }
}

/// The calling thread's `pthread_t` as a number an atomic holds: it is one on Linux, a pointer
/// on Darwin.
private func currentThreadNumber() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    pthread_self()
    #endif
}
