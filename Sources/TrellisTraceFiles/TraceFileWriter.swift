import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif
import Synchronization
import TrellisTrace

/// Writes a capture file (JSON Lines or the compact capture) on threads of its own: a recorder
/// hands it chunks of compact events, which it encodes on one queue while another writes the
/// bytes encoded before (the two buffers trade places, no byte is copied) and the router goes on —
/// so a file trace costs the router about what a trace in memory costs, as long as the other
/// core keeps up. At most a few chunks and one buffer of bytes wait at a time; past that the
/// recorder waits (backpressure, nothing dropped).
///
/// On Linux, whole pages of the encoded bytes go through the page cache while copying them
/// there is clearly faster than the disk, and straight to the disk (`O_DIRECT`) otherwise; a
/// flush's last partial page always through the page cache (`CaptureWritePath` decides, from
/// the CPU time each copy took). A JSON Lines trace writes about 200 bytes an event, hundreds of
/// megabytes a minute. On the project's VM (2026-11-28) direct writes run at the disk's 1.4–2.0
/// GB/s and cost no CPU; a copy into the page cache runs at 3.5–5 GB/s of the writer's core on
/// pages the VM touched before, but at 0.3 GB/s on pages it never touched (or gave back to the
/// host): the 0.2–0.4 GB/s "buffered" measured before were those. Both ways at once on two
/// threads gain nothing (on ext4 a buffered and a direct write of one file wait for each other).
/// Past the dirty-page limit the page cache is throttled to the disk's speed, as direct writes
/// are. A file system that refuses direct writes gets every byte through the page cache.
public final class TraceFileWriter: TraceChunkSink {
    /// Why a capture file could not be opened or written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let path: String
    public let format: CaptureFileFormat
    private let descriptor: Int32
    /// Whether the file is a regular one, written at offsets; a pipe or a device (a FIFO,
    /// `/dev/stdout`) is written in order, every byte once, without direct writes.
    private let seekable: Bool
    /// The same file opened for direct writes, or -1 where there are none.
    private let directDescriptor: Int32
    /// Whether direct writes are on: a file system may refuse them at the first (`writing`
    /// then turns them off for good).
    private let directWrites: Atomic<Bool>
    /// Which way whole pages go, measured as they are written. Touched only by work on `writing`.
    private let pagesWay: Mutex<CaptureWritePath>
    /// The CPU time of the calling thread in nanoseconds: what a copy into the page cache cost.
    private let cpuClock: @Sendable () -> UInt64
    /// Where the encoder's first byte goes in the file. Touched only by work on `queue`.
    private let position = Mutex(0)
    /// Encodes.
    private let queue: DispatchQueue
    /// Writes what `queue` handed over, while `queue` encodes what comes next.
    private let writing: DispatchQueue
    /// Blocks that carried bytes to `writing` and came back, for the next hand-overs: the
    /// encoder trades its storage for one (no byte copied but a partial last page) and goes on
    /// in the block's storage while `writing` writes its own.
    private let spareBlocks = Mutex<[CaptureHandOver]>([])
    /// Hand-overs that may wait for `writing` or be written at a time.
    private let handOversFree = DispatchSemaphore(value: 2)
    /// How many encoded bytes the encoder hands over at a time, also in the middle of a chunk
    /// (a JSON Lines chunk is about 3 MB), so the blocks going round stay about this size. On
    /// the project's VM a JSON Lines trace is bound by the disk (one direct write at a time),
    /// which takes 4 MB writes a little faster than 2 MB ones (`dd oflag=direct`: 1.53–1.62
    /// GB/s against 1.38–1.64); smaller ones (0.5 and 1 MB, tried so that the blocks would stay
    /// in the core's cache) were slower.
    static let handOverSize = 4 << 20
    private let inFlight = DispatchSemaphore(value: 4)
    /// Touched only by work on `queue`; the lock makes that hand-over provable to the compiler.
    private let encoder: Mutex<any CaptureStreamEncoder>
    private let state = Mutex<(failure: WriteError?, closed: Bool)>((nil, false))
    private let written = Mutex(0)

