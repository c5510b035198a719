import Synchronization
import TrellisTrace

/// The JSON Lines encoder alone, for `trellis bench`'s `jsonl-encode` figure (issue 27 item 8):
/// a file trace of JSON Lines is bound by the encoder's CPU once the disk keeps up, and the
/// file figure mixes the walk, the encoder, the copy into the page cache and the disk, so the
/// encoder's cost per event is measured here apart from them. A sink that keeps the chunks a
/// recorder hands it; then the same chunks encoded again and again into one reused buffer,
/// emptied at each hand-over as the file writer's is (4 MB), beside copying the same bytes in
/// the same pieces with `memcpy`.
package final class CaptureLineEncodeTiming: TraceChunkSink {
    private let chunks = Mutex<[TraceChunk]>([])

    package init() {}

    package func write(_ chunk: consuming TraceChunk) {
        let taken = chunk
        chunks.withLock { $0.append(taken) }
    }

    package func waitUntilWritten() {}

    /// Forgets the chunks kept (an initial layout's, before the transition to measure).
    package func removeAll() {
        chunks.withLock { $0.removeAll() }
    }

    /// The events kept.
    package var eventCount: Int {
        chunks.withLock { $0.reduce(0) { $0 + $1.log.count } }
    }

    /// The best of `rounds` encodings of every chunk kept and the best of `rounds` copies of
    /// the bytes one encoding writes, in seconds, in turns; and those bytes' count. A first
    /// encoding, not timed, quotes the names and writes the header line, as a recorder's initial
    /// layout does before the transitions a file figure times.
    package func seconds(rounds: Int) -> (encode: Double, copy: Double, bytes: Int) {
        let kept = chunks.withLock { $0 }
        let encoder = CaptureLineEncoder(capacity: TraceFileWriter.handOverSize + (1 << 20))
        var bytes = 0
        for chunk in kept { encoder.encode(chunk, handOverPast: TraceFileWriter.handOverSize) { bytes += $0.count; $0.removeAll() } }
        bytes += encoder.count
        encoder.removeAll()
        let source = CaptureByteBuffer(capacity: bytes)
        source.reserve(bytes)
        // Written, so that the copies read real pages.
        source.base.initialize(repeating: 0x20, count: bytes)
        source.count = bytes
        var best = (encode: Double.infinity, copy: Double.infinity)
        for _ in 0..<max(1, rounds) {
            let start = ContinuousClock.now
            for chunk in kept { encoder.encode(chunk, handOverPast: TraceFileWriter.handOverSize) { $0.removeAll() } }
            encoder.removeAll()
            best.encode = min(best.encode, Self.seconds(since: start))
            let copyStart = ContinuousClock.now
            var copied = 0
            while copied < bytes {
                let piece = min(TraceFileWriter.handOverSize, bytes - copied)
                encoder.put(UnsafeRawBufferPointer(start: source.base + copied, count: piece))
                copied += piece
                encoder.removeAll()
            }
            best.copy = min(best.copy, Self.seconds(since: copyStart))
        }
        return (best.encode, best.copy, bytes)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }
}
