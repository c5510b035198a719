/// A structural diff of two traces (`trellis trace diff`): step by step, each step's canonical
/// lines in causal order compared by longest common subsequence — so an extra, missing or
/// changed line shows where it is in the run, whatever the clocks or timestamps say.
public enum TraceDiff {
    public struct StepDifference: Sendable, Equatable {
        public var step: Int
        public var header: String
        public var operations: [LineDiff.Operation]
    }

    /// The steps whose lines differ (none: the traces are the same).
    public static func compare(_ left: [TraceEvent], _ right: [TraceEvent]) -> [StepDifference] {
        func byStep(_ events: [TraceEvent]) -> (lines: [Int: [String]], headers: [Int: String]) {
            var lines: [Int: [String]] = [:]
            var headers: [Int: String] = [:]
            for event in events {
                if case .step = event.message {
                    headers[event.step] = event.canonicalLine
                } else {
                    lines[event.step, default: []].append(event.canonicalLine)
                }
            }
            return (lines, headers)
        }
        let a = byStep(left), b = byStep(right)
        let steps = Set(a.lines.keys).union(b.lines.keys).union(a.headers.keys).union(b.headers.keys).sorted()
        var differences: [StepDifference] = []
        for step in steps {
            let old = a.lines[step] ?? [], new = b.lines[step] ?? []
            let headerA = a.headers[step], headerB = b.headers[step]
            guard old != new || headerA != headerB else { continue }
            var operations = LineDiff.operations(expected: old, actual: new)
            if headerA != headerB {
                operations.insert(contentsOf: [headerA.map { .missing($0) }, headerB.map { .extra($0) }].compactMap { $0 }, at: 0)
            }
            let header = headerB ?? headerA ?? (step == 0 ? "(initial layout)" : "== step \(step)")
            differences.append(StepDifference(step: step, header: step == 0 ? "(initial layout)" : header, operations: operations))
        }
        return differences
    }

    /// The differences as text: each differing step's header, then its lines (`-` only in the
    /// first trace, `+` only in the second, unchanged lines around them for context).
    public static func render(_ differences: [StepDifference], context: Int = 2) -> String {
        var out: [String] = []
        for difference in differences {
            out.append(difference.header)
            let operations = difference.operations
            let changed = operations.indices.filter { if case .same = operations[$0] { return false }; return true }
            var shown = Set<Int>()
            for index in changed {
                for near in max(0, index - context)...min(operations.count - 1, index + context) { shown.insert(near) }
            }
            var last = -1
            for index in shown.sorted() {
                if last >= 0, index > last + 1 { out.append("  …") }
                switch operations[index] {
                case let .same(line): out.append("    " + line)
                case let .missing(line): out.append("  - " + line)
                case let .extra(line): out.append("  + " + line)
                }
                last = index
            }
        }
        return out.joined(separator: "\n")
    }
}
