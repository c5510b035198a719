/// The known name closest to a misspelt one, for "did you mean" hints in error messages.
package enum NearestName {
    /// The name in `names` at the smallest edit distance from `word` (ties: the first in sorted
    /// order), if that distance is at most a third of the word's length, and at most 3.
    package static func of(_ word: String, among names: Set<String>) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (name: String, distance: Int)?
        for name in names.sorted() {
            let distance = editDistance(Array(word), Array(name), limit: limit)
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (name, distance) }
        }
        return best?.name
    }

    /// ` (did you mean "N"?)` for the name `of` finds, "" when none is near: the hint error
    /// messages append.
    package static func hint(_ word: String, among names: Set<String>) -> String {
        of(word, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
    }

    /// Levenshtein distance, stopping early (returning more than `limit`) when it must exceed it.
    package static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            if current.min() ?? 0 > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}
