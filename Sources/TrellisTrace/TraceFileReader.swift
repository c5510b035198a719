import Foundation
import TrellisJSON

/// A line of a capture file that could not be read: the file, the line number (from 1) and why.
public struct TraceFileProblem: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public var description: String { "\(file):\(line): \(message)" }
}

/// What a capture file (or several) held: the events that could be read, in file order, and a
/// problem for each line that could not — a corrupt line never hides the rest.
public struct TraceFile: Sendable {
    public var events: [TraceEvent] = []
    public var runIDs: [String] = []
    public var problems: [TraceFileProblem] = []

    public init() {}
}

/// Reads the JSON Lines capture format (`Protocols/trace-format.md`).
public enum TraceFileReader {
    /// Why a file could not be read at all.
    public struct UnreadableFile: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads `text`, naming it `file` in problems. Blank lines are skipped.
    public static func read(text: String, file: String) -> TraceFile {
        var result = TraceFile()
        TraceCaptureFormat.readLines(text) { lineNumber, read in
            switch read {
            case let .success((event, runID)):
                result.events.append(event)
                if !result.runIDs.contains(runID) { result.runIDs.append(runID) }
            case let .failure(error):
                result.problems.append(TraceFileProblem(file: file, line: lineNumber, message: error.description))
            }
        }
        return result
    }

    /// Reads one file.
    /// Reads one file, streamed (`FileBytes`): a pipe or process substitution reads like a file.
    public static func read(path: String) throws(UnreadableFile) -> TraceFile {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw UnreadableFile(description: "\(path): \(error.description)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UnreadableFile(description: "\(path): not UTF-8 text")
        }
        return read(text: text, file: path)
    }

    /// Reads several files (one per process of a distributed run, say) into one trace, merged
    /// by causality (`TraceMerge`).
    public static func read(paths: [String]) throws(UnreadableFile) -> TraceFile {
        var combined = TraceFile()
        var perFile: [[TraceEvent]] = []
        for path in paths {
            let file = try read(path: path)
            perFile.append(file.events)
            combined.problems += file.problems
            for runID in file.runIDs where !combined.runIDs.contains(runID) { combined.runIDs.append(runID) }
        }
        combined.events = TraceMerge.merge(perFile)
        return combined
    }
}
