/// Where the conductor and workers wait for one control message (a HELLO, READY, TRACE-DATA,
/// GOODBYE-ACK) with a deadline: a peer that does not answer ends the wait with an error instead
/// of a hang.
actor Rendezvous<Message: Sendable> {
    private var arrived: [String: [Message]] = [:]
    private var waiting: [String: CheckedContinuation<Message?, Never>] = [:]

    /// Hands over a message to whoever waits (or will wait) for `key`.
    func deliver(_ message: Message, for key: String) {
        if let waiter = waiting.removeValue(forKey: key) {
            waiter.resume(returning: message)
        } else {
            arrived[key, default: []].append(message)
        }
    }

    /// The next message for `key`, or nil after `timeout`.
    func wait(for key: String, timeout: Duration) async -> Message? {
        if var queue = arrived[key], !queue.isEmpty {
            let first = queue.removeFirst()
            arrived[key] = queue
            return first
        }
        let deadline = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(key)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            waiting[key] = continuation
        }
    }

    /// Ends every wait with nil (the run is being torn down).
    func cancelAll() {
        let waiters = waiting
        waiting.removeAll()
        for (_, waiter) in waiters { waiter.resume(returning: nil) }
    }

    private func expire(_ key: String) {
        waiting.removeValue(forKey: key)?.resume(returning: nil)
    }
}
