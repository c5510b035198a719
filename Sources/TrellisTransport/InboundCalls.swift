import Synchronization
import TrellisTrace
import TrellisWire

/// The CALLs a node serves: who answers them, where each kind runs, the I/O their RETURNs leave
/// through, and how many are being served. Shared by the transport's actor and its I/O thread, which serves a lone CALL straight
/// from the socket (no queue, no hop to the actor) — a round trip's shortest path.
final class InboundCalls: Sendable {
    typealias Handler = @Sendable (WireMessage, String) async -> WireResult

    private struct State {
        var handler: Handler?
        var placement: @Sendable (WireCallCode) -> CallPlacement = { _ in .sharedPool }
        /// Emptied when the transport stops: the I/O's own callback holds this object.
        var io: NodeLink?
        var inFlight = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func set(handler: @escaping Handler, placement: @escaping @Sendable (WireCallCode) -> CallPlacement) {
        state.withLock { state in
            state.handler = handler
            state.placement = placement
        }
    }

    /// Lets go of the handler (the transport stopped): it holds the node that set it.
    func removeHandler() {
        state.withLock { $0.handler = nil }
    }

    func attach(_ io: NodeLink?) {
        state.withLock { $0.io = io }
    }

    /// Whether a handler is set.
    var isSetUp: Bool { state.withLock { $0.handler != nil } }

    /// Serves `message`, a CALL of `code`, on a task of its own — on the I/O thread or on the
    /// shared pool, as its placement says — and sends its RETURN to `peer`. Returns that task,
    /// which ends once the RETURN is queued; nil, doing nothing, when no handler is set or the
    /// I/O is gone.
    @discardableResult
    func serve(_ message: WireMessage, code: WireCallCode, from peer: String, recorder: TraceRecorder) -> Task<Void, Never>? {
        let taken = state.withLock { state -> (Handler, CallPlacement, NodeLink)? in
            guard let handler = state.handler, let io = state.io else { return nil }
            state.inFlight += 1
            return (handler, state.placement(code), io)
        }
        guard let (handler, placement, io) = taken else { return nil }
        let serve: @Sendable () async -> Void = {
            let result = await handler(message, peer)
            io.send(to: peer, WireMessage(.return(result), correlationID: message.header.correlationID,
                                          lamport: recorder.lamport, step: UInt32(clamping: recorder.step)))
            self.end()
        }
        // A pool task is made by `Task {}`, never `Task(executorPreference: nil)`: see
        // `SerialMailbox.send`. One task per inbound CALL (one per node-boundary crossing, not
        // per controller): a call may call back into this node before it returns.
        if placement == .ioThread, let executor = io.executor {
            return Task(executorPreference: executor, operation: serve)
        }
        return Task(operation: serve)
    }

    /// Waits until no CALL is being served (before acknowledging a goodbye).
    func waitUntilIdle() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.inFlight == 0 { return true }
                state.idleWaiters.append(done)
                return false
            }
            if idle { done.resume() }
        }
    }

    private func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            defer { state.idleWaiters.removeAll() }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
