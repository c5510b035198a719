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

/// Writes a capture file (JSON Lines or the compact capture) on a thread of its own: a recorder
/// hands it chunks of compact events, which it encodes and writes while the router goes on — so a file
/// trace costs the router about what a trace in memory costs, as long as the other core keeps up.
/// At most a few chunks wait at a time; past that the recorder waits (backpressure, nothing dropped).
///
/// On Linux, whole pages of the encoded bytes go straight to the disk (`O_DIRECT`), and only a
/// flush's last partial page through the page cache: a JSON Lines trace writes about 200 bytes
/// an event, hundreds of megabytes a minute, which through the page cache cost the writer's
/// core a copy of every byte into fresh pages and, past the dirty-page limit, throttled it to
/// the disk's speed (on the project's VM 0.2–0.4 GB/s buffered, 1.1–1.5 GB/s direct). A file
/// system that refuses direct writes gets every byte through the page cache, as before.
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
    /// The same file opened for direct writes, or -1 where there are none.
    private let directDescriptor: Int32
    /// Where the buffer's first byte goes in the file, and whether direct writes are on (a
    /// file system may refuse them at the first write). Touched only by work on `queue`.
    private let output: Mutex<(offset: Int, direct: Bool)>
    private let queue: DispatchQueue
    private let inFlight = DispatchSemaphore(value: 4)
    /// Touched only by work on `queue`; the lock makes that hand-over provable to the compiler.
    private let encoder: Mutex<any CaptureStreamEncoder>
    private let state = Mutex<(failure: WriteError?, closed: Bool)>((nil, false))
    private let written = Mutex(0)

    /// Creates (or truncates) the file at `path`, in `format` (by default the one its name
    /// asks for: JSON Lines for `.jsonl`, the compact capture otherwise).
    public init(path: String, format: CaptureFileFormat? = nil) throws(WriteError) {
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
        directDescriptor = directFlag.map { open(path, O_WRONLY | O_CLOEXEC | $0) } ?? -1
        output = Mutex((0, directDescriptor >= 0))
        queue = DispatchQueue(label: "trellis-trace-file")
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
        submit { $0.append(line) }
    }

    /// Takes a recorder's chunk: encoded and written on the writer's thread.
    public func write(_ chunk: consuming TraceChunk) {
        let events = chunk.log.count
        written.withLock { $0 += events }
        // Moved into a box so that, once encoded, its buffers have no other owner and can be
        // handed back to the recorder's pool as they are.
        let box = Mutex<TraceChunk?>(chunk)
        submit { encoder in
            guard var chunk = box.withLock({ $0.take() }) else { return }
            encoder.encode(chunk)
            guard let buffers = chunk.buffers else { return }
            var chunks = chunk.log.takeChunks()
            while let events = chunks.popLast() { buffers.recycle(events) }
        }
    }

    private func submit(_ fill: @escaping @Sendable (any CaptureStreamEncoder) -> Void) {
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
                fill(encoder)
                if encoder.count >= 1 << 20 { writeOut(encoder, all: false) }
            }
            inFlight.signal()
        }
    }

    /// Returns once everything handed over so far is written to the file.
    public func waitUntilWritten() {
        queue.sync {
            encoder.withLock { writeOut($0, all: true) }
        }
    }

    /// Writes what is still buffered, ends a compact capture with its END record (TCF/1 §3.1:
    /// a file without one was cut short) and closes the file.
    public func close() {
        queue.sync {
            encoder.withLock { encoder in
                if !state.withLock({ $0.closed }) { encoder.finish() }
                writeOut(encoder, all: true)
            }
            state.withLock { state in
                guard !state.closed else { return }
                state.closed = true
                closeDescriptors()
            }
        }
    }

    /// Writes the encoder's bytes: whole pages directly when direct writes are on, the rest
    /// (`all`) through the page cache. A partial page written so stays at the buffer's start,
    /// so that the next direct write, which starts on a page, writes it again whole.
    private func writeOut(_ encoder: any CaptureStreamEncoder, all: Bool) {
        guard state.withLock({ $0.failure == nil && !$0.closed }) else {
            encoder.removeAll()
            return
        }
        var (offset, direct) = output.withLock { $0 }
        let failed: Int32? = encoder.withBytes { buffer in
            var done = 0
            let pages = buffer.count / CaptureByteBuffer.pageSize * CaptureByteBuffer.pageSize
            if direct, pages > 0, let base = buffer.baseAddress {
                let failure = writeAll(directDescriptor, base, pages, at: offset)
                // EINVAL: this file system takes no direct writes (or not of these pages).
                if failure == EINVAL {
                    direct = false
                } else if let failure {
                    return failure
                } else {
                    done = pages
                }
            }
            guard all || !direct, done < buffer.count, let base = buffer.baseAddress else { return nil }
            return writeAll(descriptor, base + done, buffer.count - done, at: offset + done)
        }
        if let failed {
            state.withLock { $0.failure = WriteError(path: path, reason: String(cString: strerror(failed))) }
        }
        if direct {
            let pages = encoder.count / CaptureByteBuffer.pageSize * CaptureByteBuffer.pageSize
            offset += pages
            encoder.removeFirst(pages)
        } else {
            offset += encoder.count
            encoder.removeAll()
        }
        output.withLock { $0 = (offset, direct) }
    }

    /// Writes `count` bytes at `offset` of `descriptor`; the `errno` of a failure.
    private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int32? {
        var done = 0
        while done < count {
            let written = pwrite(descriptor, bytes + done, count - done, off_t(offset + done))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += written
        }
        return nil
    }
}

/// What a file writer needs of an encoder: chunks in, bytes out.
protocol CaptureStreamEncoder: AnyObject {
    var count: Int { get }
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
    func removeAll()
    /// Forgets the first `written` bytes, keeping the rest at the buffer's start.
    func removeFirst(_ written: Int)
    func encode(_ chunk: TraceChunk)
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
}

/// `close(2)` under a name the writer's own `close()` does not hide (the C library's module
/// name differs between Linux and Darwin, so it cannot be qualified).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
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
