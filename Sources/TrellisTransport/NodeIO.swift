import Foundation
import Synchronization
import TrellisWire
import ZeroMQ

/// How a node's sockets are set up.
public struct NodeIOConfiguration: Sendable {
    /// This node's name: the routing id of every DEALER it opens.
    public var nodeName: String
    /// Where its ROUTER listens (`ipc://…`, `tcp://127.0.0.1:*`).
    public var bindEndpoint: String
    /// How often a heartbeat goes to every peer.
    public var heartbeatIntervalMilliseconds = 250
    /// A peer silent this long is gone (SPEC §7: at most 2 s by default).
    public var peerTimeoutMilliseconds = 2_000
    /// Explicit high-water marks: past them a send waits (backpressure), nothing is dropped.
    public var highWaterMark: Int32 = 100_000
    /// Bounded linger: sockets never block shutdown for longer than this.
    public var lingerMilliseconds: Int32 = 1_000
    /// Larger messages are refused by libzmq before they reach Trellis.
    public var maximumMessageSize = Int64(WireLimits.maxMessageBytes)
    /// CURVE security; nil for none.
    public var curve: CurveConfiguration?
    /// Several messages pending for one peer leave as one BATCH (TWP/1 §7.9). Only what is
    /// already queued is packed, so batching never delays a message.
    public var batching = true

    public init(nodeName: String, bindEndpoint: String) {
        self.nodeName = nodeName
        self.bindEndpoint = bindEndpoint
    }
}

/// CURVE keys of a node and the public keys it accepts (SPEC §7, security).
public struct CurveConfiguration: Sendable {
    public var publicKey: String
    public var secretKey: String
    /// Z85 public keys of the peers allowed to connect; anyone else gets nothing in.
    public var allowedPeerKeys: Set<String>

    public init(publicKey: String, secretKey: String, allowedPeerKeys: Set<String>) {
        self.publicKey = publicKey
        self.secretKey = secretKey
        self.allowedPeerKeys = allowedPeerKeys
    }
}

/// What the I/O thread reports besides messages.
public enum NodeIOEvent: Sendable, Equatable {
    /// No traffic from this peer for the timeout: it is gone.
    case peerGone(String)
    /// A peer's CURVE handshake was refused (its key is not allowed).
    case peerRefused(publicKey: String)
    /// A CURVE handshake failed (`HandshakeWatch`): on the stream to `peer`, or (nil) on the inbox.
    case handshakeFailed(peer: String?, failure: HandshakeFailure)
    /// The I/O thread stopped on an error it cannot recover from.
    case failed(String)
}

/// A node's ZeroMQ I/O: one thread owns the context and every socket — one ROUTER bound for
/// inbound traffic, one DEALER per peer for outbound — and runs `zmq_poll`. Swift code on any
/// thread hands it messages through a locked queue and an eventfd wake-up; it hands inbound
/// messages to `onMessage`, in batches per wake-up.
public final class NodeIO: Sendable {
    public let configuration: NodeIOConfiguration

    private enum Command {
        case connect(peer: String, endpoint: String, serverKey: String?)
        case reply(routingID: [UInt8], frames: [[UInt8]])
        case stop
    }

    private struct Shared {
        var commands: [Command] = []
        /// Messages for each peer, packed as they are queued (`NodeOutbox`). A short list found
        /// by comparing names, most recent peer first: no hashing of the name on every send.
        var outboxes: [NodeOutbox] = []
        /// How large the batches the I/O thread last took were (`NodeOutbox.batchCapacity`).
        var batchCapacity = 0
        var boundEndpoint = ""
        var stopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var startWaiter: CheckedContinuation<Result<String, ZMQError>, Never>?
        var heartbeatFrames: [[UInt8]] = []
        /// Jobs of tasks that prefer the I/O thread (NodeIO is a `TaskExecutor`).
        var jobs: [UnownedJob] = []
        /// The thread has ended: jobs go to the global executor instead.
        var threadEnded = false

        /// Nothing queued for the thread.
        var isIdle: Bool { commands.isEmpty && outboxes.isEmpty && jobs.isEmpty }
        /// The thread found nothing queued and sleeps until a signal (or its heartbeat): the
        /// first thing queued from now on signals it, and only that one. While the thread is
        /// awake nothing signals it: it looks again before it sleeps.
        var asleep = false

