import TrellisTrace

/// A node's events cut into whole compact captures (TCF/1) of about a given size: what a worker
/// sends in TRACE-DATA's compact form (TWP/1 §7.8). Each capture stands alone — its own header,
/// RUN record, name and size tables, and an event before the first is "none" (TCF/1 §3.2) — so a
/// reader decodes each part without the parts before it, and each ends with its END record
/// (TCF/1 §3.1), so a part cut short is told from a short one.
package enum CompactCaptureParts {
    /// The captures holding `events` of run `runID`, in order: a new one is started once the
    /// current one holds `partBytes` or more (so a part is at most `partBytes` plus one event).
    /// No events give one capture of just the file header and its END record.
    package static func captures(of events: some Collection<TraceEvent>, runID: String, partBytes: Int) -> [[UInt8]] {
        var captures: [[UInt8]] = []
        // Most answers are small (one `expect` step's events): the buffer grows from a little.
        var encoder = CompactCaptureEncoder(capacity: min(max(partBytes, 64), 64 << 10))
        var holds = 0
        for event in events {
            encoder.append(event, runID: runID)
            holds += 1
            if encoder.count >= partBytes {
                captures.append(encoder.finishedBytes)
                encoder = CompactCaptureEncoder(capacity: min(max(partBytes, 64), 64 << 10))
                holds = 0
            }
        }
        if holds > 0 || captures.isEmpty {
            captures.append(encoder.finishedBytes)
        }
        return captures
    }
}
