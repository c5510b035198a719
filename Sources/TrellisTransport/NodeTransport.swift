import TrellisTrace
import TrellisRuntime
import TrellisWire
import ZeroMQ

/// Where a node serves an inbound CALL.
package enum CallPlacement: Sendable, Equatable {
    /// On the I/O thread that received it: no thread is woken to serve it, nor to send its
    /// RETURN. For calls that touch a controller or two: on a task executor each actor hop goes
    /// through the executor's queue, where the shared pool switches actors in place.
    case ioThread
    /// On Swift's shared pool: for calls that may walk a subtree.
    case sharedPool
}

/// A node's conversation with its peers over its link (`NodeLink`: ZeroMQ's `NodeIO`, or a
/// `LoopbackLink` in memory): CALLs matched to their RETURNs by
/// correlation id, Lamport clocks carried both ways, heartbeats, peers declared gone, and
/// malformed frames rejected with a trace event and a counter while the node keeps serving.
package actor NodeTransport {
    package nonisolated let nodeName: String
    let recorder: TraceRecorder
    /// The calls this node makes, and through which I/O it sends (nil before start and after stop).
    private let outbound = OutboundCalls()
    private var io: NodeLink? { outbound.io }
    private let inbound = InboundCalls()
    private var peerGoneHandler: (@Sendable (String, String) async -> Void)?
    /// Inbound messages the I/O thread could not handle itself, in arrival order. Its drains
    /// prefer the I/O thread, whose callback holds it: `stop()` breaks that cycle.
    private var inboundQueue: SerialMailbox<(String, [[UInt8]])>?
    /// Refused keys and failed handshakes, to their handlers in the order heard.
    private var securityQueue: SerialMailbox<NodeIOEvent>?
    /// Control messages in arrival order, off the inbound queue (TRACE-DATA parts must stay in order).
    private var controlQueue: SerialMailbox<(WireMessage, String)>?
    /// What arrived between `start` and `setHandlers` — a HELLO, a refused key, a failed
    /// handshake from a peer that connected the moment the inbox was bound — kept for the
    /// handlers, in order (at most `earlyLimit` of each), rather than dropped.
    private var earlyControl: [(WireMessage, String)] = []
    private var earlySecurity: [NodeIOEvent] = []
    private static let earlyLimit = 1024
    /// Frames rejected as malformed, from any sender.
    package private(set) var malformedCount = 0
    /// The peers whose HELLO was taken (TWP/1 §9.1 rule 3: a second one is refused). Bounded:
    /// strangers make up names by the thousand, and a name forgotten only lets its next HELLO
    /// through to the node, which takes a repeated HELLO as the first.
    private var greetedPeers = RecentNames(capacity: 4096)

    package init(nodeName: String, recorder: TraceRecorder) {
        self.nodeName = nodeName
        self.recorder = recorder
    }

    /// Starts the I/O thread with the ROUTER bound at `configuration.bindEndpoint`.
    package func start(_ configuration: NodeIOConfiguration) async throws(ZMQError) -> String {
        let (onMessage, onEvent) = makeReceivers()
        let io = try await NodeIO.start(
            configuration, heartbeat: WireMessage(.heartbeat).encode(), onMessage: onMessage, onEvent: onEvent)
        attach(.zeroMQ(io))
        return io.boundEndpoint
    }

    /// Starts on `network`, bound at `configuration.bindEndpoint` there: the peers are nodes of
    /// this process, reached in memory (`LoopbackLink`), every message still encoded and decoded.
    package func start(_ configuration: NodeIOConfiguration, on network: LoopbackNetwork) throws(LoopbackError) -> String {
        let (onMessage, onEvent) = makeReceivers()
        let link = try network.bind(configuration, onMessage: onMessage, onEvent: onEvent)
        attach(.loopback(link))
        return link.endpoint
    }

    /// What the link hands inbound messages and its reports to. The inbound queue is made here;
    /// `attach` completes it once the link exists.
    private func makeReceivers() -> (
        onMessage: @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void, onEvent: @Sendable (NodeIOEvent) -> Void
    ) {
        let mailbox = SerialMailbox<(String, [[UInt8]])> { [weak self] message in
            await self?.receive(message.1, from: message.0)
        }
        inboundQueue = mailbox
        // The link's reports, to `ioEvent` one at a time and in order.
        let events = SerialMailbox<NodeIOEvent> { [weak self] event in await self?.ioEvent(event) }
        let outbound = outbound, recorder = recorder, inbound = inbound
        let onMessage: @Sendable (String, [[UInt8]]) -> Void = { peer, frames in
            // A lone RETURN completes its call, and a lone CALL is served, right here on the
            // I/O thread when nothing received before it is still waiting for the actor (so
            // nothing overtakes anything).
            if mailbox.isQuiescent {
                if Self.completeCall(frames, outbound: outbound, recorder: recorder) { return }
                if Self.serveCall(frames, from: peer, inbound: inbound, recorder: recorder) { return }
            }
            mailbox.send((peer, frames))
        }
        return (onMessage, { event in events.send(event) })
    }

    private func attach(_ link: NodeLink) {
        outbound.attach(link)
        inbound.attach(link)
        // Inbound messages and the CALLs they carry are handled on the I/O thread: a CALL's
        // RETURN then goes out without waking it again, nor another thread before it.
        inboundQueue?.prefer(link.executor)
    }

    /// The node's I/O thread as a task executor: a task that prefers it makes its calls and gets
    /// their RETURNs without a thread hand-off (`withTaskExecutorPreference`). Nil when stopped,
    /// and on a loopback link (it has no thread of its own).
    package var executor: (any TaskExecutor)? { io?.executor }

    /// Who answers CALLs (the node's host), where each kind of CALL is served — by default on the
    /// shared pool: a handler that blocked the I/O thread would stop its heartbeats — and who
    /// handles the other commands. `peerRefused` hears of every CURVE client the node's ZAP
    /// handler refused, with the public key it presented; `handshakeFailed` of every CURVE
    /// handshake that failed otherwise, or on this node's side: on its stream to a peer (named),
    /// or on its inbox (nil).
    package func setHandlers(
        call: @escaping @Sendable (WireMessage, String) async -> WireResult,
        placement: @escaping @Sendable (WireCallCode) -> CallPlacement = { _ in .sharedPool },
        control: @escaping @Sendable (WireMessage, String) async -> Void,
        peerGone: @escaping @Sendable (_ peer: String, _ reason: String) async -> Void,
        peerRefused: (@Sendable (_ publicKey: String) async -> Void)? = nil,
        handshakeFailed: (@Sendable (_ peer: String?, _ failure: HandshakeFailure) async -> Void)? = nil,
        impersonated: (@Sendable (_ sender: String, _ keyOf: String) async -> Void)? = nil
    ) {
        inbound.set(handler: call, placement: placement)
        peerGoneHandler = peerGone
        let security = SerialMailbox<NodeIOEvent> { event in
            switch event {
            case let .peerRefused(key): await peerRefused?(key)
            case let .handshakeFailed(peer, failure): await handshakeFailed?(peer, failure)
            case let .impersonation(sender, keyOf, _): await impersonated?(sender, keyOf)
            case .peerGone, .failed: break
            }
        }
        // The refusals and failed handshakes heard before come first, in order, on the queue
        // every later one takes.
        for event in earlySecurity { security.send(event) }
        earlySecurity.removeAll()
        securityQueue = security
        let queue = SerialMailbox<(WireMessage, String)> { entry in await control(entry.0, entry.1) }
        controlQueue = queue
        for entry in earlyControl { queue.send(entry) }
        earlyControl.removeAll()
    }

    /// Stops watching a plain inbox's handshakes (`NodeIOConfiguration.watchesPlainInbox`): once
    /// a run is set up, nobody waits for a greeting, and the I/O thread polls one socket less.
    package func stopWatchingInbox() {
        io?.stopWatchingInbox()
    }

    /// Connects to `peer` afresh, for one more handshake (`PeerWrites.redial`).
    package func redial(peer: String) {
        io?.redial(peer: peer)
    }

    package func connect(peer: String, endpoint: String, serverKey: String? = nil) {
        outbound.connect(peer)?.connect(peer: peer, endpoint: endpoint, serverKey: serverKey)
    }

    /// Sends a message that expects no reply. One that cannot be sent — larger than the
    /// protocol's largest message, which no receiver would take — is not sent: the refusal is
    /// returned and recorded as a fault, never dropped silently.
    @discardableResult
    package func send(_ body: WireBody, to peer: String, correlationID: UInt64 = 0) -> WireError? {
        let message = WireMessage(body, correlationID: correlationID, lamport: recorder.lamport, step: UInt32(clamping: recorder.step))
        do {
            try message.validateForEncoding()
        } catch {
            recorder.record(.fault("cannot send \(body.command) to \(peer): \(error)"), controller: ControllerIDs.node(nodeName), cause: nil)
            return error
        }
        io?.send(to: peer, message)
        return nil
    }

    /// Answers `peer` with an ERROR: on its stream when there is one, else back through the inbox
    /// its message came in on — a stranger, a raw socket, to which this node has no stream — so
    /// that a refusal (a stranger's SETUP, ERROR 6) reaches whoever asked.
    package func refuse(_ code: WireErrorCode, _ text: String, to peer: String, correlationID: UInt64) {
        sendError(WireMessage(.error(code: code.rawValue, text: text), correlationID: correlationID, lamport: recorder.lamport), to: peer)
    }

    /// Answers `peer` (a GOODBYE-ACK, say) the way an ERROR goes: on its stream when there is
    /// one, else back through the inbox — a stranger's GOODBYE gets its answer, and costs no
    /// fault of "no connection" each.
    package func answer(_ body: WireBody, to peer: String, correlationID: UInt64) {
        sendError(WireMessage(body, correlationID: correlationID, lamport: recorder.lamport), to: peer)
    }

    /// One CALL, waiting for its RETURN; a fault if the peer is or becomes gone. Made on the
    /// caller's own executor — no hop to this actor — so a caller on the I/O thread makes its
    /// call and is resumed by its RETURN there.
    package nonisolated func call(peer: String, target: WireAddress, code: WireCallCode, arguments: [WireValue]) async -> WireResult {
        let correlation: UInt64, io: NodeLink
        switch outbound.begin(to: peer) {
        case let .success(call): (correlation, io) = call
        case let .failure(refused): return .fault(refused.reason)
        }
        let message = WireMessage(
            .call(target: target, code: code, arguments: arguments), correlationID: correlation,
            lamport: recorder.lamport, step: UInt32(clamping: recorder.step))
        do {
            try message.validateForEncoding()
        } catch {
            return .fault("cannot send \(code) to \(target): \(error)")
        }
        return await withCheckedContinuation { done in
            if let refused = outbound.wait(correlation, peer: peer, done: done) {
                done.resume(returning: .fault(refused.reason))
            } else {
                io.send(to: peer, message)
            }
        }
    }

    /// Waits until no inbound CALL is being handled (before acknowledging a goodbye).
    package func waitUntilIdle() async {
        await inbound.waitUntilIdle()
    }

    /// Closes the sockets (after the goodbye) and ends the I/O thread.
    package func stop() async {
        let (io, waiting) = outbound.stop()
        guard let io else { return }
        // The I/O's own callback holds `inbound` and the inbound queue, which hold the I/O: either
        // would keep it alive, and with it its thread's eventfd (one file descriptor per run).
        inbound.attach(nil)
        inboundQueue?.prefer(nil)
        await io.stop()
        for entry in waiting { entry.done.resume(returning: .fault("the transport stopped")) }
        // The handlers hold whoever set them — a conductor's run, a worker — which holds this
        // transport: let go of them, or each run stays in memory for as long as its process
        // lives (a test process conducts hundreds).
        inbound.removeHandler()
        peerGoneHandler = nil
        controlQueue = nil
        securityQueue = nil
    }

    package nonisolated func isGone(_ peer: String) -> Bool { outbound.goneFault(peer) != nil }

    /// Whether a DEALER to `peer` was opened (`connect`).
    package nonisolated func isConnected(_ peer: String) -> Bool { outbound.isConnected(peer) }

    // MARK: Inbound

    /// One ZeroMQ message from `peer`: a single message or a BATCH, handled entry by entry.
    /// TWP/1 §7.9: the ERROR that answers a BATCH's bad entry leaves after the RETURNs of the
    /// CALLs before it in that BATCH (they are served concurrently, and may take a while), and
    /// the ERRORs of one BATCH leave in the order of their entries.
    private func receive(_ frames: [[UInt8]], from peer: String) async {
        var served: [Task<Void, Never>] = []
        var deferred: [(afterCalls: Int, reply: WireMessage)] = []
        WireBatch.decodeEach(frames) { decoded in
            switch decoded {
            case let .success(message):
                if let serving = handle(message, from: peer) { served.append(serving) }
            case let .failure(error):
                let reply = reject(error, from: peer)
                if served.isEmpty && deferred.isEmpty {
                    sendError(reply, to: peer)
                } else {
                    deferred.append((served.count, reply))
                }
            }
        }
        guard !deferred.isEmpty else { return }
        let calls = served
        Task {
            for entry in deferred {
                for call in calls.prefix(entry.afterCalls) { await call.value }
                self.sendError(entry.reply, to: peer)
            }
        }
    }

    /// SPEC §7: a malformed frame becomes a trace event and a counter; the node goes on.
    /// How many rejected messages are traced one by one; after them only a count, at 2^k.
    package static let tracedRejections = RejectionSampling.oneByOne

    /// A message that cannot be read is answered with an ERROR, counted, and — the first
    /// `tracedRejections`, then once each time the count doubles — traced: a node fed garbage
    /// keeps a bounded trace (SPEC §7). A RETURN that cannot be read still ends the call it
    /// answers, with a fault, rather than leaving it waiting. Returns the ERROR to answer with
    /// (`sendError`).
    private func reject(_ error: WireError, from peer: String) -> WireMessage {
        malformedCount += 1
        let node = ControllerIDs.node(nodeName)
        if malformedCount <= Self.tracedRejections {
            recorder.record(.fault("malformed message from \(PeerName.readable(peer)): \(error)"), controller: node, cause: nil)
        } else if RejectionSampling.traces(malformedCount) {
            recorder.record(.fault("\(malformedCount) malformed messages so far; the last from \(PeerName.readable(peer)): \(error)"), controller: node, cause: nil)
        }
        if error.command == .return, let correlation = error.correlationID, let entry = outbound.remove(correlation, answeredBy: peer) {
            entry.done.resume(returning: .fault("the answer from \(peer) could not be read: \(error)"))
        }
        return WireMessage(.error(code: error.code.rawValue, text: error.description),
                           correlationID: error.correlationID ?? 0, lamport: recorder.lamport)
    }

    /// Sends an ERROR (or another answer) to `peer`: on its stream when connected, else back
    /// through the inbox it came in on (a raw socket, a node that is no peer of this one).
    private func sendError(_ reply: WireMessage, to peer: String) {
        if outbound.isConnected(peer) {
            io?.send(to: peer, reply)
        } else {
            io?.reply(to: peer, reply.encode())
        }
    }

    /// Handles one well-formed message; returns the task serving it when it is a CALL served
    /// by the host.
    @discardableResult
    private func handle(_ message: WireMessage, from peer: String) -> Task<Void, Never>? {
        recorder.observe(lamport: message.header.lamport)
        switch message.body {
        case let .return(result):
            guard let entry = outbound.remove(message.header.correlationID) else { return nil }
            entry.done.resume(returning: result)
        case let .call(_, code, _):
            guard io != nil else { return nil }
            if let serving = inbound.serve(message, code: code, from: peer, recorder: recorder) { return serving }
            send(.return(.fault("node \(nodeName) is not set up yet")), to: peer, correlationID: message.header.correlationID)
        case .heartbeat:
            break
        case let .hello(node, _, _, _):
            if let refusal = helloRefusal(naming: node, from: peer) {
                refuse(.unexpectedCommand, refusal, to: peer, correlationID: message.header.correlationID)
                return nil
            }
            handleControl(message, from: peer)
        case let .error(code, text):
            // An ERROR echoing one of our pending calls is that call's fault (TWP/1 §9).
            if let entry = outbound.remove(message.header.correlationID) {
                entry.done.resume(returning: .fault("node \(peer) rejected the call (error \(code)): \(text)"))
                return nil
            }
            recorder.record(.fault("node \(peer) reports error \(code): \(text)"), controller: ControllerIDs.node(nodeName), cause: nil)
            handleControl(message, from: peer)
        default:
            handleControl(message, from: peer)
        }
        return nil
    }

    /// Why a HELLO naming `node` from `peer` is refused with ERROR 6 (TWP/1 §9.1 rule 3), or
    /// nil, having noted `peer` as greeted: a HELLO speaks for the stream it came on only, and
    /// once. A refused one leaves the peer as it was (not greeted by a wrong name).
    private func helloRefusal(naming node: String, from peer: String) -> String? {
        guard node == peer else { return "HELLO names \(node) but came from \(PeerName.readable(peer)): refused" }
        guard !greetedPeers.contains(peer) else { return "second HELLO from \(PeerName.readable(peer)) on the same stream: ignored" }
        greetedPeers.insert(peer)
        return nil
    }

    /// Completes the call a lone RETURN answers, from the thread that received it. False, having
    /// done nothing, for anything else (a batch, another command, an unknown correlation id):
    /// that goes the usual way.
    private nonisolated static func completeCall(_ frames: [[UInt8]], outbound: OutboundCalls, recorder: TraceRecorder) -> Bool {
        guard let message = lone(.return, in: frames), case let .return(result) = message.body,
              let entry = outbound.remove(message.header.correlationID) else { return false }
        recorder.observe(lamport: message.header.lamport)
        entry.done.resume(returning: result)
        return true
    }

    /// Serves a lone CALL from the thread that received it. False, having done nothing, for
    /// anything else, or before a handler is set: that goes the usual way.
    private nonisolated static func serveCall(_ frames: [[UInt8]], from peer: String, inbound: InboundCalls, recorder: TraceRecorder) -> Bool {
        guard inbound.isSetUp, let message = lone(.call, in: frames), case let .call(_, code, _) = message.body else { return false }
        // The clock first: the handler's events come after the call that caused them.
        recorder.observe(lamport: message.header.lamport)
        return inbound.serve(message, code: code, from: peer, recorder: recorder) != nil
    }

    /// `frames` decoded, when they are one well-formed message (not a BATCH) of `command`; nil
    /// otherwise, the command octet being looked at before anything is decoded.
    private nonisolated static func lone(_ command: WireCommand, in frames: [[UInt8]]) -> WireMessage? {
        guard frames.count == 2, frames[0].count > WireHeader.commandOffset,
              frames[0][WireHeader.commandOffset] == command.rawValue else { return nil }
        return try? WireMessage.decode(frames)
    }

    /// Control messages are handled off the inbound queue — setting up a node makes calls whose
    /// RETURNs arrive on that queue — but in their order, on a queue of their own.
    private func handleControl(_ message: WireMessage, from peer: String) {
        if let controlQueue {
            controlQueue.send((message, peer))
        } else if earlyControl.count < Self.earlyLimit {
            earlyControl.append((message, peer))
        } else {
            recorder.record(.fault("\(message.body.command) from \(PeerName.readable(peer)) dropped: it came before this node could handle it"),
                            controller: ControllerIDs.node(nodeName), cause: nil)
        }
    }

    private func ioEvent(_ event: NodeIOEvent) async {
        switch event {
        case let .peerGone(peer):
            let timeout = io?.peerTimeoutMilliseconds ?? 0
            // Said as the timeout the run was given: the check's margin (`NodeIOTuning`) only
            // makes sure the node says it within that time.
            let reason = "no message for \(timeout) ms"
            // A peer that said goodbye on its own (`peerLeft`) falls silent afterwards: that is
            // no second news for the handlers.
            guard peerGone(peer, reason: reason) else { return }
            await peerGoneHandler?(peer, reason)
        case let .peerRefused(key):
            refusedCount += 1
            if RejectionSampling.traces(refusedCount) {
                let text = refusedCount <= RejectionSampling.oneByOne
                    ? "refused a peer whose CURVE key is not allowed: \(key)"
                    : "\(refusedCount) CURVE handshakes refused so far; the last with the key \(key), which is not allowed"
                recorder.record(.fault(text), controller: ControllerIDs.node(nodeName), cause: nil)
            }
            handOverSecurity(event)
        case .handshakeFailed:
            handOverSecurity(event)
        case let .failed(text):
            recorder.record(.fault(text), controller: ControllerIDs.node(nodeName), cause: nil)
        case let .impersonation(routingID, userID, count):
            let text = "dropped a message from \(PeerName.readable(routingID)) sent with the CURVE key of node \(userID)"
            recorder.record(.fault(count == 1 ? text : "\(text) (\(count) so far)"), controller: ControllerIDs.node(nodeName), cause: nil)
            // The first one names a mistake to a conductor still starting (two nodes, one key).
            if count == 1 { handOverSecurity(event) }
        }
    }

    /// A refused key or failed handshake goes to the handlers in the order heard; before they are
    /// set it is kept (at most `earlyLimit`).
    private func handOverSecurity(_ event: NodeIOEvent) {
        if let securityQueue {
            securityQueue.send(event)
        } else if earlySecurity.count < Self.earlyLimit {
            earlySecurity.append(event)
        }
    }

    /// CURVE handshakes refused by the allow-list.
    package private(set) var refusedCount = 0

    /// Every call waiting on `peer` fails now (SPEC §7: transitions complete with a fault).
    /// False, doing nothing, when it was gone already.
    @discardableResult
    func peerGone(_ peer: String, reason: String) -> Bool {
        declareGone(peer, fault: "node \(peer) is gone: \(reason)")
    }

    /// `peer` said goodbye on its own, before this node's own goodbye (a worker stopped by a
    /// signal, TWP/1 §9.8 rule 6): it is gone for the run now rather than once silent, every call
    /// waiting on it or made to it later fails with `fault`, and it is sent nothing more. False,
    /// doing nothing, when it was gone already.
    @discardableResult
    package func peerLeft(_ peer: String, fault: String) -> Bool {
        declareGone(peer, fault: fault)
    }

    private func declareGone(_ peer: String, fault: String) -> Bool {
        guard let waiting = outbound.declareGone(peer, fault: fault) else { return false }
        for entry in waiting {
            entry.done.resume(returning: .fault(fault))
        }
        return true
    }
}

/// Names under which node-level events are traced.
package enum ControllerIDs {
    package static func node(_ name: String) -> TrellisModel.ControllerID { TrellisModel.ControllerID("node:" + name) }
}

import TrellisModel
