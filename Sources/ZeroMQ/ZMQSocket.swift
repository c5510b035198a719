import CZeroMQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif

/// A libzmq socket, used from the thread that created it only. Messages are byte frames sent
/// and received through `zmq_msg_*`: never C strings.
package final class ZMQSocket {
    let handle: UnsafeMutableRawPointer
    private var closed = false
    /// The `User-Id` of the last message received with `readsUserID`; nil when it had none.
    package private(set) var lastUserID: String?

    init(handle: UnsafeMutableRawPointer) {
        self.handle = handle
    }

    deinit {
        close()
    }

    package func bind(_ endpoint: String) throws(ZMQError) {
        guard zmq_bind(handle, endpoint) == 0 else { throw ZMQError("zmq_bind \(endpoint)") }
    }

    package func connect(_ endpoint: String) throws(ZMQError) {
        guard zmq_connect(handle, endpoint) == 0 else { throw ZMQError("zmq_connect \(endpoint)") }
    }

    package func disconnect(_ endpoint: String) throws(ZMQError) {
        guard zmq_disconnect(handle, endpoint) == 0 else { throw ZMQError("zmq_disconnect \(endpoint)") }
    }

    /// Sets an integer option (`ZMQ_LINGER`, `ZMQ_SNDHWM`, `ZMQ_ROUTER_MANDATORY`, …).
    package func set(_ option: Int32, _ value: Int32) throws(ZMQError) {
        var value = value
        guard zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size) == 0 else {
            throw ZMQError("zmq_setsockopt \(option)")
        }
    }

    /// Sets a 64-bit integer option (`ZMQ_MAXMSGSIZE`).
    package func set(_ option: Int32, int64 value: Int64) throws(ZMQError) {
        var value = value
        guard zmq_setsockopt(handle, option, &value, MemoryLayout<Int64>.size) == 0 else {
            throw ZMQError("zmq_setsockopt \(option)")
        }
    }

    /// Sets a binary option (`ZMQ_ROUTING_ID`, CURVE keys as Z85 text, `ZMQ_ZAP_DOMAIN`).
    package func set(_ option: Int32, bytes: [UInt8]) throws(ZMQError) {
        let result = bytes.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
        guard result == 0 else { throw ZMQError("zmq_setsockopt \(option)") }
    }

    package func set(_ option: Int32, text: String) throws(ZMQError) {
        try set(option, bytes: Array(text.utf8))
    }

    /// The endpoint this socket last bound or connected to (resolves `tcp://127.0.0.1:*`).
    package var lastEndpoint: String {
        var buffer = [CChar](repeating: 0, count: 512)
        var size = buffer.count
        guard zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sends one multipart message. Returns false, having queued nothing, when the socket would
    /// block (`dontWait`): the caller keeps the message and retries — backpressure, never a drop.
    /// libzmq queues the parts of a message atomically once the first is accepted.
    @discardableResult
    package func send(_ frames: [[UInt8]], dontWait: Bool = true) throws(ZMQError) -> Bool {
        for (index, frame) in frames.enumerated() {
            var message = zmq_msg_t()
            guard zmq_msg_init_size(&message, frame.count) == 0 else { throw ZMQError("zmq_msg_init_size") }
            if let data = zmq_msg_data(&message) {
                frame.withUnsafeBytes { bytes in
                    if let source = bytes.baseAddress { data.copyMemory(from: source, byteCount: bytes.count) }
                }
            }
            var flags: Int32 = index < frames.count - 1 ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            while zmq_msg_send(&message, handle, flags) < 0 {
                let code = zmq_errno()
                if code == EINTR { continue }
                zmq_msg_close(&message)
                if code == EAGAIN, index == 0 { return false }
                throw ZMQError("zmq_msg_send", code: code)
            }
        }
        return true
    }

    /// Receives one multipart message; nil when none is waiting (`dontWait`).
    package func receive(dontWait: Bool = true, maximumFrames: Int = 64) throws(ZMQError) -> [[UInt8]]? {
        var frames: [[UInt8]] = []
        return try receive(into: &frames, dontWait: dontWait, maximumFrames: maximumFrames) ? frames : nil
    }

    /// Receives one multipart message into `frames`, which then holds exactly its frames; false,
    /// with `frames` untouched, when none is waiting (`dontWait`). The frames' storage is reused
    /// from the previous message where no one else holds it: a receive loop then copies each
    /// message into memory already in cache instead of allocating (and faulting in) new arrays.
    ///
    /// With `readsUserID`, the message's `User-Id` property (the user id a ZAP handler gave its
    /// connection, `zmq_msg_gets`) is kept in `lastUserID` (nil when it has none).
    package func receive(into frames: inout [[UInt8]], dontWait: Bool = true, maximumFrames: Int = 64, readsUserID: Bool = false) throws(ZMQError) -> Bool {
        var count = 0
        while true {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            var received: Int32
            repeat {
                received = zmq_msg_recv(&message, handle, dontWait && count == 0 ? ZMQ_DONTWAIT : 0)
            } while received < 0 && zmq_errno() == EINTR
            if received < 0 {
                // Checked before an error is made: "nothing waiting" ends every receive loop, and
                // an error's text (`zmq_strerror`) costs more than the rest of the call.
                let code = zmq_errno()
                if code == EAGAIN, count == 0 { return false }
                throw ZMQError("zmq_msg_recv", code: code)
            }
            if readsUserID {
                // A ROUTER's routing-id frame carries no metadata; the frames the peer sent do.
                // libzmq's value is a NUL-terminated string it owns while the message lives:
                // copied here, before the message is closed.
                if count == 0 { lastUserID = nil }
                if lastUserID == nil, let value = zmq_msg_gets(&message, "User-Id") { lastUserID = String(cString: value) }
            }
            let size = zmq_msg_size(&message)
            // libzmq's buffer is untyped bytes: bound as such, it is copied with one memcpy.
            let bytes = UnsafeRawBufferPointer(start: size > 0 ? zmq_msg_data(&message) : nil, count: size > 0 ? size : 0)
                .bindMemory(to: UInt8.self)
            // Reused only when about the right size: a buffer still held by whoever got the last
            // message is copied at its full capacity, and one large message must not make every
            // later one that big.
            if count < frames.count, frames[count].capacity <= 2 * bytes.count + 4096 {
                frames[count].removeAll(keepingCapacity: true)
                frames[count].append(contentsOf: bytes)
            } else if count < frames.count {
                frames[count] = Array(bytes)
            } else {
                frames.append(Array(bytes))
            }
            count += 1
            if zmq_msg_more(&message) == 0 { break }
            if count >= maximumFrames {
                // Too many parts: drain the rest of this message so the next one starts clean.
                var rest = zmq_msg_t()
                zmq_msg_init(&rest)
                while zmq_msg_recv(&rest, handle, 0) >= 0, zmq_msg_more(&rest) != 0 {}
                zmq_msg_close(&rest)
                break
            }
        }
        if frames.count > count { frames.removeLast(frames.count - count) }
        return true
    }

    /// Closes the socket (after setting a bounded `ZMQ_LINGER`, queued messages are dropped past it).
    package func close() {
        guard !closed else { return }
        closed = true
        zmq_close(handle)
    }
}

