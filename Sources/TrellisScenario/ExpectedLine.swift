/// Canonical trace lines as `expect` steps use them.
public enum ExpectedLine {
    /// The message kind of a canonical line: the word after the receiver, up to `(` or a space
    /// (`R sizeForChild(C1, …) -> …` is `sizeForChild`). Nil for a header or a malformed line.
    public static func kind(of line: String) -> String? {
        guard !line.hasPrefix("=="), let space = line.firstIndex(of: " ") else { return nil }
        let receiver = line[..<space]
        guard !receiver.isEmpty else { return nil }
        let rest = line[line.index(after: space)...]
        let word = rest.prefix { $0 != "(" && $0 != " " }
        return word.isEmpty ? nil : String(word)
    }
}
