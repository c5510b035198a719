import TrellisTrace

/// A failed expectation of the test kit: what was expected, what happened, as a readable diff,
/// followed by the whole trace. Thrown, so it fails a Swift Testing `@Test` or an XCTest method
/// alike with this text.
public struct TestKitFailure: Error, Sendable, CustomStringConvertible {
    public var summary: String
    public var expected: [String]
    public var actual: [String]
    /// Every line of the run so far, for context.
    public var trace: [String]

    public var description: String {
        var text = summary + "\n" + LineDiff.render(expected: expected, actual: actual, numbered: true)
        if !trace.isEmpty {
            text += "\n\nWhole trace so far:\n" + trace.map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }
}

