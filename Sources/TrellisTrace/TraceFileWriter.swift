import Dispatch
import Glibc
import Synchronization

/// Writes a capture file (JSON Lines) on a thread of its own: a recorder hands it chunks of
/// compact events, which it turns into lines and writes while the router goes on — so a file
/// trace costs the router about what a trace in memory costs, as long as the other core keeps up.
/// At most a few chunks wait at a time; past that the recorder waits (backpressure, nothing dropped).
public final class TraceFileWriter: Sendable {
    /// Why a capture file could not be opened or written.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public let path: String
    private let descriptor: Int32
    private let queue: DispatchQueue
    private let inFlight = DispatchSemaphore(value: 4)
    /// Touched only by work on `queue`; the lock makes that hand-over provable to the compiler.
    private let encoder = Mutex(CaptureLineEncoder())
    private let state = Mutex<(failure: WriteError?, closed: Bool)>((nil, false))

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        self.descriptor = descriptor
        queue = DispatchQueue(label: "trellis-trace-file")
    }

    deinit {
        state.withLock { state in
            if !state.closed { Glibc.close(descriptor) }
        }
    }

    /// The first write that failed (a full disk, say); later writes are skipped.
    public var failure: WriteError? { state.withLock { $0.failure } }

    /// Appends one line (a newline is added), after everything handed over before it.
    public func write(_ line: String) {
        submit { $0.append(line) }
    }

    func write(_ chunk: consuming TraceChunk) {
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

    private func submit(_ fill: @escaping @Sendable (CaptureLineEncoder) -> Void) {
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

    /// Writes what is still buffered and closes the file.
    public func close() {
        queue.sync {
            encoder.withLock { writeOut($0) }
            state.withLock { state in
                guard !state.closed else { return }
                state.closed = true
                Glibc.close(descriptor)
            }
        }
    }

    private func writeOut(_ encoder: CaptureLineEncoder) {
        defer { encoder.removeAll() }
        guard state.withLock({ $0.failure == nil && !$0.closed }) else { return }
        let failed: Int32? = encoder.withBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
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
