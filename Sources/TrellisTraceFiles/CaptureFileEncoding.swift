import TrellisTrace

/// A whole trace as the bytes of a capture file, in either form: what `trellis run --trace`,
/// `trellis trace convert` and `trellis trace merge` write. Both forms start a new header (a
/// JSON Lines header line, a compact RUN record) where the run id changes, naming the node of the
/// run's first event, so converting a file one way and back gives it byte for byte.
public enum CaptureFileEncoding {
    /// The bytes of a file holding `events`, each of the run its span in `runs` names (events
    /// before the first span, or all of them without spans, belong to `defaultRunID`).
    public static func bytes(
        of events: [TraceEvent], runs: [TraceRunSpan], defaultRunID: String = "run", format: CaptureFileFormat
    ) -> [UInt8] {
        var header: TraceCaptureFormat.Header?
        let compact = format == .compact ? CompactCaptureEncoder() : nil
        if let compact, events.isEmpty { return compact.finishedBytes }
        // JSON Lines straight into bytes, as a file trace writes them (the same bytes as
        // `TraceCaptureFormat.eventLine`'s, which CaptureLineBytesTests holds them to).
        let lines = CaptureLineEncoder(capacity: compact == nil ? 256 * events.count + 256 : 64)
        forEach(events, runs: runs, defaultRunID: defaultRunID) { event, runID in
            if let compact {
                compact.append(event, runID: runID)
                return
            }
            if header?.runID != runID {
                header = TraceCaptureFormat.Header(runID: runID, node: event.id.node)
                lines.append(TraceCaptureFormat.headerLine(runID: runID, node: event.id.node))
            }
            lines.append(event, headerNode: header?.node ?? "")
        }
        return compact?.finishedBytes ?? lines.withBytes { Array($0) }
    }

    /// The bytes of a file holding what `file` read (its events and their runs).
    public static func bytes(of file: TraceFile, format: CaptureFileFormat) -> [UInt8] {
        bytes(of: file.events, runs: file.runSpans, defaultRunID: file.runIDs.first ?? "run", format: format)
    }

    private static func forEach(
        _ events: [TraceEvent], runs: [TraceRunSpan], defaultRunID: String, _ body: (TraceEvent, String) -> Void
    ) {
        var span = 0
        var runID = defaultRunID
        for (position, event) in events.enumerated() {
            while span < runs.count, runs[span].position <= position {
                runID = runs[span].runID
                span += 1
            }
            body(event, runID)
        }
    }
}
