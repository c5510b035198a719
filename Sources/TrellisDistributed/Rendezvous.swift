/// Where the conductor and workers wait for one control message (a HELLO, READY, TRACE-DATA,
/// GOODBYE-ACK) with a deadline: a peer that does not answer ends the wait with an error instead
/// of a hang.
///
/// Each wait has a deadline of its own, and a deadline ends only the wait it was started for
/// (a token names it). The conductor waits several times for one key — every part of a node's
/// trace arrives under one correlation id — and a deadline that outlived its wait (cancelled,
/// but run late on a busy or single CPU) must not end the next wait for that key.
actor Rendezvous<Message: Sendable> {
    /// Starts a deadline: `fire` runs once `timeout` has passed, unless the returned task is
    /// cancelled first. `Rendezvous.sleepingDeadline` in production; tests fire deadlines by hand.
    typealias StartDeadline = @Sendable (_ timeout: Duration, _ fire: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    private struct Waiter {
        var token: UInt64
        var continuation: CheckedContinuation<Message?, Never>
        var deadline: Task<Void, Never>
    }

    private var arrived: [String: [Message]] = [:]
    private var waiting: [String: Waiter] = [:]
    private var nextToken: UInt64 = 0
    private let startDeadline: StartDeadline

    init(startDeadline: @escaping StartDeadline = Rendezvous.sleepingDeadline) {
        self.startDeadline = startDeadline
    }

    /// A deadline that sleeps: cancelled, it ends without firing (a cancellation is never
    /// mistaken for the end of the sleep).
    static func sleepingDeadline(_ timeout: Duration, _ fire: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task {
            do {
                try await Task.sleep(for: timeout)
            } catch {
                return
            }
            await fire()
        }
    }

    /// Hands over a message to whoever waits (or will wait) for `key`.
    func deliver(_ message: Message, for key: String) {
        if let waiter = waiting.removeValue(forKey: key) {
            waiter.deadline.cancel()
            waiter.continuation.resume(returning: message)
        } else {
            arrived[key, default: []].append(message)
        }
    }

    /// The next message for `key`, or nil after `timeout`. One wait per key at a time: a second
    /// wait for a key ends the first with nil.
    func wait(for key: String, timeout: Duration) async -> Message? {
        if let first = next(for: key) { return first }
        nextToken += 1
        let token = nextToken
        return await withCheckedContinuation { continuation in
            end(key, token: nil)
            let deadline = startDeadline(timeout) { [weak self] in await self?.end(key, token: token) }
            waiting[key] = Waiter(token: token, continuation: continuation, deadline: deadline)
        }
    }

    /// The next message for `key` that arrived already, or nil: no wait (a peer that is gone
    /// sends nothing more).
    func next(for key: String) -> Message? {
        guard var queue = arrived[key], !queue.isEmpty else { return nil }
        let first = queue.removeFirst()
        arrived[key] = queue.isEmpty ? nil : queue
        return first
    }

    /// Drops what arrived for `key` and was not waited for (the answer it belonged to is done).
    func discard(_ key: String) {
        arrived[key] = nil
    }

    /// Ends every wait with nil, and drops what nobody waited for (the run is being torn down).
    func cancelAll() {
        arrived.removeAll()
        let waiters = waiting
        waiting.removeAll()
        for (_, waiter) in waiters {
            waiter.deadline.cancel()
            waiter.continuation.resume(returning: nil)
        }
    }

    /// Ends the wait for `key` with nil: only the wait `token` names, or any wait when nil.
    private func end(_ key: String, token: UInt64?) {
        guard let waiter = waiting[key], token == nil || waiter.token == token else { return }
        waiting.removeValue(forKey: key)
        waiter.deadline.cancel()
        waiter.continuation.resume(returning: nil)
    }
}
