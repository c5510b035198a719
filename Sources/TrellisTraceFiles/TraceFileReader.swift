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
    /// Why a file could not be read at all, or why files cannot be read together.
    public struct UnreadableFile: Error, Sendable, CustomStringConvertible {
        public var description: String
        /// True when the file held no trace event (it is empty, or no line of it is one: a
        /// scenario given where a trace is wanted), so a program may say what a trace is.
        public var holdsNoEvent = false
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
    /// reads like a file. A file holding no trace event — empty, only a header, or no line of it
    /// one — is refused: no writer of a trace writes one, so it is damage or a wrong file.
    public static func read(path: String) throws(UnreadableFile) -> TraceFile {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, content: .textUnlessItStartsWith(CompactCaptureFormat.magic))
        } catch {
            throw UnreadableFile(description: "\(path): \(error.description)")
        }
        let file: TraceFile
        let form: String
        if CaptureFileFormat.detect(bytes.prefix(CompactCaptureFormat.magic.count)) == .compact {
            file = bytes.withUnsafeBytes { read(compact: $0, file: path) }
            form = "a compact capture of \(bytes.count) bytes with no event record"
        } else {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw UnreadableFile(description: "\(path): neither a compact capture nor UTF-8 text")
            }
            file = read(text: text, file: path)
            form = bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) ? "it is empty (\(bytes.count) bytes)" : "only a header line"
        }
        guard file.events.isEmpty else { return file }
        guard let first = file.problems.first else {
            throw UnreadableFile(description: "\(path) holds no trace event: \(form)", holdsNoEvent: true)
        }
        let others = file.problems.count - 1
        // The first problem often explains the others (a header of another version leaves every
        // line after it unread): they are counted, not called alike.
        throw UnreadableFile(description: "\(path) holds no trace event: \(first)" + (others > 0 ? " (and \(others) more lines that could not be read)" : ""), holdsNoEvent: true)
    }

    /// Reads several files (one per process of a distributed run, say; each of either form)
    /// into one trace, merged by causality (`TraceMerge`), as one run: the first file's. Files
    /// that cannot be of one run are refused (TTF/1 §4.7: a merger SHOULD reject files whose
    /// `run` differs): a file given twice (by its name, or another name of it: a link, the same
    /// device and inode), files of different runs, and files that hold the same event (two
    /// captures of one node: two runs of one scenario, whose run ids are its name, or a merged
    /// file with one of its parts).
    public static func read(paths: [String]) throws(UnreadableFile) -> TraceFile {
        try refuseRepeated(paths)
        var combined = TraceFile()
        var perFile: [[TraceEvent]] = []
        var firstRun: (path: String, runID: String)?
        var holder: [EventRef: String] = [:]
        for path in paths {
            let file = try read(path: path)
            if paths.count > 1 {
                for runID in file.runIDs {
                    guard let firstRun else {
                        firstRun = (path, runID)
                        continue
                    }
                    if firstRun.runID != runID {
                        throw UnreadableFile(description: "\(firstRun.path) and \(path) are of different runs (\(firstRun.path): run \"\(firstRun.runID)\", \(path): run \"\(runID)\"): the files read together must be the files of one run")
                    }
                }
                for event in file.events {
                    if let other = holder.updateValue(path, forKey: event.id), other != path {
                        throw UnreadableFile(description: "\(other) and \(path) both hold event \(event.id): each event of a run is in one file, so these are captures of two runs (of one scenario, whose run id is its name) or a merged file and one of its parts")
                    }
                }
            }
            perFile.append(file.events)
            combined.problems += file.problems
            combined.notices += file.notices
            for runID in file.runIDs where !combined.runIDs.contains(runID) { combined.runIDs.append(runID) }
        }
        combined.events = TraceMerge.merge(perFile)
        if let first = combined.runIDs.first, !combined.events.isEmpty { combined.runSpans = [TraceRunSpan(position: 0, runID: first)] }
        return combined
    }

    /// Refuses a file named twice, by the same name or by two names of one file (a link, a
    /// relative and an absolute path: the same device and inode).
    static func refuseRepeated(_ paths: [String]) throws(UnreadableFile) {
        var seen: [String: String] = [:]
        var identities: [FileIdentity: String] = [:]
        for path in paths {
            if seen.updateValue(path, forKey: path) != nil {
                throw UnreadableFile(description: "\(path) is given twice: name each file once")
            }
            guard let identity = FileIdentity(path) else { continue }  // a missing file is refused when read
            if let other = identities.updateValue(path, forKey: identity) {
                throw UnreadableFile(description: "\(other) and \(path) are the same file (device \(identity.device), inode \(identity.inode)): name each file once")
            }
        }
    }
}

/// A file's device and inode, as `stat(2)` gives them (following links).
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
