/// A strict RFC 8259 JSON parser over UTF-8 bytes: positions on every value, duplicate
/// object keys rejected, a nesting limit instead of unbounded recursion.
public struct JSONParser {
    /// Why a text is not acceptable JSON, and where.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public var line: Int
        public var column: Int
        /// Where in the document, as a JSON path (`$.controllers.R.kind`), when the parser knows:
        /// for a duplicate key, whose message also gives the first occurrence's position.
        public var path: String?

        public init(message: String, line: Int, column: Int, path: String? = nil) {
            self.message = message
            self.line = line
            self.column = column
            self.path = path
        }

        public var description: String { "line \(line), column \(column): " + (path.map { "\($0): " } ?? "") + message }
    }

    /// Objects with more keys than this check new keys for duplicates in a set.
    static let linearKeySearchLimit = 16

    /// Deeper nesting than this is rejected rather than risking the stack.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// The path to the value being parsed, as scenario errors print it once `$` is put before
    /// it (`.controllers`, `.R`, `[2]`), kept only by the second parse of a document with a
    /// duplicate key (`parse(bytes:)`): a document that parses pays nothing for it.
    private var trail: [String]?
    /// Set as a duplicate key is refused, for `parse(bytes:)` to parse again with a trail.
    private var refusedDuplicate = false

    private init(bytes: [UInt8], tracksPath: Bool = false) {
        self.bytes = bytes
        self.trail = tracksPath ? [] : nil
    }

    /// Parses one JSON document; only white space may follow it.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONNode {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses one JSON document from its UTF-8 bytes; a byte order mark before it is skipped
    /// (RFC 8259 §8.1 lets a parser ignore one; editors on Windows write it), and columns on the
    /// first line count from after it.
    public static func parse(bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        do {
            return try parser.parseDocument()
        } catch where parser.refusedDuplicate {
            // The same bytes refuse the same key again, now with its path and first position.
            var tracking = JSONParser(bytes: bytes, tracksPath: true)
            _ = try tracking.parseDocument()
            throw error
        }
    }

    private mutating func parseDocument() throws(SyntaxError) -> JSONNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        let node = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected text after the JSON value")
        }
        return node
    }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, line: line, column: column)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("unexpected end of text, expected a value") }
        let startLine = line, startColumn = column
        let value: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth)
        case UInt8(ascii: "["): value = try parseArray(depth: depth)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); value = .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); value = .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
        default: throw error("unexpected character '\(Self.printable(bytes[index]))', expected a value")
        }
        return JSONNode(value, line: startLine, column: startColumn)
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
    }

    private mutating func expectLiteral(_ literal: String) throws(SyntaxError) {
        for expected in literal.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw error("invalid literal, expected '\(literal)'")
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        // Keys already read: searched in `members` while there are few (a capture line's object
        // has thirteen), which is cheaper than hashing each into a set made per object. Past
        // that, a set of the keys' hashes (8 bytes a key, not a copy of each key's 16): a hash
        // seen before is searched for in `members`, so a collision is no false duplicate.
        var seen = Set<Int>()
        // Where each key was written, kept only with the trail (a duplicate's first occurrence).
        var keyPositions: [(line: Int, column: Int)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key in object")
            }
            let keyLine = line, keyColumn = column
            let key = try parseString()
            let duplicate: Bool
            if members.count < Self.linearKeySearchLimit {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key.hashValue)) }
                duplicate = !seen.insert(key.hashValue).inserted && members.contains { $0.key == key }
            }
            guard !duplicate else {
                refusedDuplicate = true
                guard let trail, let first = members.firstIndex(where: { $0.key == key }) else {
                    throw SyntaxError(message: "duplicate key \"\(key)\"", line: keyLine, column: keyColumn)
                }
                let (firstLine, firstColumn) = keyPositions[first]
                throw SyntaxError(
                    message: "duplicate key \"\(key)\" (first at line \(firstLine), column \(firstColumn))",
                    line: keyLine, column: keyColumn, path: "$" + trail.joined() + "." + key)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after key") }
            index += 1
            skipWhitespace()
            if trail != nil {
                keyPositions.append((keyLine, keyColumn))
                trail?.append("." + key)
            }
            members.append((key, try parseValue(depth: depth + 1)))
            trail?.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}' in object")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            trail?.append("[\(elements.count)]")
            elements.append(try parseValue(depth: depth + 1))
            trail?.removeLast()
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of text inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw error("expected ',' or ']' in array")
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1  // opening quote
        var runStart = index
        var text = ""
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text += try decodeRun(runStart..<index)
                index += 1
                return text
            }
            if byte < 0x20 { throw error("control character in string") }
            if byte == UInt8(ascii: "\\") {
                text += try decodeRun(runStart..<index)
                index += 1
                guard index < bytes.count else { throw error("unterminated escape in string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): text += "\""
                case UInt8(ascii: "\\"): text += "\\"
                case UInt8(ascii: "/"): text += "/"
                case UInt8(ascii: "b"): text += "\u{08}"
                case UInt8(ascii: "f"): text += "\u{0C}"
                case UInt8(ascii: "n"): text += "\n"
                case UInt8(ascii: "r"): text += "\r"
                case UInt8(ascii: "t"): text += "\t"
                case UInt8(ascii: "u"):
                    let first = try parseHex4()
                    var scalarValue = UInt32(first)
                    if (0xD800..<0xDC00).contains(first) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in string escape")
                        }
                        index += 2
                        let second = try parseHex4()
                        guard (0xDC00..<0xE000).contains(second) else { throw error("invalid low surrogate in string escape") }
                        scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(first) {
                        throw error("unpaired surrogate in string escape")
                    }
                    guard let scalar = Unicode.Scalar(scalarValue) else { throw error("invalid unicode escape") }
                    text.unicodeScalars.append(scalar)
                default:
                    throw error("invalid escape '\\\(Self.printable(escape))' in string")
                }
                runStart = index
                continue
            }
            index += 1
        }
    }

    private func decodeRun(_ range: Range<Int>) throws(SyntaxError) -> String {
        if range.isEmpty { return "" }
        // Most runs are ASCII (keys, names, messages), which needs no validation: the validating
        // initialiser is not specialised and looked up generic metadata on every call, a fifth
        // of the time of reading a large trace.
        let ascii: String? = bytes.withUnsafeBufferPointer { buffer in
            let run = UnsafeBufferPointer(rebasing: buffer[range])
            return run.allSatisfy { $0 < 0x80 } ? String(decoding: run, as: UTF8.self) : nil
        }
        if let ascii { return ascii }
        guard let decoded = String(validating: bytes[range], as: UTF8.self) else {
            throw SyntaxError(message: "invalid UTF-8 in string", line: line, column: range.lowerBound - lineStart + 1)
        }
        return decoded
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("invalid number: digit expected after '.'") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw error("invalid number: digit expected in exponent") }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        // The bytes are ASCII digits, sign, '.', 'e' by construction, so decoding cannot fail.
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("number out of range") }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
