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
    public var maximumMessageSize: Int64 = 64 << 20
    /// CURVE security; nil for none.
    public var curve: CurveConfiguration?
    /// Several messages pending for one peer leave as one BATCH (TWP/1 §7.9). Only what is
    /// already queued is packed, so batching never delays a message.
    public var batching = true
    /// A message for a peer whose stream is idle is sent by the thread that sends it, instead of
    /// waking the I/O thread to send it: one thread wake-up less per message of a conversation.
    /// Idle means nothing of the stream waits anywhere and the peer has spoken since the last
    /// message queued for it (a conversation's turn: a CALL answered, a RETURN due). Messages
    /// queued in a row go through the I/O thread, which batches them.
    public var directSend = true

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
    /// The I/O thread stopped on an error it cannot recover from.
    case failed(String)
}

/// A node's ZeroMQ I/O: one thread owns the context, the ROUTER bound for inbound traffic and
/// runs `zmq_poll`; it hands inbound messages to `onMessage`, in batches per wake-up. The DEALERs,
/// one per peer for outbound traffic, live behind the lock that also guards what Swift code
/// queues: when a peer's stream is idle, the sending thread sends on its DEALER itself (libzmq lets
/// a socket move between threads behind a full memory barrier, which the lock is); otherwise the
/// message joins the peer's outbox and an eventfd wakes the I/O thread, which sends it.
public final class NodeIO: Sendable {
    public let configuration: NodeIOConfiguration

    private enum Command {
        case connect(peer: String, endpoint: String, serverKey: String?)
        case reply(routingID: [UInt8], frames: [[UInt8]])
        case stop
    }

    private struct Shared {
        var commands: [Command] = []
        /// Messages for each peer, packed as they are queued (`NodeOutbox`).
        var outboxes: [String: NodeOutbox] = [:]
        var boundEndpoint = ""
        var stopped = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        var startWaiter: CheckedContinuation<Result<String, ZMQError>, Never>?
        var heartbeatFrames: [[UInt8]] = []
        /// The DEALER to each peer, created by the I/O thread; used only under this lock.
        var peers: [String: Peer] = [:]
        /// The context of the DEALERs: a context of their own, created and ended under this lock,
        /// apart from the I/O thread's context of the ROUTER (which it polls without the lock).
        var outboundContext: ZMQContext?
    }

