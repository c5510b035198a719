#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TrellisZMTP

/// Drives our sockets on the test's task until a condition holds: each turn waits in poll(2)
/// for at most a few milliseconds (our sockets' events end it at once), then asks the condition,
/// which may look at libzmq sockets (their own I/O threads move their bytes meanwhile). Gives up
/// after `limit`: a test that waits for something that never comes fails, it does not hang.
struct Pump {
    var dealers: [ZMTPDealer] = []
    var routers: [ZMTPRouter] = []
    private var set = ZMTPPollSet()

    init(dealers: [ZMTPDealer] = [], routers: [ZMTPRouter] = []) {
        self.dealers = dealers
        self.routers = routers
    }

    mutating func turn() throws {
        set.removeAll()
        for dealer in dealers { dealer.register(in: &set) }
        for router in routers { router.register(in: &set) }
        try set.poll(timeout: .milliseconds(2))
        for dealer in dealers { dealer.service(set) }
        for router in routers { router.service(set) }
    }

    /// Turns until `condition` is true; false when `limit` passed first (a hang guard, not a
    /// timing check: the whole suite shares two cores). Gives the test's thread back to the pool
    /// every 50 ms of turning, so it is never held for long, while a condition met within a few
    /// turns — almost all — costs no trip through the pool's queue.
    mutating func until(limit: Duration = .seconds(60), _ condition: () throws -> Bool) async throws -> Bool {
        let end = ContinuousClock.now.advanced(by: limit)
        var held = ContinuousClock.now
        while ContinuousClock.now < end {
            try turn()
            if try condition() { return true }
            if ContinuousClock.now - held > .milliseconds(50) {
                await Task.yield()
                held = .now
            }
        }
        return false
    }
}

/// A plain TCP client or server socket for the tests that play a broken or hostile peer.
final class RawStream {
    let fd: Int32
    private var closed = false

    init(fd: Int32) {
        self.fd = fd
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Connects (blocking) to 127.0.0.1:`port`.
    static func connect(port: UInt16) throws -> RawStream {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw ZMTPError.system("connect", errno: errno) }
        return RawStream(fd: fd)
    }

    deinit {
        close()
    }

    func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Whatever arrives within `milliseconds` (up to 64 KiB): nil when nothing did, empty at
    /// the end of the stream.
    func read(milliseconds: Int32 = 20) -> [UInt8]? {
        var item = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&item, 1, milliseconds) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer.prefix(count)) : []
    }

    /// Closes the socket once (a second close could end a descriptor libzmq got since).
    func close() {
        guard !closed else { return }
        closed = true
        closeDescriptor(fd)
    }
}

extension ZMTPEndpoint {
    var port: UInt16 {
        if case .tcp(_, let port) = self { return port }
        return 0
    }
}

/// The C library's `connect` and `close`, under names the test types' own methods do not hide.
func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ size: socklen_t) -> Int32 {
    connect(fd, address, size)
}

func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