/// One entry of a `zmq_poll` set: a socket or a plain file descriptor.
package struct ZMQPollItem {
    package enum Source {
        case socket(ZMQSocket)
        case fileDescriptor(Int32)
    }

    package var source: Source
    package var readable = false
    package var writable = false
    package var wantsWritable: Bool

    package init(_ source: Source, wantsWritable: Bool = false) {
        self.source = source
        self.wantsWritable = wantsWritable
    }
}

/// `zmq_poll` over sockets and file descriptors.
package enum ZMQPoll {
    /// `zmq_poll` over the items; fills in `readable`/`writable`. Returns how many are ready.
    @discardableResult
    package static func poll(_ items: inout [ZMQPollItem], timeoutMilliseconds: Int) throws(ZMQError) -> Int {
        var set = ZMQPollSet(items)
        defer { items = set.items }
        return try set.poll(timeoutMilliseconds: timeoutMilliseconds)
    }
}

/// A `zmq_poll` set that a loop refills and polls turn after turn: the storage of its items and
/// of libzmq's entries is kept from one poll to the next, so a turn allocates nothing.
package struct ZMQPollSet {
    package private(set) var items: [ZMQPollItem]
    private var entries: [zmq_pollitem_t] = []

    package init(_ items: [ZMQPollItem] = []) {
        self.items = items
    }

    package var count: Int { items.count }

    package subscript(index: Int) -> ZMQPollItem { items[index] }

    package mutating func append(_ item: ZMQPollItem) {
        items.append(item)
    }

    /// Empties the set, keeping its storage.
    package mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
    }

    /// `zmq_poll` over the items; fills in `readable`/`writable`. Returns how many are ready.
    @discardableResult
    package mutating func poll(timeoutMilliseconds: Int) throws(ZMQError) -> Int {
        entries.removeAll(keepingCapacity: true)
        for item in items {
            var entry = zmq_pollitem_t()
            switch item.source {
            case let .socket(socket): entry.socket = socket.handle
            case let .fileDescriptor(fd): entry.fd = fd
            }
            entry.events = Int16(ZMQ_POLLIN) | (item.wantsWritable ? Int16(ZMQ_POLLOUT) : 0)
            entries.append(entry)
        }
        var ready: Int32
        repeat {
            ready = zmq_poll(&entries, Int32(entries.count), timeoutMilliseconds)
        } while ready < 0 && zmq_errno() == EINTR
        guard ready >= 0 else { throw ZMQError("zmq_poll") }
        for index in items.indices {
            items[index].readable = entries[index].revents & Int16(ZMQ_POLLIN) != 0
            items[index].writable = entries[index].revents & Int16(ZMQ_POLLOUT) != 0
        }
        return Int(ready)
    }
}

