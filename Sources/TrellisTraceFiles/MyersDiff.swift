/// A minimal edit script between two sequences of integers (Myers' O((N+M)·D) algorithm, in its
/// linear-space form: each middle snake is found with two vectors of N+M+3 counters and the two
/// halves are solved the same way). It never builds an N×M table and never falls back to a
/// non-minimal diff: a million-line side with few differences costs a few passes over it, and
/// memory stays linear in the sides whatever the number of differences.
///
/// The result is the longest common subsequence's matches as pairs of indices, in order; what is
/// not matched on the left was removed, what is not matched on the right was inserted.
public enum MyersDiff {
    /// The matched index pairs `(left, right)` of a longest common subsequence, ascending.
    public static func matches(_ left: [Int], _ right: [Int]) -> [(left: Int, right: Int)] {
        matches(left, right, within: .max) ?? []
    }

    /// The same, or nil when finding it would take more than `budget` steps of the search (one
    /// per diagonal tried, about D² in all for D differences): the caller then says that it shows
    /// a diff that is not minimal, rather than searching for hours.
    public static func matches(_ left: [Int], _ right: [Int], within budget: Int) -> [(left: Int, right: Int)]? {
        var remaining = budget
        var result: [(left: Int, right: Int)] = []
        var forward: [Int] = []
        var backward: [Int] = []
        // An explicit stack of (left range, right range): no recursion depth on any input.
        var pending: [(Int, Int, Int, Int)] = [(0, left.count, 0, right.count)]
        var ordered: [(Int, Int, Int)] = []  // (left start, right start, length) of common runs
        while let (aLow, aHigh, bLow, bHigh) = pending.popLast() {
            var aStart = aLow, bStart = bLow, aEnd = aHigh, bEnd = bHigh
            while aStart < aEnd, bStart < bEnd, left[aStart] == right[bStart] { aStart += 1; bStart += 1 }
            if aStart > aLow { ordered.append((aLow, bLow, aStart - aLow)) }
            while aEnd > aStart, bEnd > bStart, left[aEnd - 1] == right[bEnd - 1] { aEnd -= 1; bEnd -= 1 }
            if aEnd < aHigh { ordered.append((aEnd, bEnd, aHigh - aEnd)) }
            guard aStart < aEnd, bStart < bEnd else { continue }
            // Unreachable for non-empty sides (some path of at most n + m edits always meets one
            // from the other end); without a snake the range is left unmatched, never looped on.
            guard let snake = middleSnake(left, aStart, aEnd, right, bStart, bEnd, &forward, &backward, &remaining) else {
                if remaining < 0 { return nil }
                continue
            }
            if snake.length > 0 { ordered.append((snake.x, snake.y, snake.length)) }
            pending.append((aStart, snake.x, bStart, snake.y))
            pending.append((snake.x + snake.length, aEnd, snake.y + snake.length, bEnd))
        }
        ordered.sort { $0.0 < $1.0 }
        for (x, y, length) in ordered {
            for offset in 0..<length { result.append((x + offset, y + offset)) }
        }
        return result
    }

    /// The middle snake of `left[aLow..<aHigh]` against `right[bLow..<bHigh]` (both non-empty,
    /// with no common first or last element): where a minimal script crosses its middle, in
    /// absolute indices. With at least two edits, both halves around it have fewer edits.
    private static func middleSnake(
        _ left: [Int], _ aLow: Int, _ aHigh: Int, _ right: [Int], _ bLow: Int, _ bHigh: Int,
        _ forward: inout [Int], _ backward: inout [Int], _ remaining: inout Int
    ) -> (x: Int, y: Int, length: Int)? {
        let n = aHigh - aLow, m = bHigh - bLow
        let delta = n - m
        let odd = delta & 1 != 0
        let limit = (n + m + 1) / 2
        let offset = limit + 1
        let size = 2 * limit + 3
        if forward.count < size { forward = Array(repeating: 0, count: size) }
        if backward.count < size { backward = Array(repeating: 0, count: size) }
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        for d in 0...limit {
            remaining -= 2 * (d + 1)
            if remaining < 0 { return nil }
            // Forward paths of d edits, on diagonals k = x - y.
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && forward[offset + k - 1] < forward[offset + k + 1]))
                    ? forward[offset + k + 1] : forward[offset + k - 1] + 1
                var y = x - k
                let startX = x, startY = y
                while x < n, y < m, left[aLow + x] == right[bLow + y] { x += 1; y += 1 }
                forward[offset + k] = x
                let reverse = delta - k
                if odd, reverse >= -(d - 1), reverse <= d - 1, x + backward[offset + reverse] >= n {
                    return (aLow + startX, bLow + startY, x - startX)
                }
            }
            // Backward paths of d edits, counted from the ends, on diagonals k' = delta - k.
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && backward[offset + k - 1] < backward[offset + k + 1]))
                    ? backward[offset + k + 1] : backward[offset + k - 1] + 1
                var y = x - k
                let startX = x
                while x < n, y < m, left[aHigh - 1 - x] == right[bHigh - 1 - y] { x += 1; y += 1 }
                backward[offset + k] = x
                let ahead = delta - k
                if !odd, ahead >= -d, ahead <= d, x + forward[offset + ahead] >= n {
                    // Back in forward coordinates: the snake runs from (n - x, m - y) to the start.
                    return (aLow + n - x, bLow + m - y, x - startX)
                }
            }
        }
        return nil
    }
}
