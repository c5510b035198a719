/// A line diff of expected against actual canonical lines, for failure messages: ` ` both,
/// `-` expected but missing, `+` present but not expected.
public enum LineDiff {
    /// The diff as text; `numbered` prefixes each expected line with its number (from 1), so a
    /// failure points at the wrong line of the expectation.
    public static func render(expected: [String], actual: [String], numbered: Bool = false) -> String {
        var expectedLine = 0
        func number(_ counts: Bool) -> String {
            guard numbered else { return "" }
            guard counts else { return "     " }
            expectedLine += 1
            let text = String(expectedLine)
            return String(repeating: " ", count: max(0, 4 - text.count)) + text + " "
        }
        return operations(expected: expected, actual: actual).map { operation in
            switch operation {
            case let .same(line): return number(true) + "    " + line
            case let .missing(line): return number(true) + "  - " + line
            case let .extra(line): return number(false) + "  + " + line
            }
        }.joined(separator: "\n")
    }

    public enum Operation: Equatable, Sendable {
        case same(String), missing(String), extra(String)
    }

    /// A shortest edit script (a longest common subsequence, by `MyersDiff`): minimal at any
    /// size, with memory linear in the two sides. Between two common lines, what is missing comes
    /// before what is extra.
    public static func operations(expected: [String], actual: [String]) -> [Operation] {
        operations(expected: expected, actual: actual, budget: .max).operations
    }

    /// The same within a search budget (see `MyersDiff.matches(_:_:within:)`); past it, the
    /// common head and tail stay and everything between is listed as missing then extra, and
    /// `minimal` is false so that the caller says so.
    public static func operations(expected: [String], actual: [String], budget: Int) -> (operations: [Operation], minimal: Bool) {
        var numbers: [String: Int] = [:]
        numbers.reserveCapacity(expected.count)
        func number(_ line: String) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        let left = expected.map(number), right = actual.map(number)
        let found = MyersDiff.matches(left, right, within: budget)
        var matches = found ?? []
        if found == nil {
            // Only the common head and tail: a diff, not the shortest one.
            var head = 0
            while head < left.count, head < right.count, left[head] == right[head] { head += 1 }
            var tail = 0
            while tail < left.count - head, tail < right.count - head, left[left.count - 1 - tail] == right[right.count - 1 - tail] { tail += 1 }
            matches = (0..<head).map { ($0, $0) } + (0..<tail).map { (left.count - tail + $0, right.count - tail + $0) }
        }
        var result: [Operation] = []
        result.reserveCapacity(max(expected.count, actual.count))
        var i = 0, j = 0
        for match in matches + [(left: expected.count, right: actual.count)] {
            while i < match.left { result.append(.missing(expected[i])); i += 1 }
            while j < match.right { result.append(.extra(actual[j])); j += 1 }
            if i < expected.count, j < actual.count {
                result.append(.same(expected[i]))
                i += 1
                j += 1
            }
        }
        return (result, found != nil)
    }
}
