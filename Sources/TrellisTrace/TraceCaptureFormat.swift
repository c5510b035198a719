import TrellisJSON
import TrellisModel

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
        // Appended in place into one reserved string: a file trace writes one line per event.
        var out = ""
        out.reserveCapacity(320)
        out.append("{\"v\":\"1.0\",\"run\":")
        out.append(JSONWriter.quoted(runID))
        out.append(",\"node\":")
        out.append(JSONWriter.quoted(event.id.node))
        out.append(",")
        appendFields(of: event, to: &out)
        return out
    }

    /// The header line of version 1.1 (no trailing newline): what the event lines after it
    /// have in common, the run id and the node (an event line names its node only when it is
    /// another).
    public static func headerLine(runID: String, node: String) -> String {
        "{\"v\":\"" + versionText + "\",\"run\":" + JSONWriter.quoted(runID) + ",\"node\":" + JSONWriter.quoted(node) + "}"
    }

    /// One event as an event line of version 1.1 (no trailing newline), after a header line
    /// whose node is `headerNode`.
    public static func eventLine(for event: TraceEvent, headerNode: String) -> String {
        var out = "{"
        out.reserveCapacity(256)
        if event.id.node != headerNode {
            out.append("\"node\":")
            out.append(JSONWriter.quoted(event.id.node))
            out.append(",")
        }
        appendFields(of: event, to: &out)
        return out
    }

    /// The fields every event line has, from `"seq"` to the closing brace.
    private static func appendFields(of event: TraceEvent, to out: inout String) {
        out.append("\"seq\":")
        out.append(String(event.id.sequence))
        out.append(",\"lamport\":")
        out.append(String(event.lamport))
        out.append(",\"cause\":")
        if let cause = event.cause {
            out.append(JSONWriter.quoted(cause.description))
        } else {
            out.append("null")
        }
        out.append(",\"controller\":")
        out.append(JSONWriter.quoted(event.controller.name))
        out.append(",\"transition\":")
        out.append(event.transition.map(String.init) ?? "null")
        out.append(",\"step\":")
        out.append(String(event.step))
        out.append(",\"kind\":\"")
        out.append(event.message.kind)
        out.append("\",\"message\":\"")
        out.append(event.message.name)
        out.append("\",\"payload\":")
        out.append(payload(of: event.message))
        out.append(",\"time\":")
        out.append(String(event.time))
        out.append("}")
    }

    static let versionText = "\(majorVersion).\(minorVersion)"

    private static func size(_ size: Size) -> String {
        "[" + CanonicalNumber.format(size.width) + "," + CanonicalNumber.format(size.height) + "]"
    }

    private static func rect(_ rect: Rect) -> String {
        "[" + [rect.minX, rect.minY, rect.size.width, rect.size.height].map(CanonicalNumber.format).joined(separator: ",") + "]"
    }

    private static func traits(_ traits: TraitCollection) -> String {
        "{\"horizontalSizeClass\":\"\(traits.horizontalSizeClass.rawValue)\""
            + ",\"verticalSizeClass\":\"\(traits.verticalSizeClass.rawValue)\""
            + ",\"userInterfaceIdiom\":\"\(traits.userInterfaceIdiom.rawValue)\""
            + ",\"displayScale\":\(CanonicalNumber.format(traits.displayScale))"
            + ",\"layoutDirection\":\"\(traits.layoutDirection.rawValue)\""
            + ",\"userInterfaceStyle\":\"\(traits.userInterfaceStyle.rawValue)\""
            + ",\"preferredContentSizeCategory\":\"\(traits.preferredContentSizeCategory.rawValue)\"}"
    }

    private static func payload(of message: TraceMessage) -> String {
        switch message {
        case let .step(number, description):
            return "{\"number\":\(number),\"description\":" + JSONWriter.quoted(description) + "}"
        case let .viewWillTransition(to): return "{\"to\":" + size(to) + "}"
        case let .sizeForChild(child, parent, answer):
            return "{\"child\":" + JSONWriter.quoted(child.name) + ",\"parent\":" + size(parent) + ",\"answer\":" + size(answer) + "}"
        case let .frameOfPresentedView(frame):
            return "{\"frame\":" + rect(frame) + "}"
        case let .willTransition(to): return "{\"to\":" + traits(to) + "}"
        case let .traitCollectionDidChange(previous): return "{\"previous\":" + traits(previous) + "}"
        case let .preferredContentSizeDidChange(child), let .systemLayoutFittingSizeDidChange(child):
            return "{\"child\":" + JSONWriter.quoted(child.name) + "}"
        case let .suppressed(name, cut):
            return "{\"message\":" + JSONWriter.quoted(name) + ",\"cut\":[" + cut.map { JSONWriter.quoted($0.name) }.joined(separator: ",") + "]}"
        case let .layout(_, frame):
            return frame.map { "{\"frame\":" + rect($0) + "}" } ?? "{}"
        case let .alongsideTransition(transition), let .transitionCompletion(transition):
            return "{\"transition\":\(transition)}"
        case let .warning(text), let .error(text), let .fault(text), let .note(text):
            return "{\"text\":" + JSONWriter.quoted(text) + "}"
        case .appearance: return "{}"
        case let .presentationTransition(callback, value):
            let key = callback == .presentationTransitionWillBegin || callback == .dismissalTransitionWillBegin ? "animated" : "completed"
            return "{\"\(key)\":\(value)}"
        case let .present(presented, style, transitionStyle):
            return "{\"presented\":" + JSONWriter.quoted(presented.name) + ",\"style\":" + JSONWriter.quoted(style.rawValue)
                + ",\"transitionStyle\":" + JSONWriter.quoted(transitionStyle.rawValue) + "}"
        case let .dismiss(presented): return "{\"presented\":" + JSONWriter.quoted(presented.name) + "}"
        case let .adaptivePresentationStyle(style), let .willPresentWithAdaptiveStyle(style):
            return "{\"style\":" + JSONWriter.quoted(style.rawValue) + "}"
        case let .completion(action, target):
            return "{\"action\":" + JSONWriter.quoted(action) + ",\"target\":" + JSONWriter.quoted(target.name) + "}"
        case let .show(child, _), let .push(child), let .pop(child), let .replaceDetail(child):
            return "{\"child\":" + JSONWriter.quoted(child.name) + "}"
        case let .select(child, index): return "{\"child\":" + JSONWriter.quoted(child.name) + ",\"index\":\(index)}"
        }
    }

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
            throw ReadError("not JSON: \(error)")
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
        let message = try decodeMessage(name: name, payload: payload)
        let time = try unsigned(node, "time")
        return .event(TraceEvent(
            id: EventRef(node: nodeName, sequence: sequence), lamport: lamport, cause: cause,
            controller: controller, transition: transition, step: step, message: message, time: time), runID: runID)
    }

    /// Parses `node#sequence`.
    public static func eventRef(_ text: String) -> EventRef? {
        guard let hash = text.lastIndex(of: "#"), let sequence = UInt64(text[text.index(after: hash)...]) else { return nil }
        return EventRef(node: String(text[..<hash]), sequence: sequence)
    }

    /// A payload string that names a case of `T` (a presentation or transition style).
    private static func named<T: RawRepresentable>(_ node: JSONNode, _ key: String, _: T.Type) throws(ReadError) -> T where T.RawValue == String {
        let raw = try string(node, key, in: "payload.")
        guard let value = T(rawValue: raw) else { throw ReadError("field \"payload.\(key)\": unknown value \"\(raw)\"") }
        return value
    }

    private static func string(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> String {
        guard let member = node[key] else { throw ReadError("missing field \"\(context)\(key)\"") }
        guard case let .string(text) = member.value else {
            throw ReadError("field \"\(context)\(key)\": expected a string, got \(member.value.typeName)")
        }
        return text
    }

    private static func unsigned(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> UInt64 {
        guard let member = node[key] else { throw ReadError("missing field \"\(context)\(key)\"") }
        guard case let .number(number) = member.value, number >= 0, number == number.rounded(), number < 1.8e19 else {
            throw ReadError("field \"\(context)\(key)\": expected a non-negative integer")
        }
        return UInt64(number)
    }

    /// An unsigned field that must also fit an `Int`.
    private static func int(_ node: JSONNode, _ key: String, in context: String = "") throws(ReadError) -> Int {
        guard let value = Int(exactly: try unsigned(node, key, in: context)) else {
            throw ReadError("field \"\(context)\(key)\": too large")
        }
        return value
    }

    private static func size(_ node: JSONNode, _ key: String) throws(ReadError) -> Size {
        guard let member = node[key], case let .array(items) = member.value, items.count == 2,
              case let .number(width) = items[0].value, case let .number(height) = items[1].value else {
            throw ReadError("field \"payload.\(key)\": expected [width, height]")
        }
        return Size(width, height)
    }

    private static func rect(_ node: JSONNode, _ key: String) throws(ReadError) -> Rect {
        guard let member = node[key], case let .array(items) = member.value, items.count == 4,
              case let .number(x) = items[0].value, case let .number(y) = items[1].value,
              case let .number(width) = items[2].value, case let .number(height) = items[3].value else {
            throw ReadError("field \"payload.\(key)\": expected [x, y, width, height]")
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    private static func traits(_ node: JSONNode, _ key: String) throws(ReadError) -> TraitCollection {
        guard let member = node[key], case .object = member.value else {
            throw ReadError("field \"payload.\(key)\": expected a trait object")
        }
        let context = "payload.\(key)."
        func axis<T: RawRepresentable>(_ name: String, _: T.Type) throws(ReadError) -> T where T.RawValue == String {
            let raw = try string(member, name, in: context)
            guard let value = T(rawValue: raw) else { throw ReadError("field \"\(context)\(name)\": unknown value \"\(raw)\"") }
            return value
        }
        guard let scaleNode = member["displayScale"], case let .number(scale) = scaleNode.value else {
            throw ReadError("field \"\(context)displayScale\": expected a number")
        }
        return TraitCollection(
            horizontalSizeClass: try axis("horizontalSizeClass", SizeClass.self),
            verticalSizeClass: try axis("verticalSizeClass", SizeClass.self),
            userInterfaceIdiom: try axis("userInterfaceIdiom", UserInterfaceIdiom.self),
            displayScale: scale,
            layoutDirection: try axis("layoutDirection", LayoutDirection.self),
            userInterfaceStyle: try axis("userInterfaceStyle", UserInterfaceStyle.self),
            preferredContentSizeCategory: try axis("preferredContentSizeCategory", ContentSizeCategory.self))
    }

    private static func decodeMessage(name: String, payload: JSONNode) throws(ReadError) -> TraceMessage {
        switch name {
        case "step":
            return .step(number: try int(payload, "number", in: "payload."), description: try string(payload, "description", in: "payload."))
        case "viewWillTransition": return .viewWillTransition(to: try size(payload, "to"))
        case "sizeForChild":
            return .sizeForChild(
                child: ControllerID(try string(payload, "child", in: "payload.")),
                parent: try size(payload, "parent"), answer: try size(payload, "answer"))
        case "frameOfPresentedViewInContainerView": return .frameOfPresentedView(try rect(payload, "frame"))
        case "willTransition": return .willTransition(to: try traits(payload, "to"))
        case "traitCollectionDidChange": return .traitCollectionDidChange(previous: try traits(payload, "previous"))
        case "preferredContentSizeDidChange":
            return .preferredContentSizeDidChange(child: ControllerID(try string(payload, "child", in: "payload.")))
        case "systemLayoutFittingSizeDidChange":
            return .systemLayoutFittingSizeDidChange(child: ControllerID(try string(payload, "child", in: "payload.")))
        case "suppressed":
            guard let cutNode = payload["cut"], case let .array(items) = cutNode.value else {
                throw ReadError("field \"payload.cut\": expected an array of controller ids")
            }
            var cut: [ControllerID] = []
            for item in items {
                guard case let .string(id) = item.value else { throw ReadError("field \"payload.cut\": expected strings") }
                cut.append(ControllerID(id))
            }
            return .suppressed(message: try string(payload, "message", in: "payload."), cut: cut)
        case "alongsideTransition": return .alongsideTransition(transition: try int(payload, "transition", in: "payload."))
        case "transitionCompletion": return .transitionCompletion(transition: try int(payload, "transition", in: "payload."))
        case "warning": return .warning(try string(payload, "text", in: "payload."))
        case "error": return .error(try string(payload, "text", in: "payload."))
        case "fault": return .fault(try string(payload, "text", in: "payload."))
        case "note": return .note(try string(payload, "text", in: "payload."))
        case "present":
            return .present(
                ControllerID(try string(payload, "presented", in: "payload.")), style: try named(payload, "style", ModalPresentationStyle.self),
                transitionStyle: try named(payload, "transitionStyle", ModalTransitionStyle.self))
        case "dismiss": return .dismiss(ControllerID(try string(payload, "presented", in: "payload.")))
        case "adaptivePresentationStyle": return .adaptivePresentationStyle(try named(payload, "style", ModalPresentationStyle.self))
        case "willPresentWithAdaptiveStyle": return .willPresentWithAdaptiveStyle(try named(payload, "style", ModalPresentationStyle.self))
        case "presentCompletion", "dismissCompletion":
            let action = try string(payload, "action", in: "payload.")
            guard action + "Completion" == name else {
                throw ReadError("field \"payload.action\": \"\(action)\" does not match message \"\(name)\"")
            }
            return .completion(action: action, ControllerID(try string(payload, "target", in: "payload.")))
        case "show", "showDetail": return .show(ControllerID(try string(payload, "child", in: "payload.")), detail: name == "showDetail")
        case "push": return .push(ControllerID(try string(payload, "child", in: "payload.")))
        case "pop": return .pop(ControllerID(try string(payload, "child", in: "payload.")))
        case "replaceDetail": return .replaceDetail(ControllerID(try string(payload, "child", in: "payload.")))
        case "select":
            return .select(ControllerID(try string(payload, "child", in: "payload.")), index: try int(payload, "index", in: "payload."))
        default:
            if let callback = LayoutCallback(rawValue: name) {
                return .layout(callback, frame: payload["frame"] == nil ? nil : try rect(payload, "frame"))
            }
            if let callback = AppearanceCallback(rawValue: name) { return .appearance(callback) }
            if let callback = PresentationCallback(rawValue: name) {
                let key = callback == .presentationTransitionWillBegin || callback == .dismissalTransitionWillBegin ? "animated" : "completed"
                guard let member = payload[key], case let .bool(value) = member.value else {
                    throw ReadError("field \"payload.\(key)\": expected true or false")
                }
                return .presentationTransition(callback, value: value)
            }
            throw ReadError("field \"message\": unknown message \"\(name)\"")
        }
    }
}
