import Foundation
import TrellisJSON
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles

/// What a `trellis run` came to, gathered before it is told: in prose (the trace on standard
/// output, errors and failed expectations on standard error) or as one JSON document
/// (docs/json-output.md §run). Gathering first is what keeps the document whole on every path:
/// an error met while handling another (a trace file that cannot be written after a failed
/// step) is one more entry, never a second document.
struct RunOutcome {
    /// An error of the run: its exit status, its line for people and its JSON error object.
    struct Problem {
        var status: Int32
        var text: String
        var json: JSONValue
    }

    /// The scenario file as given.
    let file: String
    /// The file's text and the scenario it gave, once read.
    var fileText: String?
    var scenario: Scenario?
    var events: [TraceEvent] = []
    var failures: [ExpectationFailure] = []
    /// A distributed run's faults (a node lost, a call undeliverable).
    var faults: [String] = []
    var problems: [Problem] = []
    /// The capture files written (`--trace`, `--trace-dir`).
    var traceFiles: [String] = []

    init(file: String) {
        self.file = file
    }

    /// SPEC §8: the first problem's status (2 bad input, 3 a failed distributed run), else 1
    /// when an `expect` failed, else 0.
    var status: Int32 { problems.first?.status ?? (failures.isEmpty ? 0 : 1) }

    /// Records a problem of the scenario file itself (it could not be read or is invalid).
    mutating func fail(_ error: ScenarioError) {
        problems.append(Problem(status: 2, text: "error: \(error)", json: JSONFields.error(error)))
    }

    /// Records a problem at step `step` of the file (0 or none: the run as a whole), its
    /// message `message` said after the file's name.
    mutating func fail(status: Int32, step: Int?, message: String) {
        let location = step.flatMap { $0 > 0 ? stepLocation($0 - 1) : nil }
        problems.append(Problem(
            status: status, text: "error: \(file): \(message)",
            json: JSONFields.error(file: file, line: location?.line ?? 0, column: location?.column ?? 0, path: location?.path, message: message)))
    }

    /// Records a problem that belongs to no place in the scenario file (an output file).
    mutating func fail(status: Int32, file other: String?, message: String) {
        problems.append(Problem(status: status, text: "error: \(message)", json: JSONFields.error(file: other, message: message)))
    }

    /// Where the step at `index` (from 0) stands in the file, and its node.
    func stepLocation(_ index: Int) -> (path: String, line: Int, column: Int, node: JSONNode?)? {
        let path = "$.steps[\(index)]"
        guard let fileText, let root = ScenarioDecoder.syntaxTree(fileText, file: file),
              case let .array(steps)? = root["steps"]?.value, steps.indices.contains(index)
        else { return (path, 0, 0, nil) }
        return (path, steps[index].line, steps[index].column, steps[index])
    }

    /// Tells the outcome in prose: the trace on standard output (canonical lines, or JSON Lines
    /// with `jsonLines`) but for the first `printed` events (printed as the run went,
    /// `LiveTrace`), then each problem and each failed expectation on standard error.
    func tell(jsonLines: Bool, runID: String, printed: Int = 0) {
        var output = OutputBuffer()
        for event in events.dropFirst(printed) {
            // Printed JSON lines are self-contained (each names its run and node): a stream that
            // line-oriented tools cut and filter, not a file.
            output.line(jsonLines ? TraceCaptureFormat.line(for: event, runID: runID) : event.canonicalLine)
        }
        output.flush()
        for problem in problems { StandardError.write(problem.text) }
        // A failure names its file and the expect step's line and column itself.
        for failure in failures { StandardError.write("\(failure)") }
    }

    /// The JSON document (docs/json-output.md §run); the trace itself is not in it.
    func report(transport: String) -> JSONReport {
        var report = JSONReport(command: "run")
        report.set("file", .string(file))
        report.set("scenario", JSONFields.optional(scenario?.name))
        report.set("transport", .string(transport))
        report.set("passed", .bool(status == 0))
        report.set("events", JSONFields.int(events.count))
        report.set("failures", JSONFields.array(failures.map(failureJSON)))
        report.set("faults", JSONFields.strings(faults))
        report.set("errors", JSONFields.array(problems.map(\.json)))
        report.set("traceFiles", JSONFields.strings(traceFiles))
        return report
    }

    /// A failed `expect` step: where it is in the file, what it compared and the diff.
    private func failureJSON(_ failure: ExpectationFailure) -> JSONValue {
        let location = stepLocation(failure.step - 1)
        var expectedAt: [JSONValue] = []
        if case let .array(items)? = location?.node?["expect"]?.value {
            expectedAt = items.map { JSONFields.object([("line", JSONFields.position($0.line)), ("column", JSONFields.position($0.column))]) }
        }
        return JSONFields.object([
            ("step", JSONFields.int(failure.step)), ("checkedStep", JSONFields.int(failure.checkedStep)),
            ("file", .string(file)), ("line", JSONFields.position(failure.position?.line ?? location?.line ?? 0)),
            ("column", JSONFields.position(failure.position?.column ?? location?.column ?? 0)),
            ("path", JSONFields.optional(location?.path)), ("message", .string(failure.summary)),
            ("kinds", JSONFields.strings(failure.kinds)), ("expected", JSONFields.strings(failure.expected)),
            ("expectedAt", JSONFields.array(expectedAt)), ("actual", JSONFields.strings(failure.actual)),
            ("diff", JSONFields.diff(LineDiff.operations(expected: failure.expected, actual: failure.actual))),
        ])
    }
}

extension ExpectationFailure {
    /// The failure's first line, without its diff.
    var summary: String {
        let checked = checkedStep == 0 ? "the initial layout" : "step \(checkedStep)"
        return "expect at step \(step) failed for \(checked), comparing kinds \(kinds.joined(separator: ", "))"
    }
}