    private let shared = Mutex(Shared())
    private let wakeUp: WakeUpSignal
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
            wakeUp.close()
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
        let batching = configuration.batching, direct = configuration.directSend
        enum Outcome { case queued, wake, failed(ZMQError) }
        let outcome = shared.withLock { state -> Outcome in
            guard !state.stopped else { return .queued }
            let dealer = state.peers[peer]
            let turn = dealer?.heardSinceQueued ?? false
            dealer?.heardSinceQueued = false
            if direct, turn, state.outboxes[peer] == nil, let dealer, !dealer.hasPending {
                // The stream is idle (nothing of it waits anywhere): send from this thread, in order.
                var outbox = NodeOutbox(batching: batching)
                add(&outbox)
                for index in outbox.chunks.indices { dealer.pending.append(outbox.chunks[index].takeFrames()) }
                dealer.opened = true
                do throws(ZMQError) {
                    try dealer.flush()
                } catch {
                    return .failed(error)
                }
                // What the socket would not take yet is the I/O thread's to retry.
                return dealer.hasPending ? .wake : .queued
            }
            // Only the message that finds nothing queued wakes the thread: it takes everything per
            // wake-up, so a burst costs one eventfd write, not one each.
            let idle = state.commands.isEmpty && state.outboxes.isEmpty
            add(&state.outboxes[peer, default: NodeOutbox(batching: batching)])
            return idle ? .wake : .queued
        }
        switch outcome {
        case .queued: break
        case .wake: wakeUp.signal()
        case let .failed(error): onEvent(.failed("send to \(peer): \(error)"))
        }
    }

    /// Answers a sender that is not a peer (a malformed message from a raw socket) through the
    /// ROUTER it came in on. Best effort: dropped if that sender is gone.
    public func reply(toRoutingID routingID: [UInt8], _ frames: [[UInt8]]) {
        enqueue(.reply(routingID: routingID, frames: frames))
    }

    private func enqueue(_ command: Command) {
        let wake = shared.withLock { state -> Bool in
            guard !state.stopped else { return false }
            let idle = state.commands.isEmpty && state.outboxes.isEmpty
            state.commands.append(command)
            return idle
        }
        if wake { wakeUp.signal() }
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

    // MARK: The I/O thread

    /// A DEALER and what it has not sent yet; only touched under the lock.
    private final class Peer {
        let socket: ZMQSocket
        /// ZeroMQ messages (single messages or BATCHes) the socket has not taken yet.
        var pending: [[[UInt8]]] = []
        var pendingStart = 0
        /// Heartbeats start after the first message: a stream opens with HELLO (TWP/1).
        var opened = false
        /// A message came from this peer since Swift code last queued one for it.
        var heardSinceQueued = false

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
        let context: ZMQContext
        let router: ZMQSocket
        var zapHandler: ZMQSocket?
        do {
            context = try ZMQContext()
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
            }
            try router.bind(configuration.bindEndpoint)
        } catch {
            resumeStart(.failure(error))
            return
        }
        resumeStart(.success(router.lastEndpoint))

        var lastHeard: [String: ContinuousClock.Instant] = [:]
        var gone = Set<String>()
        var nextHeartbeat = ContinuousClock.now
        let heartbeat = shared.withLock { $0.heartbeatFrames }
        let interval = Duration.milliseconds(configuration.heartbeatIntervalMilliseconds)
        let timeout = Duration.milliseconds(configuration.peerTimeoutMilliseconds)
        var now = ContinuousClock.now
        var running = true
        // A DEALER that would not take everything (its high-water mark): retried every
        // millisecond. DEALERs are not polled, so that other threads may send on them.
        var backlogged = false
        // The routing id of the last inbound message and its name: a burst from one peer decodes
        // the name once.
        var lastRoutingID: [UInt8] = []
        var lastPeerName = ""
        var items: [ZMQPollItem] = []
        var failures: [String] = []

        while running {
            items.removeAll(keepingCapacity: true)
            items.append(ZMQPollItem(.socket(router)))
            items.append(ZMQPollItem(.fileDescriptor(wakeUp.fileDescriptor)))
            if let zapHandler { items.append(ZMQPollItem(.socket(zapHandler))) }
            // Sleep until traffic, a signal or the next heartbeat.
            let untilHeartbeat = now.duration(to: nextHeartbeat)
            let milliseconds = untilHeartbeat.components.seconds * 1000
                + untilHeartbeat.components.attoseconds / 1_000_000_000_000_000
            let pollTimeout = backlogged ? 1 : Int(max(0, min(milliseconds, Int64(configuration.heartbeatIntervalMilliseconds))))
            do {
                try ZMQPoll.poll(&items, timeoutMilliseconds: pollTimeout)
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
                while received < 4096, var message = try? router.receive(dontWait: true) {
                    received += 1
                    guard !message.isEmpty else { continue }
                    let routingID = message.removeFirst()
                    if routingID != lastRoutingID || received == 1 {
                        if routingID != lastRoutingID {
                            lastRoutingID = routingID
                            lastPeerName = String(decoding: routingID, as: UTF8.self)
                        }
                        lastHeard[lastPeerName] = now
                        // Before the message is handed on: the answer it prompts may be sent
                        // directly (a conversation's turn) as soon as the handler runs.
                        let name = lastPeerName
                        shared.withLock { $0.peers[name]?.heardSinceQueued = true }
                    }
                    onMessage(lastPeerName, message)
                }
            }
            if let zapHandler, items.count > 2, items[2].readable {
                answerZAP(zapHandler)
            }
            // Commands from Swift code.
            if items[1].readable { wakeUp.drain() }
            let commands = shared.withLock { state -> [Command] in
                var commands: [Command] = []
                swap(&commands, &state.commands)
                return commands
            }
            for command in commands {
                switch command {
                case let .connect(name, endpoint, serverKey):
                    let configuration = configuration
                    let failure = shared.withLock { state -> String? in
                        guard state.peers[name] == nil else { return nil }
                        do throws(ZMQError) {
                            if state.outboundContext == nil { state.outboundContext = try ZMQContext() }
                            guard let context = state.outboundContext else { return nil }
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
                            try dealer.connect(endpoint)
                            // Silence counts only from the first message heard: a peer still
                            // starting up is not gone (the conductor bounds startup itself).
                            state.peers[name] = Peer(socket: dealer)
                            return nil
                        } catch {
                            return "connect to \(name) at \(endpoint): \(error)"
                        }
                    }
                    if let failure { onEvent(.failed(failure)) }
                case let .reply(routingID, frames):
                    // ROUTER_MANDATORY: an unknown or gone routing id fails; nothing to keep.
                    _ = try? router.send([routingID] + frames, dontWait: true)
                case .stop:
                    running = false
                }
            }
            // Outbound, after the connections: a message queued for a peer is sent once its
            // DEALER exists. Heartbeats out when one is due.
            let heartbeatDue = now >= nextHeartbeat
            if heartbeatDue { nextHeartbeat = now.advanced(by: interval) }
            let goneNow = gone
            backlogged = shared.withLock { state -> Bool in
                var outboxes: [String: NodeOutbox] = [:]
                swap(&outboxes, &state.outboxes)
                for (name, var outbox) in outboxes {
                    guard let peer = state.peers[name] else {
                        // Its connect may have been queued after this loop took the commands:
                        // then the messages wait for the next turn, after the connect.
                        let connecting = state.commands.contains { command in
                            if case let .connect(peer, _, _) = command { return peer == name }
                            return false
                        }
                        if connecting {
                            state.outboxes[name] = outbox
                        } else {
                            failures.append("send to \(name): no connection to that node")
                        }
                        continue
                    }
                    for index in outbox.chunks.indices { peer.pending.append(outbox.chunks[index].takeFrames()) }
                    peer.opened = true
                }
                var backlogged = false
                for (name, peer) in state.peers {
                    if heartbeatDue, peer.opened, !goneNow.contains(name), !heartbeat.isEmpty, !peer.hasPending {
                        peer.pending.append(heartbeat)
                    }
                    guard peer.hasPending else { continue }
                    do {
                        try peer.flush()
                    } catch {
                        failures.append("send to \(name): \(error)")
                    }
                    backlogged = backlogged || peer.hasPending
                }
                return backlogged
            }
            for failure in failures { onEvent(.failed(failure)) }
            failures.removeAll(keepingCapacity: true)
            // Silence in.
            if heartbeatDue {
                for (name, heard) in lastHeard where !gone.contains(name) && heard.duration(to: now) > timeout {
                    gone.insert(name)
                    onEvent(.peerGone(name))
                }
            }
        }
        // Shutdown: whatever is still queued gets one last chance, then bounded linger.
        shared.withLock { state in
            state.stopped = true
            for peer in state.peers.values { try? peer.flush() }
            for peer in state.peers.values { peer.socket.close() }
            state.peers.removeAll()
            state.outboundContext?.terminate()
            state.outboundContext = nil
        }
        zapHandler?.close()
        router.close()
        context.terminate()
        wakeUp.close()
        let waiters = shared.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopped = true
            state.commands.removeAll()
            state.outboxes.removeAll()
            state.boundEndpoint = ""
            let waiters = state.stopWaiters
            state.stopWaiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
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