        /// Whoever queues something calls this: true when the thread must be signalled — unless
        /// it is the I/O thread itself, which is awake (until its next turn's take, the flag still
        /// says what it was before the turn's poll returned).
        mutating func takeWakeUp() -> Bool {
            defer { asleep = false }
            return asleep
        }
    }

    private let shared = Mutex(Shared())
    private let wakeUp: WakeUpSignal
    /// The I/O thread's `pthread_t` once it runs.
    private let ioThread = Atomic<UInt>(0)
    private let onMessage: @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void
    private let onEvent: @Sendable (NodeIOEvent) -> Void

    /// The endpoint the ROUTER is bound to, with any wildcard port resolved.
    public var boundEndpoint: String { shared.withLock { $0.boundEndpoint } }

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
    public static func start(
        _ configuration: NodeIOConfiguration, heartbeat: [[UInt8]],
        onMessage: @escaping @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (NodeIOEvent) -> Void
    ) async throws(ZMQError) -> NodeIO {
        let wakeUp = try WakeUpSignal()
        let io = NodeIO(configuration: configuration, wakeUp: wakeUp, onMessage: onMessage, onEvent: onEvent)
        io.shared.withLock { $0.heartbeatFrames = heartbeat }
        let result = await withCheckedContinuation { (started: CheckedContinuation<Result<String, ZMQError>, Never>) in
            io.shared.withLock { $0.startWaiter = started }
            let thread = Thread { io.run() }
            thread.name = "trellis-io-\(configuration.nodeName)"
            thread.start()
        }
        switch result {
        case let .success(endpoint):
            io.shared.withLock { $0.boundEndpoint = endpoint }
            return io
        case let .failure(error):
            throw error
        }
    }

    /// Opens (once) the DEALER to `peer`; `serverKey` is the peer's CURVE public key.
    public func connect(peer: String, endpoint: String, serverKey: String? = nil) {
        enqueue(.connect(peer: peer, endpoint: endpoint, serverKey: serverKey))
    }

    /// Queues a message for `peer`. Never dropped: when libzmq's queue is full it waits here
    /// until the socket can take it (backpressure); a peer never connected keeps it too.
    public func send(to peer: String, _ frames: [[UInt8]]) {
        queue(for: peer) { $0.append(frames) }
    }

    /// Queues `message` for `peer`, encoded straight into the batch that will carry it.
    public func send(to peer: String, _ message: WireMessage) {
        queue(for: peer) { $0.append(message) }
    }

