import Foundation
import TrellisJSON
import TrellisTrace

/// A part of a capture file that could not be read: the file, where (a line number from 1 for
/// JSON Lines, a byte offset for the compact capture) and why.
public struct TraceFileProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// The line (JSON Lines); 0 for a problem at a byte offset.
    public var line: Int
    public var message: String
    /// The byte offset of a problem in a compact capture.
    public var byteOffset: Int?

    public var description: String {
        if let byteOffset { return "\(file): byte \(byteOffset): \(message)" }
        return "\(file):\(line): \(message)"
    }
}

/// Where a run starts in a file's events: the events from `position` on (until the next span)
/// belong to run `runID`.
public struct TraceRunSpan: Sendable, Equatable {
    public var position: Int
    public var runID: String

    public init(position: Int, runID: String) {
        self.position = position
        self.runID = runID
    }
}

/// What a capture file (or several) held: the events that could be read, in file order, and a
/// problem for each line that could not — a corrupt line never hides the rest. (In a compact
/// capture nothing after damage can be found again: its problem ends the file.)
public struct TraceFile: Sendable {
    public var events: [TraceEvent] = []
    public var runIDs: [String] = []
    /// Which events belong to which run, in order.
    public var runSpans: [TraceRunSpan] = []
    public var problems: [TraceFileProblem] = []
    /// What a reader should know that is not damage: a compact capture of TCF 1.0, which has no
    /// END record, so a cut at a record boundary would look like the end of the run.
    public var notices: [String] = []

    public init() {}

    /// Appends an event of run `runID`.
    mutating func append(_ event: TraceEvent, runID: String) {
        if runSpans.last?.runID != runID {
            runSpans.append(TraceRunSpan(position: events.count, runID: runID))
            if !runIDs.contains(runID) { runIDs.append(runID) }
        }
        events.append(event)
    }
}

/// Reads capture files of both forms: JSON Lines (`Protocols/trace-format.md`) and the compact
/// capture (`Protocols/compact-trace-format.md`), told apart by their first bytes.
public enum TraceFileReader {
    /// Why a file could not be read at all.
    public struct UnreadableFile: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads JSON Lines `text`, naming it `file` in problems. Blank lines are skipped.
    public static func read(text: String, file: String) -> TraceFile {
        var result = TraceFile()
        TraceCaptureFormat.readLines(text) { lineNumber, read in
            switch read {
            case let .success((event, runID)):
                result.append(event, runID: runID)
            case let .failure(error):
                result.problems.append(TraceFileProblem(file: file, line: lineNumber, message: error.description))
            }
        }
        return result
    }

    /// Reads a compact capture, naming it `file` in problems.
    public static func read(compact bytes: UnsafeRawBufferPointer, file: String) -> TraceFile {
        var result = TraceFile()
        do throws(CompactCaptureError) {
            let ending = try CompactCaptureDecoder.decode(bytes) { event, runID in result.append(event, runID: runID) }
            switch ending {
            case .sealed: break
            case let .unsealed(minor):
                result.notices.append(
                    "\(file): a TCF 1.\(minor) capture, which has no END record: read whole, but a file cut at a record boundary "
                        + "would read the same (captures since TCF 1.1 end with one)")
            }
        } catch {
            result.problems.append(TraceFileProblem(file: file, line: 0, message: error.message + " (nothing after it can be read)", byteOffset: error.offset))
        }
        return result
    }

    /// Reads one file of either form, streamed (`FileBytes`): a pipe or process substitution
    /// reads like a file.
    public static func read(path: String) throws(UnreadableFile) -> TraceFile {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, content: .textUnlessItStartsWith(CompactCaptureFormat.magic))
        } catch {
            throw UnreadableFile(description: "\(path): \(error.description)")
        }
        if CaptureFileFormat.detect(bytes.prefix(CompactCaptureFormat.magic.count)) == .compact {
            return bytes.withUnsafeBytes { read(compact: $0, file: path) }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UnreadableFile(description: "\(path): neither a compact capture nor UTF-8 text")
        }
        return read(text: text, file: path)
    }

    /// Reads several files (one per process of a distributed run, say; each of either form)
    /// into one trace, merged by causality (`TraceMerge`), as one run: the first file's.
    public static func read(paths: [String]) throws(UnreadableFile) -> TraceFile {
        var combined = TraceFile()
        var perFile: [[TraceEvent]] = []
        for path in paths {
            let file = try read(path: path)
            perFile.append(file.events)
            combined.problems += file.problems
            combined.notices += file.notices
            for runID in file.runIDs where !combined.runIDs.contains(runID) { combined.runIDs.append(runID) }
        }
        combined.events = TraceMerge.merge(perFile)
        if let first = combined.runIDs.first, !combined.events.isEmpty { combined.runSpans = [TraceRunSpan(position: 0, runID: first)] }
        return combined
    }
}
