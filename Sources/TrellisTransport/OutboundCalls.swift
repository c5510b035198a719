import Synchronization
import TrellisWire

/// The CALLs a node makes: the peers it may call (connected, not gone), their correlation ids,
/// and the calls waiting on a RETURN — all behind one lock, so that a call is made from the
/// caller's own thread without a hop to the transport's actor, and a RETURN completes its call
/// on the I/O thread that received it. Declaring a peer gone and taking in a new call to it are
/// one step each, so no call can wait on a peer already declared gone.
///
/// A peer connected to (a node of the run) is remembered as gone for the run (TWP/1 §9.5 rule 3);
/// a stranger declared gone — one this node never connected to, which no call can wait on — only
/// among the last `NodeIOTuning.goneStrangersRemembered`, so that a peer making up names does not
/// grow what is kept.
final class OutboundCalls: Sendable {
    typealias Waiter = (peer: String, done: CheckedContinuation<WireResult, Never>)

    private struct State {
        var io: NodeLink?
        var connected = Set<String>()
        /// What each call to a peer declared gone fails with ("node b is gone: …", "node b
        /// stopped: …"), the same for calls waiting then and calls made after: every node of the
        /// run, the strangers remembered.
        var gone: [String: String] = [:]
        /// The strangers declared gone that are still remembered (their reasons are in `gone`).
        var goneStrangers = RecentNames(capacity: NodeIOTuning.goneStrangersRemembered)
        var nextCorrelation: UInt64 = 1
        var calls: [UInt64: Waiter] = [:]
        /// Set when the transport stops: no call waits from then on.
        var stopped = false
    }

    private let state = Mutex(State())

    /// The link this node's messages go out through, from `start` until `stop`.
    var io: NodeLink? { state.withLock { $0.io } }

    func attach(_ io: NodeLink) {
        state.withLock { $0.io = io }
    }

    /// Notes that this node has a stream to `peer`; the link to open it through when it had none.
    /// A node of the run from now on: if it was declared gone as a stranger, that is kept for good.
    func connect(_ peer: String) -> NodeLink? {
        state.withLock { state in
            guard state.connected.insert(peer).inserted else { return nil }
            state.goneStrangers.remove(peer)
            return state.io
        }
    }

    func isConnected(_ peer: String) -> Bool { state.withLock { $0.connected.contains(peer) } }

    func goneFault(_ peer: String) -> String? { state.withLock { $0.gone[peer] } }

    /// A correlation id for a call to `peer` and the link to send it through, or why no call can go.
    func begin(to peer: String) -> Result<(correlation: UInt64, io: NodeLink), CallRefused> {
        state.withLock { state in
            if let fault = state.gone[peer] { return .failure(CallRefused(reason: fault)) }
            guard let io = state.io, !state.stopped, state.connected.contains(peer) else {
                return .failure(CallRefused(reason: "no connection to node \(peer)"))
            }
            defer { state.nextCorrelation += 1 }
            return .success((state.nextCorrelation, io))
        }
    }

    /// Registers the caller waiting on `correlation`; nil then. When `peer` was declared gone (or
    /// the transport stopped) since `begin`, registers nothing and says why: the caller completes
    /// the call with it.
    func wait(_ correlation: UInt64, peer: String, done: CheckedContinuation<WireResult, Never>) -> CallRefused? {
        state.withLock { state in
            if let fault = state.gone[peer] { return CallRefused(reason: fault) }
            if state.stopped { return CallRefused(reason: "the transport stopped") }
            state.calls[correlation] = (peer, done)
            return nil
        }
    }

    /// The call waiting on this correlation id, taken out (each call completes once).
    func remove(_ correlation: UInt64) -> Waiter? {
        state.withLock { $0.calls.removeValue(forKey: correlation) }
    }

    /// The call to `peer` waiting on this correlation id, taken out; nil when there is none or
    /// it waits on another peer (correlation ids are each sender's own).
    func remove(_ correlation: UInt64, answeredBy peer: String) -> Waiter? {
        state.withLock { state in
            guard state.calls[correlation]?.peer == peer else { return nil }
            return state.calls.removeValue(forKey: correlation)
        }
    }

    /// Declares `peer` gone and takes out every call waiting on it; nil when it already was.
    func declareGone(_ peer: String, fault: String) -> [Waiter]? {
        state.withLock { state in
            guard state.gone[peer] == nil else { return nil }
            state.gone[peer] = fault
            if !state.connected.contains(peer), let forgotten = state.goneStrangers.insert(peer) {
                state.gone[forgotten] = nil
            }
            return Self.take(from: &state.calls) { $0.peer == peer }
        }
    }

    /// How many peers are remembered as gone (for tests: it stays bounded).
    var goneCount: Int { state.withLock { $0.gone.count } }

    /// Ends calling: takes out the link and every waiting call.
    func stop() -> (io: NodeLink?, waiting: [Waiter]) {
        state.withLock { state in
            defer { state.io = nil }
            state.stopped = true
            return (state.io, Self.take(from: &state.calls) { _ in true })
        }
    }

    private static func take(from calls: inout [UInt64: Waiter], where matches: (Waiter) -> Bool) -> [Waiter] {
        var taken: [Waiter] = []
        for (correlation, waiter) in calls where matches(waiter) {
            taken.append(waiter)
            calls[correlation] = nil
        }
        return taken
    }
}

/// Why a call could not be made: the caller gets it as the call's fault.
struct CallRefused: Error {
    let reason: String
}
