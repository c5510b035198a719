#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif

/// The descriptors one thread waits on with poll(2): each socket adds its own before the wait
/// (remembering where) and reads its results after it. Cleared and refilled every turn; its
/// storage is kept, so a turn allocates nothing.
public struct ZMTPPollSet: Sendable {
    private var descriptors: [pollfd] = []

    /// An empty set.
    public init() {}

    /// Forgets the last turn's descriptors (keeping the storage).
    public mutating func removeAll() {
        descriptors.removeAll(keepingCapacity: true)
    }

    /// Adds a descriptor to wait on, for reading unless told not to (a socket whose received
    /// messages are at their bound) and for writing when asked; its index.
    @discardableResult
    public mutating func add(fileDescriptor: Int32, readable: Bool = true, writable: Bool = false) -> Int {
        let events = (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0)
        descriptors.append(pollfd(fd: fileDescriptor, events: events, revents: 0))
        return descriptors.count - 1
    }

    /// Whether the descriptor at `index` can be read (or was closed or failed, which a read tells).
    public func isReadable(_ index: Int) -> Bool {
        descriptors.indices.contains(index) && descriptors[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
    }

    /// Whether the descriptor at `index` can be written (or failed, which a write tells).
    public func isWritable(_ index: Int) -> Bool {
        descriptors.indices.contains(index) && descriptors[index].revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0
    }

    /// Waits until a descriptor is ready or `timeout` passes (nil: no limit; zero: a look without
    /// waiting); how many are ready. An interrupted wait returns 0.
    @discardableResult
    public mutating func poll(timeout: Duration?) throws(ZMTPError) -> Int {
        let milliseconds: Int32
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let total = max(0, seconds) * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            milliseconds = Int32(clamping: timeout <= .zero ? 0 : max(1, total))
        } else {
            milliseconds = -1
        }
        for index in descriptors.indices { descriptors[index].revents = 0 }
        let count = descriptors.count
        let ready = descriptors.withUnsafeMutableBufferPointer { systemPoll($0.baseAddress, nfds_t(count), milliseconds) }
        if ready < 0 {
            if errno == EINTR { return 0 }
            throw .system("poll", errno: errno)
        }
        return Int(ready)
    }

    /// Looks without waiting, again and again, for at most `spin`, giving the core away between
    /// looks when `yieldsCore` (so that the peer it waits for runs, on one CPU too); then waits up
    /// to `timeout`. The spin is `IdleSpin`'s in the node transport: a reply that comes within it
    /// is caught awake, without paying a wake-up. How many are ready.
    @discardableResult
    public mutating func poll(spinning spin: Duration, yieldsCore: Bool = true, timeout: Duration?) throws(ZMTPError) -> Int {
        if spin > .zero {
            let clock = ContinuousClock()
            let end = clock.now.advanced(by: spin)
            repeat {
                let ready = try poll(timeout: .zero)
                if ready > 0 { return ready }
                if yieldsCore { ZMTPSystem.yieldCore() }
            } while clock.now < end
        }
        return try poll(timeout: timeout)
    }
}

private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(fds, count, timeout)
}
