/// The known codes of an ERROR message's u16 error code.
public enum WireErrorCode: UInt16, CaseIterable, Hashable, Sendable {
    /// Not two frames, a header shorter than 32 bytes, or a wrong signature.
    case malformedHeader = 1
    /// A major version this receiver does not speak.
    case unsupportedVersion = 2
    /// A command octet this receiver does not know.
    case unknownCommand = 3
    /// A body that does not parse: truncated, unknown tag, invalid UTF-8, bad octet, too deep.
    case malformedBody = 4
    /// A CALL with a call code this receiver does not know.
    case unknownCallCode = 5
    /// A well-formed message that is not acceptable now or from this sender.
    case unexpectedCommand = 6
    /// A worker could not set up from a SETUP (its scenario or placement is unusable); the text says why.
    case setupFailed = 7
    /// (Since 1.3) a SETUP names Swift behaviours the worker does not know (§7.2): it runs
    /// another program than its conductor. The text names the node and every behaviour it lacks.
    case unknownBehavior = 8
}
