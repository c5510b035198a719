import ArgumentParser
import Foundation
import TrellisJSON
import TrellisScenario
import TrellisTraceFiles

/// What `validate`, `trace diff` and `bench` print: prose for people, or one JSON document for a
/// CI (docs/json-output.md). `run` has the same `json` among its `--format`s.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// A command's result as one JSON document (docs/json-output.md): members are gathered while the
/// command works and written once, at the end, in a single write, so that standard output holds
/// exactly one valid document whatever failed on the way.
struct JSONReport {
    private var members: [(key: String, value: JSONNode)]

    /// A report of `command` ("validate", "run", "trace diff", "bench"); its `status` comes
    /// second, given when the report is written.
    init(command: String) {
        members = [(key: "command", value: JSONNode(.string(command)))]
    }

    /// Sets `key` (replacing an earlier value, keeping its place).
    mutating func set(_ key: String, _ value: JSONValue) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = JSONNode(value)
        } else {
            members.append((key: key, value: JSONNode(value)))
        }
    }

    /// The document's text (no newline), with `status` after `command`.
    func text(status: Int32) -> String {
        var all = members
        all.insert((key: "status", value: JSONNode(.number(Double(status)))), at: min(1, all.count))
        return JSONWriter.write(.object(all))
    }

    /// Writes the document and a newline to standard output. A standard output that cannot be
    /// written is said on standard error; the exit status stays the command's.
    func emit(status: Int32) {
        JSONReport.write(text(status: status) + "\n")
    }

    static func write(_ text: String) {
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(text.utf8))
        } catch {
            StandardError.write("error: cannot write the JSON report to standard output: \(error)")
        }
    }
}

/// Builders of the JSON values the reports share (docs/json-output.md §Shared objects).
enum JSONFields {
    /// An object whose members keep the order given.
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: JSONNode($0.1)) })
    }

    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { JSONNode(.string($0)) })
    }

    static func array(_ values: [JSONValue]) -> JSONValue {
        .array(values.map { JSONNode($0) })
    }

    static func int(_ value: Int) -> JSONValue { .number(Double(value)) }

    /// A measured number; null when it is not finite (JSON has no NaN or infinity: a figure that
    /// could not be measured).
    static func number(_ value: Double) -> JSONValue { value.isFinite ? .number(value) : .null }

    /// A line or column from 1; null for 0, the readers' "unknown".
    static func position(_ value: Int) -> JSONValue { value > 0 ? int(value) : .null }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// The error object: every member present, null where not known.
    static func error(file: String?, line: Int = 0, column: Int = 0, path: String? = nil, message: String) -> JSONValue {
        object([
            ("file", optional(file)), ("line", position(line)), ("column", position(column)),
            ("path", optional(path.flatMap { $0.isEmpty ? nil : $0 })), ("message", .string(message)),
        ])
    }

    /// A scenario file's error (`FILE:LINE:COLUMN: PATH: reason` in prose).
    static func error(_ error: ScenarioError) -> JSONValue {
        self.error(file: error.file, line: error.line, column: error.column, path: error.path, message: error.message)
    }

    /// A line diff as diff-line objects: each operation with its text and its line number (from
    /// 1) on each side it is on. With `context`, only the changed lines and that many unchanged
    /// lines around each are kept, as the prose diff shows them; the numbers show the gaps.
    static func diff(_ operations: [LineDiff.Operation], context: Int? = nil) -> JSONValue {
        var kept = Set(operations.indices)
        if let context {
            kept = []
            for index in operations.indices {
                if case .same = operations[index] { continue }
                kept.formUnion(max(0, index - context)...min(operations.count - 1, index + context))
            }
        }
        var left = 0, right = 0
        var lines: [JSONValue] = []
        for (index, operation) in operations.enumerated() {
            let op: String, text: String
            switch operation {
            case let .same(line): op = "same"; text = line; left += 1; right += 1
            case let .missing(line): op = "missing"; text = line; left += 1
            case let .extra(line): op = "extra"; text = line; right += 1
            }
            guard kept.contains(index) else { continue }
            let onLeft: JSONValue = op == "extra" ? .null : int(left)
            let onRight: JSONValue = op == "missing" ? .null : int(right)
            lines.append(object([("op", .string(op)), ("text", .string(text)), ("left", onLeft), ("right", onRight)]))
        }
        return .array(lines.map { JSONNode($0) })
    }
}
