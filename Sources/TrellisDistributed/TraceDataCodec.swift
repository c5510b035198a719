import TrellisTrace
import TrellisTraceFiles
import TrellisWire

/// TRACE-DATA (TWP/1 §7.8, §9.7) in both its forms: the parts a worker answers a TRACE-REQUEST
/// with, and what the conductor makes of each part it receives — the events, and what is wrong
/// with the part, naming the worker. Nothing a worker sends can make the conductor trap or
/// allocate more than a bounded multiple of the part's size.
package enum TraceDataCodec {
    /// A compact part is cut once it holds this much (§9.7: parts SHOULD be at most 1 MiB).
    package static let compactPartBytes = 1 << 20
    /// The largest capture a compact part may carry (§7.8): the conductor refuses a larger one
    /// without reading it, which bounds what one part can cost it (an event takes at least four
    /// bytes of capture).
    package static let maxCaptureBytes = 4 << 20
    /// A JSON Lines part is cut once it holds this much (the 1.0 form, for conductors that did
    /// not announce the compact form).
    package static let jsonPartBytes = 4 << 20

    /// The bodies answering one TRACE-REQUEST: `events` (those recorded since the last answer)
    /// of run `runID`, in the compact form when the conductor's HELLO announced it (a part cut
    /// once it holds `partBytes`), else as JSON Lines; the last one has `last` set. No events
    /// give one last part without any.
    package static func parts(
        of events: [TraceEvent], runID: String, compact: Bool, partBytes: Int = compactPartBytes
    ) -> [WireBody] {
        if compact {
            let captures = CompactCaptureParts.captures(of: events, runID: runID, partBytes: partBytes)
            return captures.enumerated().map { index, capture in
                .compactTraceData(last: index == captures.count - 1, capture: capture)
            }
        }
        var parts: [WireBody] = []
        var part = ""
        for event in events {
            part += TraceCaptureFormat.line(for: event, runID: runID)
            part += "\n"
            if part.utf8.count >= jsonPartBytes {
                parts.append(.traceData(last: false, jsonLines: part))
                part = ""
            }
        }
        parts.append(.traceData(last: true, jsonLines: part))
        return parts
    }

    /// What one TRACE-DATA part held: its events (all that could be read, in order) and the
    /// faults of the run it shows, each naming the worker.
    package struct Part: Equatable {
        /// The last part of the answer.
        package var last = false
        package var events: [TraceEvent] = []
        package var faults: [String] = []
        /// The bytes of the trace it carried (the JSON Lines or the capture), for measurements.
        package var traceBytes = 0

        package init() {}

        /// The bytes of the whole message: the header frame, the form octet, the length, the trace.
        package var messageBytes: Int { TraceDataCodec.messageBytes(traceBytes: traceBytes) }
    }

    /// The bytes of a TRACE-DATA message whose trace (JSON Lines or capture) holds `traceBytes`.
    static func messageBytes(traceBytes: Int) -> Int { WireHeader.length + 5 + traceBytes }

    /// The bytes of the whole TRACE-DATA message `body`, known before it is read; nil for another body.
    package static func messageBytes(of body: WireBody) -> Int? {
        switch body {
        case let .traceData(_, lines): return messageBytes(traceBytes: lines.utf8.count)
        case let .compactTraceData(_, capture): return messageBytes(traceBytes: capture.count)
        default: return nil
        }
    }

    /// The runs other than the worker's own that a part's events name: the first few by name,
    /// the rest counted, so that a hostile part naming a run per event stays a few faults.
    private struct OtherRuns {
        static let named = 4
        var names = Set<String>()
        var eventsOfUnnamedRuns = 0

        mutating func note(_ run: String) {
            if names.count < Self.named || names.contains(run) { names.insert(run) } else { eventsOfUnnamedRuns += 1 }
        }

        func faults(node: String, runID: String, of what: String) -> [String] {
            var faults = names.sorted().map { "node \(node) sent \(what) of run \"\($0)\", not \"\(runID)\"" }
            if eventsOfUnnamedRuns > 0 {
                faults.append("node \(node) sent \(eventsOfUnnamedRuns) more \(what) of runs other than \"\(runID)\"")
            }
            return faults
        }
    }

    /// Reads a TRACE-DATA part from worker `node` of run `runID`; nil for another body. Every
    /// event must belong to `runID` (SETUP's run id, §7.2): events of another run are kept (the
    /// merge shows them) but make the part a fault naming that run.
    package static func read(_ body: WireBody, from node: String, runID: String) -> Part? {
        var part = Part()
        var otherRuns = OtherRuns()
        switch body {
        case let .traceData(last, lines):
            part.last = last
            part.traceBytes = lines.utf8.count
            var unreadable = 0
            TraceCaptureFormat.readLines(lines) { _, read in
                switch read {
                case let .success((event, eventRun)):
                    part.events.append(event)
                    if eventRun != runID { otherRuns.note(eventRun) }
                case .failure: unreadable += 1
                }
            }
            // One fault for all of them: a part of 64 MiB of bad lines is not millions of faults.
            if unreadable == 1 {
                part.faults.append("node \(node) sent an unreadable trace line")
            } else if unreadable > 1 {
                part.faults.append("node \(node) sent \(unreadable) unreadable trace lines")
            }
            part.faults += otherRuns.faults(node: node, runID: runID, of: "trace lines")
        case let .compactTraceData(last, capture):
            part.last = last
            part.traceBytes = capture.count
            guard capture.count <= maxCaptureBytes else {
                part.faults.append(
                    "node \(node) sent a compact trace part of \(capture.count) bytes, more than the \(maxCaptureBytes) a part may hold: not read")
                return part
            }
            var events: [TraceEvent] = []
            let damage: CompactCaptureError? = capture.withUnsafeBytes { bytes in
                do throws(CompactCaptureError) {
                    try CompactCaptureDecoder.decode(bytes) { event, eventRun in
                        events.append(event)
                        if eventRun != runID { otherRuns.note(eventRun) }
                    }
                    return nil
                } catch {
                    return error
                }
            }
            part.events = events
            if let damage {
                // The events before the damage are kept, as a file reader keeps them (TCF/1 §4).
                part.faults.append("node \(node) sent an unreadable compact trace part: \(damage) (events kept from before it: \(events.count))")
            }
            part.faults += otherRuns.faults(node: node, runID: runID, of: "trace events")
        default:
            return nil
        }
        return part
    }
}
