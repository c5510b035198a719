import Synchronization
import TrellisWire

/// The CALLs a node is waiting on, by correlation id, behind a lock: a RETURN can then complete
/// its call on the I/O thread that received it, without first queueing it for the transport's
/// actor — one hand-off less on every round trip.
final class PendingCalls: Sendable {
    typealias Waiter = (peer: String, done: CheckedContinuation<WireResult, Never>)

    private let calls = Mutex<[UInt64: Waiter]>([:])

    func insert(_ correlation: UInt64, peer: String, done: CheckedContinuation<WireResult, Never>) {
        calls.withLock { $0[correlation] = (peer, done) }
    }

    /// The call waiting on this correlation id, taken out (each call completes once).
    func remove(_ correlation: UInt64) -> Waiter? {
        calls.withLock { $0.removeValue(forKey: correlation) }
    }

    /// Every call waiting on `peer` (every call when nil), taken out.
    func removeAll(peer: String? = nil) -> [Waiter] {
        calls.withLock { calls in
            var taken: [Waiter] = []
            for (correlation, waiter) in calls where peer == nil || waiter.peer == peer {
                taken.append(waiter)
                calls[correlation] = nil
            }
            return taken
        }
    }
}
