import TrellisTrace

/// A structural diff of two traces (`trellis trace diff`). Steps are aligned first by what they
/// are — a longest common subsequence of their descriptions, in order, so a step inserted or
/// removed on one side shows as that step alone and the steps after it still pair up; steps left
/// over on both sides between two aligned ones that do the same action (`resizeWindow`) pair up
/// in order, as steps whose description changed (their headers shown as - and +) — then each
/// pair's canonical lines, in causal order, are compared by a minimal line diff (`LineDiff`,
/// Myers' algorithm: no N×M table, never a non-minimal fallback). An extra, missing or changed
/// line shows where it is in the run, whatever the clocks, timestamps or step numbers say.
public enum TraceDiff {
    public struct StepDifference: Sendable, Equatable {
        /// The step's number in the second trace (in the first, for a step only it has).
        public var step: Int
        public var header: String
        public var operations: [LineDiff.Operation]
        /// False when the step had too many differences for a shortest diff within the search
        /// budget: its lines are then the common head and tail, and all between as - then +.
        public var minimal = true
    }

    /// Steps of the search for a shortest diff of one step's lines (about D² for D differing
    /// lines): a few seconds; past it the step's diff says it is not minimal.
    public static let searchBudget = 400_000_000

    /// One step of a trace: its header (if recorded), what it is, and its lines.
    private struct Step {
        var number: Int
        var header: String?
        var lines: [String] = []

        /// What the step is, without its number: the header's description.
        var identity: String {
            guard let header else { return number == 0 ? "(initial layout)" : "(step without header)" }
            guard let colon = header.firstIndex(of: ":") else { return header }
            return String(header[header.index(after: colon)...])
        }

        /// What the step does, without its arguments: the description's first word (`resizeWindow`).
        var action: String {
            identity.split(separator: " ").first.map(String.init) ?? identity
        }

        /// The header shown for it.
        var title: String { number == 0 ? "(initial layout)" : header ?? "== step \(number)" }
    }

    private static func steps(_ events: [TraceEvent]) -> [Step] {
        var byNumber: [Int: Step] = [:]
        for event in events {
            if case .step = event.message {
                byNumber[event.step, default: Step(number: event.step)].header = event.canonicalLine
            } else {
                byNumber[event.step, default: Step(number: event.step)].lines.append(event.canonicalLine)
            }
        }
        return byNumber.keys.sorted().compactMap { byNumber[$0] }
    }

    /// The steps whose lines differ (none: the traces are the same); `budget` bounds the search
    /// for a shortest diff of each step (see `searchBudget`).
    public static func compare(_ left: [TraceEvent], _ right: [TraceEvent], budget: Int = searchBudget) -> [StepDifference] {
        let a = steps(left), b = steps(right)
        // Steps compared by number: the same description (or action) the same number.
        var identities: [String: Int] = [:], actions: [String: Int] = [:]
        func interned(_ key: String, _ table: inout [String: Int]) -> Int {
            if let known = table[key] { return known }
            table[key] = table.count
            return table.count - 1
        }
        func number(_ step: Step) -> Int { interned(step.identity, &identities) }
        func actionNumber(_ step: Step) -> Int { interned(step.action, &actions) }
        // Steps are few; thousands of unrelated ones past the budget pair up by position instead.
        let pairs = MyersDiff.matches(a.map(number), b.map(number), within: budget)
            ?? (0..<min(a.count, b.count)).map { (left: $0, right: $0) }
        var differences: [StepDifference] = []
        var i = 0, j = 0
        func only(_ step: Step, as operation: (String) -> LineDiff.Operation) -> StepDifference {
            StepDifference(step: step.number, header: step.title,
                           operations: (step.header.map { [operation($0)] } ?? []) + step.lines.map(operation))
        }
        /// A pair's difference (its headers too when their descriptions differ); nil when none.
        func paired(_ old: Step, _ new: Step) -> StepDifference? {
            let renamed = old.identity != new.identity
            guard renamed || old.lines != new.lines else { return nil }
            let diff = LineDiff.operations(expected: old.lines, actual: new.lines, budget: budget)
            let headers = renamed ? (old.header.map { [LineDiff.Operation.missing($0)] } ?? []) + (new.header.map { [LineDiff.Operation.extra($0)] } ?? []) : []
            return StepDifference(step: new.number, header: new.title, operations: headers + diff.operations, minimal: diff.minimal)
        }
        for pair in pairs + [(left: a.count, right: b.count)] {
            // Steps between the same two matched ones whose descriptions differ: those doing the
            // same action on each side (a size changed in a `resizeWindow`) pair up in order,
            // their headers shown as changed and their lines compared; the rest are removed or added.
            let actions = MyersDiff.matches(a[i..<pair.left].map(actionNumber), b[j..<pair.right].map(actionNumber), within: budget) ?? []
            for changed in actions.map({ (left: i + $0.left, right: j + $0.right) }) + [pair] {
                while i < changed.left { differences.append(only(a[i], as: LineDiff.Operation.missing)); i += 1 }
                while j < changed.right { differences.append(only(b[j], as: LineDiff.Operation.extra)); j += 1 }
                guard i < a.count, j < b.count else { break }
                if let difference = paired(a[i], b[j]) { differences.append(difference) }
                i += 1
                j += 1
            }
        }
        return differences
    }

    /// The differences as text: each differing step's header, then its lines (`-` only in the
    /// first trace, `+` only in the second, unchanged lines around them for context).
    public static func render(_ differences: [StepDifference], context: Int = 2) -> String {
        var out: [String] = []
        for difference in differences {
            out.append(difference.header)
            if !difference.minimal {
                out.append("  (not a shortest diff: too many differences in this step to search; the lines between the first and last difference are listed as removed, then added)")
            }
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