/// How Swift code on any thread wakes the I/O thread inside `zmq_poll`: a Linux eventfd, or on
/// other systems (Darwin has no eventfd) a non-blocking pipe whose read end `zmq_poll` watches.
package struct WakeUpSignal: Sendable {
    /// What `zmq_poll` watches: readable while a signal is pending.
    package let fileDescriptor: Int32
    /// Where `signal()` writes: the eventfd itself on Linux, the pipe's write end elsewhere.
    private let signalDescriptor: Int32

    package init() throws(ZMQError) {
        #if os(Linux)
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw ZMQError("eventfd", code: errno) }
        fileDescriptor = fd
        signalDescriptor = fd
        #else
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ZMQError("pipe", code: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        signalDescriptor = ends[1]
        #endif
    }

    /// Wakes the poller. Safe from any thread; several signals before a drain coalesce.
    package func signal() {
        #if os(Linux)
        var one: UInt64 = 1
        _ = write(signalDescriptor, &one, 8)
        #else
        // A full pipe is already readable, so a write refused for want of room loses no wake-up.
        var one: UInt8 = 1
        _ = write(signalDescriptor, &one, 1)
        #endif
    }

    /// Clears pending signals (called by the I/O thread when woken).
    package func drain() {
        #if os(Linux)
        var value: UInt64 = 0
        _ = read(fileDescriptor, &value, 8)
        #else
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
            while read(fileDescriptor, buffer.baseAddress, buffer.count) > 0 {}
        }
        #endif
    }

    package func close() {
        closeDescriptor(fileDescriptor)
        if signalDescriptor != fileDescriptor { closeDescriptor(signalDescriptor) }
    }
}

/// `close(2)` under a name `WakeUpSignal.close()` does not hide (the C library's module name
/// differs between Linux and Darwin, so it cannot be qualified).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
