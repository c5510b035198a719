import TrellisBench
import TrellisJSON

/// The figures of a `trellis bench` run: printed as each is measured (prose), or gathered for
/// the one JSON document at the end (docs/json-output.md §bench).
struct BenchFigures {
    let format: ReportFormat
    private(set) var lines: [BenchLine] = []
    /// What stopped the measuring, for the JSON document.
    var errors: [JSONValue] = []

    init(format: ReportFormat) {
        self.format = format
    }

    mutating func add(_ line: BenchLine) {
        switch format {
        case .text: print(line)
        case .json: lines.append(line)
        }
    }

    /// Puts `figures` and `errors` into `report`.
    func fill(_ report: inout JSONReport) {
        report.set("figures", JSONFields.array(lines.map(Self.json)))
        report.set("errors", JSONFields.array(errors))
    }

    /// A figure's object: the numbers, the target as what is compared, how and with what, and
    /// the verdict.
    static func json(_ line: BenchLine) -> JSONValue {
        let measure: String, relation: String, bound: Double
        switch line.target {
        case let .atLeast(value): (measure, relation, bound) = ("ratio", ">=", value)
        case let .atMost(value): (measure, relation, bound) = ("ratio", "<=", value)
        case let .valueAtMost(value): (measure, relation, bound) = ("ours", "<=", value)
        }
        return JSONFields.object([
            ("name", .string(line.name)), ("ours", JSONFields.number(line.ours)), ("anchor", JSONFields.number(line.anchor)),
            ("ratio", JSONFields.number(line.ratio)), ("unit", .string(line.unit)),
            ("target", JSONFields.object([("measure", .string(measure)), ("relation", .string(relation)), ("value", JSONFields.number(bound))])),
            ("verdict", .string(line.passes ? "pass" : "miss")), ("note", .string(line.note)),
        ])
    }
}
