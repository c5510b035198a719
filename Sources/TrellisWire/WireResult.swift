/// What a RETURN reports about the CALL it answers.
public enum WireResult: Hashable, Sendable {
    /// The call completed; these are its results (none for most call codes).
    case ok([WireValue])
    /// The call could not be carried out; the text says why.
    case fault(String)
}
