/// YAML 1.2's core schema (YAML 1.2.2 §10.3.2): how an untagged plain scalar is typed. Only
/// `null`/`~`/empty, `true`/`false` in three spellings, decimal, `0o` octal and `0x` hex
/// integers and decimal floats are anything but strings — `yes`, `no`, `on`, `off` and `NO`
/// are strings, unlike YAML 1.1.
enum YAMLCoreSchema {
    /// What a plain scalar is.
    enum Resolved: Equatable {
        case null
        case bool(Bool)
        /// A number; nil when it matches the number forms but has no finite double value
        /// (`.inf`, `.nan`, `1e400`, a hex integer beyond 2^64).
        case number(Double?)
        case string
    }

    static func resolve(_ text: String) -> Resolved {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        if let number = integer(text) { return .number(number) }
        if isFloat(text) {
            guard let value = Double(text), value.isFinite else { return .number(nil) }
            return .number(value)
        }
        let unsigned = text.first == "-" || text.first == "+" ? String(text.dropFirst()) : text
        if [".inf", ".Inf", ".INF"].contains(unsigned) || [".nan", ".NaN", ".NAN"].contains(text) { return .number(nil) }
        return .string
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`: the value (nil inside when out of range),
    /// or nil when the text is not an integer.
    static func integer(_ text: String) -> Double?? {
        if text.hasPrefix("0o") || text.hasPrefix("0x") {
            let digits = text.dropFirst(2)
            let radix = text.hasPrefix("0o") ? 8 : 16
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.hexDigitValue.map { $0 < radix } == true }) else { return nil }
            return .some(UInt64(digits, radix: radix).map { Double($0) })
        }
        let unsigned = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
        guard !unsigned.isEmpty, unsigned.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let value = Double(text), value.isFinite else { return .some(nil) }
        return .some(value)
    }

    /// `[-+]? ( "." [0-9]+ | [0-9]+ ( "." [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
    static func isFloat(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        func digits() -> Int {
            let count = rest.prefix { $0.isASCII && $0.isNumber }.count
            rest = rest.dropFirst(count)
            return count
        }
        let whole = digits()
        var fraction = 0
        if rest.first == "." {
            rest = rest.dropFirst()
            fraction = digits()
            guard whole > 0 || fraction > 0 else { return false }
        } else {
            guard whole > 0 else { return false }
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }
}
