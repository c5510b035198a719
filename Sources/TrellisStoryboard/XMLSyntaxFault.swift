/// The first XML syntax error libxml2 reports, put in words at the place it is in the text.
///
/// Foundation's parser lets libxml2 recover and go on, so its `parserError` is the *last* of a
/// cascade (a mismatched close tag ends as "extra content" at the end of the file); the first is
/// the fault. libxml2 reports where it stands when it notices, which may be past the fault (after
/// the tag, after the attribute value): the fault's own byte (the `</`, the repeated attribute's
/// name, the `&`) is found from there in the text.
struct XMLSyntaxFault {
    /// libxml2's `xmlParserErrors` numbers used here.
    enum Code {
        static let documentEmpty = 4, documentEnd = 5, invalidChar = 9
        static let entityNoName = 22, entitySemicolonMissing = 23, undeclaredEntity = 26
        static let lessThanInAttribute = 38, attributeWithoutValue = 41, attributeRedefined = 42
        static let nameRequired = 68, tagNameMismatch = 76, tagNotFinished = 77
        /// libxml2's warnings (`XML_WAR_*`): not faults of the text.
        static let warnings: Set<Int> = [27, 93, 97, 98, 99, 100, 102, 106, 107]
    }

    /// An element open when the error was met.
    struct Open {
        var name: String
        var line: Int
        var column: Int
    }

    var code: Int
    /// Where libxml2 stood, as it reports it.
    var line: Int
    var column: Int
    /// The innermost element open then, if any.
    var open: Open?
    /// Whether the document element had been closed (what follows is after the document's end).
    var documentEnded: Bool

    /// Line, column and reason in words.
    func described(in places: TextPlaces) -> (line: Int, column: Int, reason: String) {
        let bytes = places.bytes
        let reported = places.clamped(line: line, column: column)
        let offset = min(places.lineStarts[reported.line - 1] + reported.column - 1, bytes.count)
        let at = { (offset: Int) in places.place(ofOffset: offset) }
        if documentEnded {
            return (reported.line, reported.column, "content after the document's end")
        }
        if code == Code.documentEnd || code == Code.tagNotFinished || isAtEnd(offset, bytes) {
            let inside = open.map { "<\($0.name)> opened at \($0.line):\($0.column)" } ?? "a tag"
            return (reported.line, reported.column, "the file ends inside \(inside) (truncated?)")
        }
        switch code {
        case Code.tagNameMismatch:
            if let start = Self.lookBack(for: "<", from: offset, in: bytes), start + 1 < bytes.count, bytes[start + 1] == UInt8(ascii: "/") {
                let name = Self.name(in: bytes, from: start + 2)
                let opened = open.map { "<\($0.name)> opened at \($0.line):\($0.column)" } ?? "no open element"
                return (at(start).line, at(start).column, "</\(name)> closes \(opened)")
            }
        case Code.attributeRedefined:
            if let start = Self.lookBack(for: "<", from: offset, in: bytes), let repeated = Self.repeatedAttribute(in: bytes, tagStart: start, end: offset) {
                return (at(repeated.offset).line, at(repeated.offset).column,
                        "attribute \(repeated.name) appears twice in <\(Self.name(in: bytes, from: start + 1))>")
            }
        case Code.entityNoName, Code.entitySemicolonMissing, Code.nameRequired, Code.undeclaredEntity:
            if let ampersand = Self.lookBack(for: "&", from: offset, in: bytes) {
                let reason = code == Code.undeclaredEntity
                    ? "\(Self.entity(in: bytes, from: ampersand)) is no XML entity (XML has &amp; &lt; &gt; &quot; &apos;): a bare & must be written &amp;"
                    : "a bare & must be written &amp;"
                return (at(ampersand).line, at(ampersand).column, reason)
            }
        default: break
        }
        return (reported.line, reported.column, Self.reason(code))
    }

    /// libxml2's error number in words, where the text gives no more.
    static func reason(_ code: Int) -> String {
        switch code {
        case Code.documentEmpty: return "no element where the document should start (is it XML?)"
        case Code.invalidChar: return "a character that XML does not allow"
        case Code.lessThanInAttribute: return "a < in an attribute value must be written &lt;"
        case Code.attributeWithoutValue: return "an attribute without a value (name=\"value\")"
        case 39, 40: return "a malformed attribute"
        case 64: return "an XML declaration (<?xml …?>) anywhere but at the start of the file"
        case 65: return "a space is missing (between attributes?)"
        case 73: return "a tag is not closed with >"
        case Code.tagNameMismatch: return "an element is closed by the wrong tag"
        case 85: return "an element is not closed"
        default: return "XML error \(code) (libxml2's number)"
        }
    }

    /// Whether only white space is left from `offset`.
    func isAtEnd(_ offset: Int, _ bytes: [UInt8]) -> Bool {
        bytes[offset...].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The offset of the last `byte` before `offset`, looking back no further than the start of
    /// the markup libxml2 stands in (past a `>`, or past a `<` when looking for something else).
    static func lookBack(for byte: Unicode.Scalar, from offset: Int, in bytes: [UInt8]) -> Int? {
        var index = min(offset, bytes.count) - 1
        let target = UInt8(ascii: byte)
        while index >= 0 {
            let current = bytes[index]
            if current == target { return index }
            if current == UInt8(ascii: "<") || (current == UInt8(ascii: ">") && index < offset - 1) { return nil }
            index -= 1
        }
        return nil
    }

    /// The XML name starting at `start` (up to white space, `=`, `>`, `/` or a quote).
    static func name(in bytes: [UInt8], from start: Int) -> String {
        var end = start
        while end < bytes.count, !isNameEnd(bytes[end]) { end += 1 }
        return String(decoding: bytes[min(start, end)..<end], as: UTF8.self)
    }

    static func isNameEnd(_ byte: UInt8) -> Bool {
        [0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(byte)
    }

    /// `&name;` as written from `ampersand` (at most 32 bytes of it).
    static func entity(in bytes: [UInt8], from ampersand: Int) -> String {
        let end = bytes[ampersand..<min(bytes.count, ampersand + 32)].firstIndex(of: UInt8(ascii: ";")).map { $0 + 1 } ?? ampersand + 1
        return String(decoding: bytes[ampersand..<end], as: UTF8.self)
    }

    /// The first attribute of the start tag at `tagStart` whose name an earlier one has, with
    /// the offset of its second occurrence.
    static func repeatedAttribute(in bytes: [UInt8], tagStart: Int, end: Int) -> (name: String, offset: Int)? {
        var seen: Set<String> = []
        var index = tagStart + 1
        while index < end, !isNameEnd(bytes[index]) { index += 1 }  // the element's name
        while index < end {
            while index < end, isNameEnd(bytes[index]), bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "'") { index += 1 }
            guard index < end else { return nil }
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                // A value: skip to its closing quote.
                let quote = bytes[index]
                index += 1
                while index < end, bytes[index] != quote { index += 1 }
                index += 1
                continue
            }
            let start = index
            let name = Self.name(in: bytes, from: start)
            if !seen.insert(name).inserted { return (name, start) }
            index += max(1, name.utf8.count)
        }
        return nil
    }
}
