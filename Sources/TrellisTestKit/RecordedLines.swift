/// Record mode: canonical lines written as Swift source, ready to paste into a test in place of
/// an expectation that does not hold yet (or was never written).
public enum RecordedLines {
    /// `lines` as a Swift array literal, one string per line, indented by `indent`:
    ///
    /// ```swift
    /// [
    ///     "R viewWillTransition(to: 568x320)",
    /// ]
    /// ```
    public static func swiftArray(_ lines: [String], indent: String = "") -> String {
        guard !lines.isEmpty else { return "[]" }
        let items = lines.map { indent + "    " + swiftString($0) + "," }
        return (["["] + items + [indent + "]"]).joined(separator: "\n")
    }

    /// `receiver.expect([...])` with `lines`, as a test would write it: `label` names the
    /// array's argument (`"lines: "`), `arguments` follow it (`", kinds: nil"`).
    public static func expectCall(
        _ lines: [String], receiver: String = "store", label: String = "", arguments: String = ""
    ) -> String {
        "\(receiver).expect(" + label + swiftArray(lines) + arguments + ")"
    }

    /// A Swift string literal of `text`: quotes and backslashes escaped, control characters as
    /// `\u{…}`.
    static func swiftString(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20: literal += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
