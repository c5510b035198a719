import TrellisJSON
import TrellisModel
import TrellisTrace

/// The JSON Lines capture format of `Protocols/trace-format.md`: one event per line.
public enum TraceCaptureFormat {
    public static let formatName = "trellis-trace"
    public static let majorVersion = 1
    public static let minorVersion = 1

    /// Why a capture line could not be read.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    // MARK: Writing

    /// One event as one self-contained line of JSON (no trailing newline): every field on the
    /// line, version 1.0's form (TRACE-DATA parts carry these).
    public static func line(for event: TraceEvent, runID: String) -> String {
        // Version 1.1's event line for a header naming the event's own node has no "node" field:
        // 1.0's header fields go in front of its fields.
        let fields = eventLine(for: event, headerNode: event.id.node).dropFirst()
        return "{\"v\":\"1.0\",\"run\":" + JSONWriter.quoted(runID) + ",\"node\":" + JSONWriter.quoted(event.id.node) + "," + fields
    }

    /// The header line of version 1.1 (no trailing newline): what the event lines after it
    /// have in common, the run id and the node (an event line names its node only when it is
    /// another).
    public static func headerLine(runID: String, node: String) -> String {
        "{\"v\":\"" + versionText + "\",\"run\":" + JSONWriter.quoted(runID) + ",\"node\":" + JSONWriter.quoted(node) + "}"
    }

