import TrellisTrace
import TrellisTraceFiles

/// The text of a failed trace expectation: what was expected and what happened as a readable
/// diff, the actual lines as Swift ready to paste into the test (record mode), and the whole
/// trace for context. The kit reports it as an issue at the expectation's line.
package struct TestKitFailure: Sendable, CustomStringConvertible {
    package var summary: String
    package var expected: [String]
    package var actual: [String]
    /// Every line of the run so far, for context.
    package var trace: [String]
    /// The call that would accept what happened, ready to paste (nil: none to offer).
    package var paste: String?

    package init(summary: String, expected: [String], actual: [String], trace: [String], paste: String?) {
        self.summary = summary
        self.expected = expected
        self.actual = actual
        self.trace = trace
        self.paste = paste
    }

    package var description: String {
        var text = summary + "\n" + LineDiff.render(expected: expected, actual: actual, numbered: true)
        if let notes = misspeltMessages {
            text += "\n\n" + notes
        }
        if let paste {
            text += "\n\nWhat happened, ready to paste:\n" + paste
        }
        if !trace.isEmpty {
            text += "\n\nWhole trace so far:\n" + trace.map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }

    /// Expected lines whose message is no message's name (a typo never matches), each with the
    /// name it is closest to; nil when every one names a message.
    private var misspeltMessages: String? {
        var notes: [String] = []
        for (index, line) in expected.enumerated() {
            guard let kind = ExpectedLine.kind(of: line), !TraceMessage.eventNames.contains(kind) else { continue }
            notes.append("note: expected line \(index + 1) names \"\(kind)\", which is no message's name" + NearestName.hint(kind, among: TraceMessage.eventNames))
        }
        return notes.isEmpty ? nil : notes.joined(separator: "\n")
    }
}
