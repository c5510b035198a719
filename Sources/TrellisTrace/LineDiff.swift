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

    /// Above this many table cells the diff keeps the common head and tail and lists the
    /// middle as missing then extra, so a huge step cannot exhaust memory.
    static let tableLimit = 4_000_000

    /// A shortest edit script by longest common subsequence.
    public static func operations(expected: [String], actual: [String]) -> [Operation] {
        if (expected.count + 1) * (actual.count + 1) > tableLimit {
            return headAndTail(expected: expected, actual: actual)
        }
        let n = expected.count, m = actual.count
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = expected[i] == actual[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var result: [Operation] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i] == actual[j] {
                result.append(.same(expected[i]))
                i += 1
                j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                result.append(.missing(expected[i]))
                i += 1
            } else {
                result.append(.extra(actual[j]))
                j += 1
            }
        }
        return result
    }

    private static func headAndTail(expected: [String], actual: [String]) -> [Operation] {
        var head = 0
        while head < expected.count, head < actual.count, expected[head] == actual[head] { head += 1 }
        var tail = 0
        while tail < expected.count - head, tail < actual.count - head,
              expected[expected.count - 1 - tail] == actual[actual.count - 1 - tail] { tail += 1 }
        return expected[..<head].map { .same($0) }
            + expected[head..<(expected.count - tail)].map { .missing($0) }
            + actual[head..<(actual.count - tail)].map { .extra($0) }
            + expected[(expected.count - tail)...].map { .same($0) }
    }
}