    private func queue(for peer: String, _ add: (inout NodeOutbox) -> Void) {
        let batching = configuration.batching
        // Only the message that finds the thread asleep wakes it: it takes everything per
        // wake-up, so a burst costs one eventfd write, not one each.
        let wake = shared.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if let index = state.outboxes.lastIndex(where: { $0.peer == peer }) {
                add(&state.outboxes[index])
            } else {
                state.outboxes.append(NodeOutbox(peer: peer, batching: batching, batchCapacity: state.batchCapacity))
                add(&state.outboxes[state.outboxes.count - 1])
            }
            return state.takeWakeUp()
        }
        if wake && !isIOThread { wakeUp.signal() }
    }

    /// Answers a sender that is not a peer (a malformed message from a raw socket) through the
    /// ROUTER it came in on. Best effort: dropped if that sender is gone.
    public func reply(toRoutingID routingID: [UInt8], _ frames: [[UInt8]]) {
        enqueue(.reply(routingID: routingID, frames: frames))
    }

    private func enqueue(_ command: Command) {
        let wake = shared.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.commands.append(command)
            return state.takeWakeUp()
        }
        if wake && !isIOThread { wakeUp.signal() }
    }

    /// Closes every socket (each with its bounded linger) and ends the thread. Call after the
    /// conversation's goodbye was acknowledged: linger alone is not trusted to flush.
    public func stop() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let alreadyStopped = shared.withLock { state -> Bool in
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
        pthread_self() == ioThread.load(ordering: .acquiring)
    }

    // MARK: The I/O thread

    private final class Peer {
        let socket: ZMQSocket
        /// ZeroMQ messages (single messages or BATCHes) the socket has not taken yet.
        var pending: [[[UInt8]]] = []
        var pendingStart = 0
        /// Heartbeats start after the first message: a stream opens with HELLO (TWP/1).
        var opened = false

        init(socket: ZMQSocket) {
            self.socket = socket
        }

        var hasPending: Bool { pendingStart < pending.count }

        /// Sends what is queued until the socket would block.
        func flush() throws(ZMQError) {
            while pendingStart < pending.count {
                guard try socket.send(pending[pendingStart], dontWait: true) else { return }
                pending[pendingStart] = []
                pendingStart += 1
            }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
    }

    private func run() {
        ioThread.store(pthread_self(), ordering: .relaxed)
        let context: ZMQContext
        let router: ZMQSocket
        var zapHandler: ZMQSocket?
        var handshakes: HandshakeWatch?
        do {
            context = try ZMQContext()
            handshakes = HandshakeWatch(context: context)
            router = try context.socket(.router)
            try router.set(ZMQOption.linger, configuration.lingerMilliseconds)
            try router.set(ZMQOption.receiveHighWaterMark, configuration.highWaterMark)
            try router.set(ZMQOption.sendHighWaterMark, configuration.highWaterMark)
            try router.set(ZMQOption.routerMandatory, 1)
            try router.set(ZMQOption.maximumMessageSize, int64: configuration.maximumMessageSize)
            if let curve = configuration.curve {
                let zap = try context.socket(.rep)
                try zap.set(ZMQOption.linger, 0)
                try zap.bind("inproc://zeromq.zap.01")
                zapHandler = zap
                try router.set(ZMQOption.curveServer, 1)
                try router.set(ZMQOption.curveSecretKey, text: curve.secretKey)
                try router.set(ZMQOption.zapDomain, text: "trellis")
                handshakes?.watch(router, peer: nil)
            }
            try router.bind(configuration.bindEndpoint)
        } catch {
            resumeStart(.failure(error))
            return
        }
        resumeStart(.success(router.lastEndpoint))

        var peers: [String: Peer] = [:]
        var lastHeard: [String: ContinuousClock.Instant] = [:]
        var gone = Set<String>()
        var nextHeartbeat = ContinuousClock.now
        let heartbeat = shared.withLock { $0.heartbeatFrames }
        let interval = Duration.milliseconds(configuration.heartbeatIntervalMilliseconds)
        let timeout = Duration.milliseconds(configuration.peerTimeoutMilliseconds)
        var now = ContinuousClock.now
        var running = true
        // The routing id of the last inbound message and its name: a burst from one peer decodes
        // the name once.
        var lastRoutingID: [UInt8] = []
        var lastPeerName = ""
        // When that peer was last heard: it goes into `lastHeard` when another peer is heard and
        // before silences are checked, not on every message (hashing the name each time).
        var lastPeerHeard = now
        var items = ZMQPollSet()
        // The frames of the last inbound message: their storage is reused for the next one
        // unless `onMessage` kept them.
        var frames: [[UInt8]] = []
        // The jobs being run; its storage goes back and forth with the queue's (`runJobs`).
        var runnable: [UnownedJob] = []
        // The bytes of batches the last turn took from the outboxes.
        var drainedBytes = 0
        // What a turn takes from the queue. Emptied after each turn with their storage kept, and
        // swapped with the queue's: queueing the next command or message allocates no list.
        var commands: [Command] = []
        var outboxes: [NodeOutbox] = []

        while running {
            items.removeAll()
            items.append(ZMQPollItem(.socket(router)))
            items.append(ZMQPollItem(.fileDescriptor(wakeUp.fileDescriptor)))
            if let zapHandler { items.append(ZMQPollItem(.socket(zapHandler))) }
            handshakes?.addPollItems(to: &items)
            let fixedItems = items.count
            for peer in peers.values where peer.hasPending {
                items.append(ZMQPollItem(.socket(peer.socket), wantsWritable: true))
            }
            // Sleep until traffic, a signal or the next heartbeat.
            let untilHeartbeat = now.duration(to: nextHeartbeat)
            let milliseconds = untilHeartbeat.components.seconds * 1000
                + untilHeartbeat.components.attoseconds / 1_000_000_000_000_000
            // After a large batch more is probably on its way: give the senders the core once
            // before going to sleep, rather than have the next of them pay a wake-up.
            if drainedBytes >= Self.floodBytes {
                for _ in 0..<Self.floodYields {
                    sched_yield()
                    if shared.withLock({ !$0.isIdle }) { break }
                }
            }
            // Sleep only on an empty queue, saying so under the lock: what is queued after that
            // signals (work this thread queued for itself, or that came while it was busy, did not).
            let sleeps = shared.withLock { state -> Bool in
                state.asleep = state.isIdle
                return state.asleep
            }
            let pollTimeout = !sleeps ? 0 : Int(max(0, min(milliseconds, Int64(configuration.heartbeatIntervalMilliseconds))))
            do {
                try items.poll(timeoutMilliseconds: pollTimeout)
            } catch {
                onEvent(.failed(error.description))
                break
            }
            // One clock read per wake-up: what came in during it was heard "now", and the next
            // sleep is timed from it.
            now = ContinuousClock.now
            // Inbound, in a batch per wake-up.
            if items[0].readable {
                var received = 0
                while received < 4096, (try? router.receive(into: &frames, dontWait: true)) == true {
                    received += 1
                    guard let routingID = frames.first else { continue }
                    if routingID != lastRoutingID {
                        if !lastPeerName.isEmpty { lastHeard[lastPeerName] = lastPeerHeard }
                        lastRoutingID = routingID
                        lastPeerName = String(decoding: routingID, as: UTF8.self)
                    }
                    lastPeerHeard = now
                    // Handed over without the routing id, which then goes back in front: the array
                    // is not copied for each message, and its storage stays for the next receive.
                    let routingFrame = frames.removeFirst()
                    onMessage(lastPeerName, frames)
                    frames.insert(routingFrame, at: 0)
                    // A first message that this thread has work to do about (a CALL to serve, a
                    // call to resume) is answered before looking for more: the look that finds
                    // nothing costs a few microseconds of libzmq's command processing, which a
                    // round trip would pay twice. More messages keep the ROUTER readable.
                    if received == 1, shared.withLock({ !$0.isIdle }) { break }
                }
            }
            if let zapHandler, fixedItems > 2, items[2].readable {
                answerZAP(zapHandler)
            }
            handshakes?.readEvents(in: items, report: onEvent)
            // Commands from Swift code.
            if items[1].readable { wakeUp.drain() }
            // Everything queued, in one lock acquisition; then the jobs of tasks that prefer this
            // thread, and what they queued goes out in this same turn.
            shared.withLock { state in
                state.asleep = false
                swap(&runnable, &state.jobs)
                Self.take(&commands, &outboxes, from: &state)
            }
            if !runnable.isEmpty {
                runJobs(&runnable)
                shared.withLock { Self.take(&commands, &outboxes, from: &$0) }
            }
            for command in commands {
                switch command {
                case let .connect(name, endpoint, serverKey):
                    guard peers[name] == nil else { continue }
                    do {
                        let dealer = try context.socket(.dealer)
                        try dealer.set(ZMQOption.linger, configuration.lingerMilliseconds)
                        try dealer.set(ZMQOption.sendHighWaterMark, configuration.highWaterMark)
                        try dealer.set(ZMQOption.receiveHighWaterMark, configuration.highWaterMark)
                        try dealer.set(ZMQOption.routingID, text: configuration.nodeName)
                        if let curve = configuration.curve, let serverKey {
                            try dealer.set(ZMQOption.curveServerKey, text: serverKey)
                            try dealer.set(ZMQOption.curvePublicKey, text: curve.publicKey)
                            try dealer.set(ZMQOption.curveSecretKey, text: curve.secretKey)
                        }
                        handshakes?.watch(dealer, peer: name)
                        try dealer.connect(endpoint)
                        // Silence counts only from the first message heard: a peer still starting
                        // up is not gone (the conductor bounds startup itself).
                        peers[name] = Peer(socket: dealer)
                    } catch {
                        onEvent(.failed("connect to \(name) at \(endpoint): \(error)"))
                    }
                case let .reply(routingID, frames):
                    // ROUTER_MANDATORY: an unknown or gone routing id fails; nothing to keep.
                    _ = try? router.send([routingID] + frames, dontWait: true)
                case .stop:
                    running = false
                }
            }
            drainedBytes = 0
            // Connections first: a message queued for a peer is sent once its DEALER exists.
            for index in outboxes.indices {
                let name = outboxes[index].peer
                guard let peer = peers[name] else {
                    onEvent(.failed("send to \(name): no connection to that node"))
                    continue
                }
                // In place: the outbox is this list's only copy (see `NodeOutbox.drain`).
                drainedBytes += outboxes[index].largestBatch
                outboxes[index].drain { peer.pending.append($0) }
                peer.opened = true
            }
            if !outboxes.isEmpty || items.count > fixedItems {
                for (name, peer) in peers where peer.hasPending {
                    do {
                        try peer.flush()
                    } catch {
                        onEvent(.failed("send to \(name): \(error)"))
                    }
                }
            }
            commands.removeAll(keepingCapacity: true)
            outboxes.removeAll(keepingCapacity: true)
            // Heartbeats out, silence in.
            if now >= nextHeartbeat {
                nextHeartbeat = now.advanced(by: interval)
                if !lastPeerName.isEmpty { lastHeard[lastPeerName] = lastPeerHeard }
                for (name, peer) in peers where peer.opened && !gone.contains(name) && !heartbeat.isEmpty {
                    if !peer.hasPending { peer.pending.append(heartbeat) }
                    try? peer.flush()
                }
                for (name, heard) in lastHeard where !gone.contains(name) && heard.duration(to: now) > timeout {
                    gone.insert(name)
                    onEvent(.peerGone(name))
                }
            }
        }
        // Shutdown: whatever is still queued gets one last chance, then bounded linger.
        for peer in peers.values { try? peer.flush() }
        for peer in peers.values { peer.socket.close() }
        zapHandler?.close()
        handshakes?.close()
        router.close()
        context.terminate()
        let (waiters, jobs) = shared.withLock { state -> ([CheckedContinuation<Void, Never>], [UnownedJob]) in
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

    /// A turn that took batches this large is in a flood.
    static let floodBytes = 4096
    /// How many times a turn in a flood gives the core away, waiting for more, before it sleeps.
    static let floodYields = 3

    /// Runs the jobs queued for this thread, and those they queue, up to a bound: a long walk
    /// that keeps queueing work still lets the sockets be served every few thousand jobs.
    private func runJobs(_ jobs: inout [UnownedJob]) {
        var ran = 0
        while !jobs.isEmpty {
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
            ran += jobs.count
            jobs.removeAll(keepingCapacity: true)
            if ran >= 4096 { return }
            // Two buffers trade places: queueing a job never allocates once both have grown.
            shared.withLock { swap(&jobs, &$0.jobs) }
        }
    }

    /// Moves the queued commands and outboxes out of `state`, after any taken before.
    private static func take(_ commands: inout [Command], _ outboxes: inout [NodeOutbox], from state: inout Shared) {
        if commands.isEmpty { swap(&commands, &state.commands) } else { commands += state.commands; state.commands.removeAll() }
        guard !state.outboxes.isEmpty else { return }
        var largest = 0
        for outbox in state.outboxes { largest = max(largest, outbox.largestBatch) }
        state.batchCapacity = largest
        if outboxes.isEmpty { swap(&outboxes, &state.outboxes) } else { outboxes += state.outboxes; state.outboxes.removeAll() }
    }

    private func resumeStart(_ result: Result<String, ZMQError>) {
        let waiter = shared.withLock { state -> CheckedContinuation<Result<String, ZMQError>, Never>? in
            defer { state.startWaiter = nil }
            return state.startWaiter
        }
        waiter?.resume(returning: result)
    }

    /// ZAP (RFC 27): allow a CURVE client only if its public key is on the allow-list.
    private func answerZAP(_ socket: ZMQSocket) {
        guard let request = try? socket.receive(dontWait: true), request.count >= 7 else { return }
        let version = request[0], requestID = request[1]
        let mechanism = String(decoding: request[5], as: UTF8.self)
        let key = mechanism == "CURVE" ? Z85.encode(request[6]) : nil
        let allowed = key.map { configuration.curve?.allowedPeerKeys.contains($0) ?? false } ?? false
        if !allowed { onEvent(.peerRefused(publicKey: key ?? "(\(mechanism))")) }
        let status = allowed ? "200" : "400"
        _ = try? socket.send([version, requestID, Array(status.utf8), Array((allowed ? "OK" : "key not allowed").utf8), [], []], dontWait: false)
    }
}

// MARK: The I/O thread as a task executor

/// Tasks that prefer a node's I/O thread (`Task(executorPreference:)`,
/// `withTaskExecutorPreference`) run their nonisolated code and default actors on it. A call
/// made there goes out in the same turn of the loop, and the RETURN that answers it resumes it
/// there, without waking another thread: a round trip then wakes as many threads as raw
/// REQ/REP does. Code on this thread must never block.
extension NodeIO: TaskExecutor {
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (wake, ended) = shared.withLock { state -> (Bool, Bool) in
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
