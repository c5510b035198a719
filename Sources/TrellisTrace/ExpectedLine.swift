/// Canonical trace lines as expectations use them: a scenario's `expect` step and the test
/// kit's `expect(_:kinds:)` compare a step's events with expected lines the same way, here.
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

    /// The message kinds `lines` use: what an expectation compares when it names none (SPEC §5
    /// `expect`).
    public static func kinds(of lines: [String]) -> Set<String> {
        Set(lines.compactMap(kind(of:)))
    }

    /// The canonical lines of the events whose message is one of `kinds`, in order: what is
    /// compared with the expected lines.
    public static func lines(of events: some Sequence<TraceEvent>, kinds: Set<String>) -> [String] {
        events.filter { kinds.contains($0.message.name) }.map(\.canonicalLine)
    }
}