    /// Creates (or truncates) the file at `path`, in `format` (by default the one its name
    /// asks for: JSON Lines for `.jsonl`, the compact capture otherwise).
    public convenience init(path: String, format: CaptureFileFormat? = nil) throws(WriteError) {
        try self.init(path: path, format: format, directWrites: true)
    }

    /// `directWrites: false` writes every byte through the page cache, as where there are no
    /// direct writes (for the tests of that path on Linux); `cpuClock` times the copies into the
    /// page cache (the tests' made-up times send pieces either way).
    init(path: String, format: CaptureFileFormat?, directWrites direct: Bool,
         pagesWay: CaptureWritePath = CaptureWritePath(), cpuClock: @escaping @Sendable () -> UInt64 = threadCPUNanoseconds) throws(WriteError) {
        self.pagesWay = Mutex(pagesWay)
        self.cpuClock = cpuClock
        let format = format ?? CaptureFileFormat.forPath(path)
        self.format = format
        switch format {
        case .jsonLines: encoder = Mutex(CaptureLineEncoder())
        case .compact: encoder = Mutex(CompactCaptureEncoder())
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.descriptor = descriptor
        var info = stat()
        seekable = fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        directDescriptor = direct && seekable ? directFlag.map { open(path, O_WRONLY | O_CLOEXEC | $0) } ?? -1 : -1
        directWrites = Atomic(directDescriptor >= 0)
        queue = DispatchQueue(label: "trellis-trace-file")
        writing = DispatchQueue(label: "trellis-trace-file-writing")
    }

    deinit {
        state.withLock { state in
            if !state.closed { closeDescriptors() }
        }
    }

    private func closeDescriptors() {
        closeDescriptor(descriptor)
        if directDescriptor >= 0 { closeDescriptor(directDescriptor) }
    }

    /// The first write that failed (a full disk, say); later writes are skipped.
    public var failure: WriteError? { state.withLock { $0.failure } }

    /// The whole pages written each way so far, for the tests: through the page cache and
    /// directly (the partial pages of flushes, and every byte without direct writes, not counted).
    var pagesBytesByWay: (pageCache: Int, direct: Int) {
        pagesWay.withLock { ($0.pageCacheBytes, $0.directBytes) }
    }

    /// Whether whole pages may still go straight to the disk (false where the file system
    /// refused a direct write, or without direct writes).
    var writesDirectly: Bool { directWrites.load(ordering: .relaxed) }

    /// Events handed over so far (in chunks).
    public var eventsWritten: Int { written.withLock { $0 } }

    /// Appends one line (a newline is added), after everything handed over before it: for a
    /// JSON Lines file only; on a compact one it is a failure.
    public func write(_ line: String) {
        guard format == .jsonLines else {
            state.withLock { state in
                if state.failure == nil { state.failure = WriteError(path: path, reason: "a plain line cannot go into a compact capture") }
            }
            return
        }
        submit { encoder, _ in encoder.append(line) }
    }

    /// Takes a recorder's chunk: encoded and written on the writer's thread.
    public func write(_ chunk: consuming TraceChunk) {
        let events = chunk.log.count
        written.withLock { $0 += events }
        // Moved into a box so that, once encoded, its buffers have no other owner and can be
        // handed back to the recorder's pool as they are.
        let box = Mutex<TraceChunk?>(chunk)
        submit { encoder, handOver in
            guard var chunk = box.withLock({ $0.take() }) else { return }
            encoder.encode(chunk, handOverPast: Self.handOverSize, handOver)
            guard let buffers = chunk.buffers else { return }
            var chunks = chunk.log.takeChunks()
            while let events = chunks.popLast() { buffers.recycle(events) }
        }
    }

    /// Runs `fill` on `queue` with the encoder and a hand-over of its bytes, for an encoder
    /// that hands over as it goes (a JSON Lines chunk is several megabytes).
    private func submit(_ fill: @escaping @Sendable (any CaptureStreamEncoder, _ handOver: (CaptureByteBuffer) -> Void) -> Void) {
        inFlight.wait()
        queue.async { [self] in
            // What is handed over after `close()` (a recorder not flushed first) is not written:
            // a failure to report, not a silent loss.
            let closed = state.withLock { state -> Bool in
                if state.closed, state.failure == nil {
                    state.failure = WriteError(path: path, reason: "events handed over after the file was closed (flush the recorder before closing its writer)")
                }
                return state.closed
            }
            if closed {
                inFlight.signal()
                return
            }
            encoder.withLock { encoder in
                fill(encoder) { handOver(all: false, of: $0) }
                if encoder.count >= Self.handOverSize { handOver(all: false, of: encoder) }
            }
            inFlight.signal()
        }
    }

    /// Returns once everything handed over so far is written to the file.
    public func waitUntilWritten() {
        queue.sync { encoder.withLock { handOver(all: true, of: $0) } }
        writing.sync {}
    }

    /// Writes what is still buffered, ends a compact capture with its END record (TCF/1 §3.1:
    /// a file without one was cut short) and closes the file.
    public func close() {
        let wasOpen = queue.sync { () -> Bool in
            if !state.withLock({ $0.closed }) {
                encoder.withLock { encoder in
                    encoder.finish()
                    handOver(all: true, of: encoder)
                }
            }
            return state.withLock { state in
                defer { state.closed = true }
                return !state.closed
            }
        }
        writing.sync {}
        if wasOpen { closeDescriptors() }
    }

    /// Hands the encoder's bytes to `writing`: with direct writes its whole pages (a partial last
    /// page stays at the encoder's start, where the next direct write starts) and, with `all`,
    /// the partial page too (through the page cache); without them, every byte. The encoder's
    /// storage itself goes (traded for a spare block's), not a copy of it. Called on `queue`
    /// only, with `encoder` (the writer's) locked.
    private func handOver(all: Bool, of encoder: CaptureByteBuffer) {
        guard state.withLock({ $0.failure == nil && !$0.closed }) else {
            encoder.removeAll()
            return
        }
        let direct = directWrites.load(ordering: .relaxed)
        let count = encoder.count
        let partial = direct ? count % CaptureByteBuffer.pageSize : 0
        guard count > partial || (all && partial > 0) else { return }
        handOversFree.wait()
        let handOver = spareBlocks.withLock { $0.popLast() } ?? CaptureHandOver(capacity: max(2 * count, Self.handOverSize))
        handOver.block.withLock { encoder.trade(with: &$0, keeping: partial) }
        let offset = position.withLock { position in
            defer { position += count - partial }
            return position
        }
        writing.async { [self] in
            handOver.block.withLock { block in
                write(block.bytes, at: offset, direct: direct, all: all)
            }
            spareBlocks.withLock { $0.append(handOver) }
            handOversFree.signal()
        }
    }

    /// Writes `buffer` at `offset` (on `writing`): the whole pages each way `pagesWay` says when
    /// `direct`, the rest through the page cache when `all` (without direct writes, everything).
    private func write(_ buffer: UnsafeRawBufferPointer, at offset: Int, direct: Bool, all: Bool) {
        guard state.withLock({ $0.failure == nil }), let base = buffer.baseAddress else { return }
        var done = 0
        // Every buffer starts on a page boundary (`CaptureByteBuffer.allocate`); checked all the same.
        var direct = direct && directWrites.load(ordering: .relaxed) && Int(bitPattern: base) % CaptureByteBuffer.pageSize == 0
        let pages = buffer.count - buffer.count % CaptureByteBuffer.pageSize
        var failed: Int32?
        if direct, pages > 0 {
            let result = writePages(base, pages, at: offset)
            done = result.done
            failed = result.failed
            // EINVAL from a direct write: this file system takes none; the page cache takes them
            // all. (From a page-cache piece it is a failure like any other.)
            if failed == EINVAL, result.failedDirectly {
                directWrites.store(false, ordering: .relaxed)
                direct = false
                failed = nil
            }
        }
        if failed == nil, all || !direct, done < buffer.count {
            failed = writeAll(descriptor, base + done, buffer.count - done, at: offset + done)
        }
        if let failed {
            state.withLock { $0.failure = WriteError(path: path, reason: String(cString: strerror(failed))) }
        }
    }

    /// Writes `count` whole pages at `offset` (page-aligned), each piece the way `pagesWay` says:
    /// the bytes written before a failure, its `errno`, and whether it was a direct write's.
    private func writePages(_ base: UnsafeRawPointer, _ count: Int, at offset: Int) -> (done: Int, failed: Int32?, failedDirectly: Bool) {
        pagesWay.withLock { way in
            defer { way.blockEnded() }
            var done = 0
            while done < count {
                switch way.next {
                case .pageCache:
                    let piece = min(CaptureWritePath.pieceSize, count - done)
                    let start = cpuClock()
                    if let failed = writeAll(descriptor, base + done, piece, at: offset + done) { return (done, failed, false) }
                    way.copied(bytes: piece, cpuNanoseconds: cpuClock() &- start)
                    done += piece
                case .direct:
                    if let failed = writeAll(directDescriptor, base + done, count - done, at: offset + done) { return (done, failed, true) }
                    way.wroteDirectly(bytes: count - done)
                    done = count
                }
            }
            return (done, nil, false)
        }
    }

    /// Writes `count` bytes at `offset` of `descriptor`; the `errno` of a failure.
    private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int32? {
        var done = 0
        while done < count {
            let written = seekable
                ? pwrite(descriptor, bytes + done, count - done, off_t(offset + done))
                : writeDescriptor(descriptor, bytes + done, count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            // Nothing written and no error: a file that takes no more (never a loop).
            if written == 0 { return EIO }
            done += written
        }
        return nil
    }
}

/// What a file writer needs of an encoder: chunks in, bytes out.
protocol CaptureStreamEncoder: CaptureByteBuffer {
    /// Encodes `chunk`; an encoder whose bytes pass `limit` while it encodes may call
    /// `handOver` with itself to have them written (and go on in fresh storage).
    func encode(_ chunk: TraceChunk, handOverPast limit: Int, _ handOver: (CaptureByteBuffer) -> Void)
    /// Appends one line of text and a newline (JSON Lines only).
    func append(_ line: String)
    /// Ends the file (the compact capture's END record; nothing for JSON Lines).
    func finish()
}

extension CaptureLineEncoder: CaptureStreamEncoder {
    func finish() {}
}

extension CompactCaptureEncoder: CaptureStreamEncoder {
    func append(_ line: String) {}

    /// A compact chunk is a few hundred kilobytes: handed over after it, by the writer.
    func encode(_ chunk: TraceChunk, handOverPast limit: Int, _ handOver: (CaptureByteBuffer) -> Void) {
        encode(chunk)
    }
}

/// `close(2)` and `write(2)` under names the writer's own `close()` and `write(_:)` do not
/// hide (the C library's module name differs between Linux and Darwin, so they cannot be
/// qualified).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// The calling thread's CPU time in nanoseconds (0 where it cannot be read: every copy then
/// looks fast, as the page cache was before direct writes).
@Sendable func threadCPUNanoseconds() -> UInt64 {
    var time = timespec()
    guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// `O_DIRECT`, which the C library's module does not export: its value in the kernel's headers
/// (`asm-generic/fcntl.h`; arm64's own `asm/fcntl.h`); nil where there are no direct writes.
private let directFlag: Int32? = {
    #if os(Linux) && arch(x86_64)
    return 0o40000
    #elseif os(Linux) && arch(arm64)
    return 0o200000
    #else
    return nil
    #endif
}()
