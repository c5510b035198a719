/// Events handed from a recorder to a sink (a capture file's writer): a stretch of the compact
/// log with the name tables it refers to. Opaque outside the package.
public struct TraceChunk: Sendable {
    package var log: CompactTraceLog
    package var tables: TraceTables.Snapshot
    package var runID: String
    /// Where the chunks go once written, for reuse.
    package var buffers: TraceChunkPool?

    package init(log: CompactTraceLog, tables: TraceTables.Snapshot, runID: String, buffers: TraceChunkPool?) {
        self.log = log
        self.tables = tables
        self.runID = runID
        self.buffers = buffers
    }
}

/// Where a recorder with `.file` storage hands its events, a chunk at a time, so that the
/// recorder knows nothing of files: `TraceFileWriter` (TrellisTraceFiles) encodes and writes
/// them on a thread of its own. One call per chunk of `CompactTraceLog.chunkCapacity` events,
/// never per event.
public protocol TraceChunkSink: AnyObject, Sendable {
    /// Takes the chunk; it may make the recorder wait while it is behind (backpressure).
    func write(_ chunk: consuming TraceChunk)
    /// Returns once everything handed over so far is written.
    func waitUntilWritten()
}
