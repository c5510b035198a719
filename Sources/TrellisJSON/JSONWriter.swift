/// Writes JSON text with a stable member order, for the trace capture format and exports.
public enum JSONWriter {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        // Most text (ids, message names) needs no escaping: one scan of the bytes, one copy.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            return "\"" + text + "\""
        }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
        return out
    }

    /// A value in compact JSON text; object members keep their order.
    public static func write(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case let .bool(flag): return flag ? "true" : "false"
        case let .number(number): return number == number.rounded() && abs(number) < 9.0e15 ? String(Int64(number)) : "\(number)"
        case let .string(text): return quoted(text)
        case let .array(elements): return "[" + elements.map { write($0.value) }.joined(separator: ",") + "]"
        case let .object(members):
            return "{" + members.map { quoted($0.key) + ":" + write($0.value.value) }.joined(separator: ",") + "}"
        }
    }
}
