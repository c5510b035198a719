#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif

/// The POSIX calls the sockets make, each in one place with its platform's spelling: stream
/// sockets that never block and never raise SIGPIPE, for tcp (with TCP_NODELAY) and Unix paths.
enum ZMTPSystem {
    #if os(Linux)
    static let stream = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let stream = SOCK_STREAM
    static let sendFlags: Int32 = 0
    #endif

    /// Whether the last call failed only because it would have blocked.
    static var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }

    /// A new stream socket for `endpoint`, non-blocking and closed on exec.
    static func makeSocket(for endpoint: ZMTPEndpoint) throws(ZMTPError) -> Int32 {
        let family: Int32
        switch endpoint {
        case .tcp: family = AF_INET
        case .ipc: family = AF_UNIX
        }
        let fd = socket(family, stream, 0)
        guard fd >= 0 else { throw .system("socket", errno: errno) }
        configure(fd, tcp: family == AF_INET)
        return fd
    }


    /// Calls `body` with the endpoint's socket address.
    static func withAddress<R>(_ endpoint: ZMTPEndpoint, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        switch endpoint {
        case .tcp(_, let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = endpoint.ipv4Address ?? 0
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case .ipc(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
    }

    /// A listening socket on `endpoint`, and the endpoint it is bound to (the port the system
    /// picked for `*` or 0). A Unix path left behind by an earlier run is removed first, as
    /// libzmq does.
    static func listening(on endpoint: ZMTPEndpoint) throws(ZMTPError) -> (Int32, ZMTPEndpoint) {
        let fd = try makeSocket(for: endpoint)
        var one: Int32 = 1
        switch endpoint {
        case .tcp: _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        case .ipc(let path): _ = unlink(path)
        }
        guard withAddress(endpoint, { bind(fd, $0, $1) }) == 0 else {
            let code = errno
            _ = close(fd)
            throw .system("bind \(endpoint)", errno: code)
        }
        guard listen(fd, 128) == 0 else {
            let code = errno
            _ = close(fd)
            throw .system("listen", errno: code)
        }
        return (fd, boundEndpoint(fd, endpoint))
    }


    /// The tcp endpoint with the port the socket got; an ipc endpoint as it is.
    private static func boundEndpoint(_ fd: Int32, _ endpoint: ZMTPEndpoint) -> ZMTPEndpoint {
        guard case .tcp(let host, _) = endpoint else { return endpoint }
        var address = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        guard result == 0 else { return endpoint }
        return .tcp(host: host == "*" ? "127.0.0.1" : host, port: UInt16(bigEndian: address.sin_port))
    }

    /// Starts connecting to `endpoint`: the socket, and whether the connection is still being
    /// made (wait for it to be writable, then `connectResult`).
    static func startConnecting(to endpoint: ZMTPEndpoint) throws(ZMTPError) -> (Int32, inProgress: Bool) {
        let fd = try makeSocket(for: endpoint)
        let result = withAddress(endpoint) { connect(fd, $0, $1) }
        if result == 0 { return (fd, false) }
        let code = errno
        if code == EINPROGRESS || code == EINTR { return (fd, true) }
        _ = close(fd)
        throw .system("connect \(endpoint)", errno: code)
    }


    /// The outcome of a connection that was in progress: 0 when made, else its errno.
    static func connectResult(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size) == 0 else { return errno }
        return code
    }

    /// Accepts one waiting connection, set up as `socket(for:)` sets up its own; nil when none
    /// waits (or it vanished before it was taken).
    static func acceptOne(from fd: Int32, tcp: Bool) -> Int32? {
        let accepted = accept(fd, nil, nil)
        guard accepted >= 0 else { return nil }
        configure(accepted, tcp: tcp)
        return accepted
    }

    /// What every socket of ours is set to: closed on exec, never blocking, never raising
    /// SIGPIPE (Darwin's option; elsewhere each send says MSG_NOSIGNAL), and for tcp no Nagle
    /// delay.
    private static func configure(_ fd: Int32, tcp: Bool) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        if tcp { _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size)) }
    }


    /// `send(2)` without SIGPIPE: the bytes written, or -1 (see `errno`).
    static func sendBytes(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        send(fd, bytes.baseAddress, bytes.count, sendFlags)
    }

    /// `read(2)` into `space`: the bytes read, 0 at the end of the stream, or -1.
    static func readBytes(_ fd: Int32, _ space: UnsafeMutableRawBufferPointer) -> Int {
        read(fd, space.baseAddress, space.count)
    }

    static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    /// Gives the core away: a spinning loop lets the thread it waits for run, on one CPU too.
    static func yieldCore() {
        _ = sched_yield()
    }
}

extension ZMTPSystem {
    /// Removes a Unix socket's path (a listener's, when it closes).
    static func removeFile(_ path: String) {
        _ = unlink(path)
    }
}
