import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a storyboard's bytes into a tree of `StoryboardElement`s with libxml2's SAX parser
/// (Foundation's `XMLParser`, which keeps line and column), refusing what could crash, hang or
/// exhaust memory (SPEC §11, §10): more than `maximumSize` bytes, nesting deeper than
/// `maximumDepth`, more than `maximumElements` elements, and any DTD (storyboards have none;
/// refusing it rules out entity expansion).
public enum StoryboardXML {
    /// 64 MiB: the largest real storyboards are a few MB.
    public static let maximumSize = 64 << 20
    /// Interface Builder nests views deeply, but not this deeply (a table cell's label is ~12).
    public static let maximumDepth = 256
    public static let maximumElements = 2_000_000

    /// The document element of `bytes`; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(StoryboardError) -> StoryboardElement {
        guard bytes.count <= maximumSize else {
            throw StoryboardError(file: file, line: 0, column: 0, element: "",
                                  message: "is larger than \(maximumSize >> 20) MiB, more than any storyboard")
        }
        // libxml2 hands Foundation's parser whatever bytes a name holds, and Foundation traps on
        // names that are not UTF-8 (found by the fuzzer): refuse them first. Storyboards are UTF-8.
        if let offset = firstInvalidUTF8(bytes) {
            let place = TextPlaces(bytes).place(ofOffset: offset)
            throw StoryboardError(file: file, line: place.line, column: place.column, element: "",
                                  message: "not UTF-8 text (byte 0x\(String(bytes[offset], radix: 16)) at offset \(offset)); Interface Builder writes UTF-8")
        }
        if let encoding = declaredEncoding(bytes), encoding.lowercased() != "utf-8" {
            throw StoryboardError(file: file, line: 1, column: 1, element: "?xml",
                                  message: "encoding \"\(encoding)\" declared; Interface Builder writes UTF-8, the only encoding read")
        }
        if let doctype = firstDoctype(bytes) {
            let place = TextPlaces(bytes).place(ofOffset: doctype)
            throw StoryboardError(file: file, line: place.line, column: place.column, element: "!DOCTYPE",
                                  message: "a storyboard has no document type declaration (refused: entities could expand without bound)")
        }
        if let start = firstRunWithoutMarkup(longerThan: maximumRunWithoutMarkup, in: bytes) {
            let place = TextPlaces(bytes).place(ofOffset: start)
            throw StoryboardError(file: file, line: place.line, column: place.column, element: "",
                                  message: "more than \(maximumRunWithoutMarkup) bytes without markup from here: an attribute value or text that long "
                                    + "is past libxml2's limit (10,000,000 bytes), and Interface Builder writes none")
        }
        let builder = TreeBuilder(bytes: bytes)
        // Fed in chunks (a stream), not whole: libxml2's push parser, which Foundation uses,
        // refuses a chunk over 10,000,000 bytes ("huge input lookup", reported as content after
        // the document's end), so every storyboard over about 10 MB was refused as not XML.
        let parser = XMLParser(stream: InputStream(data: Data(bytes)))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        builder.parser = parser
        _ = parser.parse()
        if let fault = builder.fault {
            throw StoryboardError(file: file, line: fault.line, column: fault.column, element: fault.element, message: fault.message)
        }
        if let syntax = builder.syntaxFault {
            let described = syntax.described(in: builder.places)
            throw StoryboardError(file: file, line: described.line, column: described.column, element: "",
                                  message: "not well-formed XML: \(described.reason)")
        }
        if let error = parser.parserError {
            // Only warnings were reported, and Foundation still failed.
            let place = builder.places.clamped(line: parser.lineNumber, column: parser.columnNumber)
            throw StoryboardError(file: file, line: place.line, column: place.column, element: "",
                                  message: "not well-formed XML: \(XMLSyntaxFault.reason((error as NSError).code))")
        }
        guard let document = builder.root else {
            throw StoryboardError(file: file, line: 1, column: 1, element: "", message: "not XML: no element")
        }
        return document
    }

    /// The longest run of bytes without a `<` read: libxml2 refuses an attribute value or a text
    /// longer than 10,000,000 bytes with an error that names anything but that (a missing space,
    /// an internal error), so such a run is refused first, where it starts, in words.
    public static let maximumRunWithoutMarkup = 9_999_999

    /// Where the first run of more than `limit` bytes without a `<` starts, if any.
    static func firstRunWithoutMarkup(longerThan limit: Int, in bytes: [UInt8]) -> Int? {
        guard bytes.count > limit else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var start = 0
            while start < buffer.count {
                let next = memchr(base + start, Int32(UInt8(ascii: "<")), buffer.count - start)
                let end = next.map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? buffer.count
                if end - start > limit { return start }
                start = end + 1
            }
            return nil
        }
    }

    /// The offset of the first byte that does not belong to UTF-8 text, if any.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var index = 0
        while index < bytes.count {
            let length: Int
            switch bytes[index] {
            case 0..<0x80: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return index
            }
            guard index + length <= bytes.count else { return index }
            if length > 1, String(validating: bytes[index..<(index + length)], as: UTF8.self) == nil { return index }
            index += length
        }
        return 0
    }

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="UTF-8"?>`), if any.
    static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        guard matches(bytes, at: 0, Array("<?xml".utf8)), let end = find(bytes, Array("?>".utf8), from: 0),
              let declaration = String(validating: bytes[0..<end], as: UTF8.self),
              let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The byte offset of a `<!DOCTYPE` outside comments, if any.
    static func firstDoctype(_ bytes: [UInt8]) -> Int? {
        let marker = Array("<!DOCTYPE".utf8)
        let comment = Array("<!--".utf8)
        let commentEnd = Array("-->".utf8)
        var index = 0
        while index + marker.count <= bytes.count {
            if bytes[index] == UInt8(ascii: "<") {
                if matches(bytes, at: index, comment) {
                    index = find(bytes, commentEnd, from: index + comment.count).map { $0 + commentEnd.count } ?? bytes.count
                    continue
                }
                if matches(bytes, at: index, marker) { return index }
            }
            index += 1
        }
        return nil
    }

    static func matches(_ bytes: [UInt8], at index: Int, _ pattern: [UInt8]) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in pattern.indices where bytes[index + offset] != pattern[offset] { return false }
        return true
    }

    static func find(_ bytes: [UInt8], _ pattern: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + pattern.count <= bytes.count {
            if matches(bytes, at: index, pattern) { return index }
            index += 1
        }
        return nil
    }
}

/// Builds the tree from the parser's events; keeps the first fault of its own (a limit passed)
/// and stops the parser there.
final class TreeBuilder: NSObject, XMLParserDelegate {
    struct Fault {
        var line: Int
        var column: Int
        var element: String
        var message: String
    }

    weak var parser: XMLParser?
    var places: TextPlaces
    var stack: [StoryboardElement] = []
    var root: StoryboardElement?
    var fault: Fault?
    /// The first XML syntax error libxml2 reported (its recovery reports more after it).
    var syntaxFault: XMLSyntaxFault?
    var elements = 0

    init(bytes: [UInt8]) {
        places = TextPlaces(bytes)
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        guard fault == nil else { return }
        let place = places.tagStart(endLine: parser.lineNumber, endColumn: parser.columnNumber)
        elements += 1
        if stack.count >= StoryboardXML.maximumDepth {
            stop(Fault(line: place.line, column: place.column, element: elementName,
                       message: "nested more than \(StoryboardXML.maximumDepth) elements deep"))
            return
        }
        if elements > StoryboardXML.maximumElements {
            stop(Fault(line: place.line, column: place.column, element: elementName,
                       message: "more than \(StoryboardXML.maximumElements) elements"))
            return
        }
        if root != nil, stack.isEmpty {
            stop(Fault(line: place.line, column: place.column, element: elementName, message: "a second document element"))
            return
        }
        stack.append(StoryboardElement(name: elementName, attributes: attributes, line: place.line, column: place.column))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard fault == nil, let element = stack.popLast() else { return }
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].children.append(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let code = (parseError as NSError).code
        guard fault == nil, syntaxFault == nil, !XMLSyntaxFault.Code.warnings.contains(code) else { return }
        let open = stack.last.map { XMLSyntaxFault.Open(name: $0.name, line: $0.line, column: $0.column) }
        syntaxFault = XMLSyntaxFault(code: code, line: parser.lineNumber, column: parser.columnNumber, open: open,
                                     documentEnded: root != nil && stack.isEmpty)
    }

    func stop(_ fault: Fault) {
        self.fault = fault
        parser?.abortParsing()
    }
}

/// Line and column from byte offsets and back, for a text read as bytes. libxml2 reports where
/// it stands after a start tag; the element's place is its `<`, found by looking back from there.
struct TextPlaces {
    let bytes: [UInt8]
    /// Byte offset of each line's start.
    let lineStarts: [Int]
    /// The last place found, from which the next one on the same line is counted on: tags come
    /// in order, and a storyboard written on one line must not cost a scan from its start per tag.
    private var last = (offset: 0, line: 1, column: 1)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        lineStarts = starts
    }

    func clamped(line: Int, column: Int) -> (line: Int, column: Int) {
        (max(1, min(line, lineStarts.count)), max(1, column))
    }

    /// The place of the `<` of the start tag the parser has just read, ending at (line, column).
    mutating func tagStart(endLine: Int, endColumn: Int) -> (line: Int, column: Int) {
        let line = max(1, min(endLine, lineStarts.count))
        var offset = min(lineStarts[line - 1] + max(endColumn - 1, 0), bytes.count)
        // Look back for the tag's `<` (attribute values cannot hold a raw `<`).
        while offset > 0 {
            offset -= 1
            if bytes[offset] == UInt8(ascii: "<") {
                let found = place(ofOffset: offset, after: last)
                last = (offset, found.line, found.column)
                return found
            }
        }
        return (line, max(1, endColumn))
    }

    /// Line and column (in characters) of a byte offset, counted on from `hint` when it is an
    /// earlier place on the same line.
    func place(ofOffset offset: Int, after hint: (offset: Int, line: Int, column: Int)? = nil) -> (line: Int, column: Int) {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        if let hint, hint.line == low + 1, hint.offset <= offset, hint.offset >= index {
            column = hint.column
            index = hint.offset
        }
        // Count characters, not continuation bytes.
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (low + 1, column)
    }
}