    /// One event as an event line of version 1.1 (no trailing newline), after a header line
    /// whose node is `headerNode`. Written by the file writer's own encoder
    /// (`CaptureLineEncoder`), so that a line on standard output, in a TRACE-DATA part and in a
    /// file is made by one piece of code.
    public static func eventLine(for event: TraceEvent, headerNode: String) -> String {
        let encoder = CaptureLineEncoder(capacity: 512)
        encoder.append(event, headerNode: headerNode)
        // The encoder ends the line with its newline; this line has none.
        return encoder.withBytes { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    static let versionText = "\(majorVersion).\(minorVersion)"

    // MARK: Reading

    /// What version 1.1's header line says the event lines after it have in common.
    public struct Header: Sendable, Equatable {
        public var runID: String
        public var node: String
    }

    /// One line of a capture: a header line, or an event with its run id.
    public enum Line: Sendable, Equatable {
        case header(Header)
        case event(TraceEvent, runID: String)
    }

    /// Reads one self-contained capture line (every field on it). Unknown fields are ignored; a
    /// newer minor version is accepted.
    public static func event(fromLine line: String) throws(ReadError) -> (event: TraceEvent, runID: String) {
        try event(fromLine: Array(line.utf8))
    }

    /// Reads every line of `text`, a capture file's or a TRACE-DATA part's, in order: `body` gets
    /// each event line's number (from 1) and its event or why it could not be read. Blank lines
    /// are skipped; a header line (1.1) gives the lines after it their run id and node. Lines are
    /// found and handed to the parser as bytes: splitting the text into `Character`s was a third
    /// of the time of reading a large trace.
    public static func readLines(_ text: String, _ body: (_ lineNumber: Int, _ read: Result<(event: TraceEvent, runID: String), ReadError>) -> Void) {
        var text = text
        var header: Header?
        text.withUTF8 { bytes in
            for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
                let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
                if isBlank(trimmed) { continue }
                do throws(ReadError) {
                    switch try self.line(Array(trimmed), after: header) {
                    case let .header(next): header = next
                    case let .event(event, runID): body(index + 1, .success((event, runID)))
                    }
                } catch {
                    body(index + 1, .failure(error))
                }
            }
        }
    }

    /// Whether a line holds white space only (Unicode's, as a `String` says; ASCII decided
    /// without decoding).
    private static func isBlank(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var asciiOnly = true
        for byte in line {
            if byte >= 0x80 {
                asciiOnly = false
                break
            }
            if byte != UInt8(ascii: " "), byte != UInt8(ascii: "\t"), !(0x0A...0x0D).contains(byte) { return false }
        }
        return asciiOnly || String(decoding: line, as: UTF8.self).allSatisfy(\.isWhitespace)
    }

    /// Reads one self-contained capture line given as UTF-8 bytes.
    public static func event(fromLine line: [UInt8]) throws(ReadError) -> (event: TraceEvent, runID: String) {
        guard case let .event(event, runID) = try self.line(line, after: nil) else {
            throw ReadError("a header line, not an event")
        }
        return (event, runID)
    }

    /// Reads one line given as UTF-8 bytes: a header, a self-contained event line, or (after
    /// `header`) an event line of 1.1 that takes its run id, and unless it names one its node,
    /// from the header.
    public static func line(_ line: [UInt8], after header: Header?) throws(ReadError) -> Line {
        let node: JSONNode
        do {
            node = try JSONParser.parse(bytes: line)
        } catch {
            // A capture line is one line: the parser's "line 1" says nothing, the column does.
            throw ReadError("not JSON at column \(error.column) of the line: \(error.message)")
        }
        guard case .object = node.value else { throw ReadError("a capture line must be a JSON object") }
        let runID: String
        let nodeName: String
        if node["v"] != nil {
            let version = try string(node, "v")
            let parts = version.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count < 10 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let major = Int(parts[0]) else {
                throw ReadError("field \"v\": expected \"MAJOR.MINOR\", got \"\(version)\"")
            }
            guard major == majorVersion else {
                throw ReadError("field \"v\": major version \(major) is not supported (this reader reads \(majorVersion).x)")
            }
            runID = try string(node, "run")
            nodeName = try string(node, "node")
            // A header has neither a sequence number nor a message (a line with one is an event
            // missing the other).
            if node["seq"] == nil, node["message"] == nil { return .header(Header(runID: runID, node: nodeName)) }
        } else {
            guard let header else { throw ReadError("an event line without \"v\" before any header line") }
            runID = header.runID
            nodeName = node["node"] == nil ? header.node : try string(node, "node")
        }
        let sequence = try unsigned(node, "seq")
        let lamport = try unsigned(node, "lamport")
        var cause: EventRef?
        if let causeNode = node["cause"], causeNode.value != .null {
            guard case let .string(text) = causeNode.value, let ref = eventRef(text) else {
                throw ReadError("field \"cause\": expected \"node#sequence\" or null")
            }
            cause = ref
        }
        let controller = ControllerID(try string(node, "controller"))
        var transition: Int?
        if let transitionNode = node["transition"], transitionNode.value != .null {
            transition = try int(node, "transition")
        }
        let step = try int(node, "step")
        let name = try string(node, "message")
        guard let payload = node["payload"], case .object = payload.value else {
            throw ReadError("field \"payload\": expected an object")
        }
        let message = try CaptureLinePayloadReader.message(name: name, payload: payload)
        let time = try unsigned(node, "time")
        let event = TraceEvent(
            id: EventRef(node: nodeName, sequence: sequence), lamport: lamport, cause: cause,
            controller: controller, transition: transition, step: step, message: message, time: time)
        // The checks the compact reader makes too (one rule for both forms).
        if let problem = TraceEventValidation.problem(in: event) { throw ReadError(problem) }
        return .event(event, runID: runID)
    }

    /// Parses `node#sequence`.
    public static func eventRef(_ text: String) -> EventRef? {
        guard let hash = text.lastIndex(of: "#"), let sequence = UInt64(text[text.index(after: hash)...]) else { return nil }
        return EventRef(node: String(text[..<hash]), sequence: sequence)
    }

    static func string(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> String {
        guard let member = node[key] else { throw ReadError("missing field \"\(context)\(key)\"") }
        guard case let .string(text) = member.value else {
            throw ReadError("field \"\(context)\(key)\": expected a string, got \(member.value.typeName)")
        }
        return text
    }

    static func unsigned(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> UInt64 {
        guard let member = node[key] else { throw ReadError("missing field \"\(context)\(key)\"") }
        guard case let .number(number) = member.value, number >= 0, number == number.rounded() else {
            throw ReadError("field \"\(context)\(key)\": expected a non-negative integer")
        }
        guard let value = UInt64(exactly: number) else {
            throw ReadError("field \"\(context)\(key)\": \(number) is too large (at most \(UInt64.max))")
        }
        return value
    }

    /// An unsigned field that must also fit an `Int`.
    static func int(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> Int {
        guard let value = Int(exactly: try unsigned(node, key, in: context)) else {
            throw ReadError("field \"\(context)\(key)\": too large (at most \(Int.max))")
        }
        return value
    }
}
