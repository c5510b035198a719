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
        queue = DispatchQueue(label: "trellis-trace-file")
    }

    deinit {
        state.withLock { state in
            if !state.closed { closeDescriptor(descriptor) }
        }
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
                if encoder.count >= 1 << 20 { writeOut(encoder) }
            }
            inFlight.signal()
        }
    }

    /// Returns once everything handed over so far is written to the file.
    public func waitUntilWritten() {
        queue.sync {
            encoder.withLock { writeOut($0) }
        }
    }

    /// Writes what is still buffered, ends a compact capture with its END record (TCF/1 §3.1:
    /// a file without one was cut short) and closes the file.
    public func close() {
        queue.sync {
            encoder.withLock { encoder in
                if !state.withLock({ $0.closed }) { encoder.finish() }
                writeOut(encoder)
            }
            state.withLock { state in
                guard !state.closed else { return }
                state.closed = true
                closeDescriptor(descriptor)
            }
        }
    }

    private func writeOut(_ encoder: any CaptureStreamEncoder) {
        defer { encoder.removeAll() }
        guard state.withLock({ $0.failure == nil && !$0.closed }) else { return }
        let failed: Int32? = encoder.withBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = writeDescriptor(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failed {
            state.withLock { $0.failure = WriteError(path: path, reason: String(cString: strerror(failed))) }
        }
    }
}

/// What a file writer needs of an encoder: chunks in, bytes out.
protocol CaptureStreamEncoder: AnyObject {
    var count: Int { get }
    func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
    func removeAll()
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

/// `close(2)` and `write(2)` under names the writer's own `close()` does not hide (the C
/// library's module name differs between Linux and Darwin, so they cannot be qualified).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
