import TrellisJSON
import TrellisModel
import TrellisTrace
@testable import TrellisTraceFiles

/// The test oracle of the JSON Lines writer (issue 27 item 8): an independent `String` writer of
/// the capture line format, the product's own writer until the byte writer replaced it, kept
/// here so the byte writer is compared with something it did not write.
///
/// Writes a message's payload object of a capture line (`Protocols/trace-format.md` §3), its
/// fields in `TraceMessageSchema`'s order, onto the end of `out`.
struct ReferenceCaptureLinePayload: TraceFieldCoder {
    typealias Failure = Never
    var out: String
    /// What goes before the next key: the object's opening brace, then commas.
    private var separator = "{"

    init(out: String) {
        self.out = out
    }

    /// Appends the payload of `message` to `out`.
    static func append(_ message: TraceMessage, to out: inout String) {
        var writer = ReferenceCaptureLinePayload(out: "")
        swap(&writer.out, &out)
        _ = TraceMessageSchema.fields(of: message, &writer)
        writer.out.append(writer.separator == "{" ? "{}" : "}")
        swap(&writer.out, &out)
    }

    private mutating func key(_ key: String) {
        out.append(separator)
        separator = ","
        out.append("\"")
        out.append(key)
        out.append("\":")
    }

    mutating func integer(_ key: String, _ value: Int) -> Int {
        self.key(key)
        out.append(String(value))
        return value
    }

    mutating func text(_ key: String, _ value: String) -> String {
        self.key(key)
        out.append(JSONWriter.quoted(value))
        return value
    }

    mutating func name(_ key: String, _ value: String) -> String {
        text(key, value)
    }

    mutating func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) -> Value {
        _ = text(key, value.rawValue)
        return value
    }

    mutating func controller(_ key: String, _ value: ControllerID) -> ControllerID {
        _ = text(key, value.name)
        return value
    }

    mutating func controllers(_ key: String, _ value: [ControllerID]) -> [ControllerID] {
        self.key(key)
        out.append("[" + value.map { JSONWriter.quoted($0.name) }.joined(separator: ",") + "]")
        return value
    }

    mutating func size(_ key: String, _ value: Size) -> Size {
        self.key(key)
        out.append("[" + CanonicalNumber.format(value.width) + "," + CanonicalNumber.format(value.height) + "]")
        return value
    }

    mutating func rect(_ key: String, _ value: Rect) -> Rect {
        self.key(key)
        out.append("[" + [value.minX, value.minY, value.size.width, value.size.height].map(CanonicalNumber.format).joined(separator: ",") + "]")
        return value
    }

    mutating func frame(_ key: String, _ value: Rect?) -> Rect? {
        if let value { _ = rect(key, value) }
        return value
    }

    mutating func traits(_ key: String, _ value: TraitCollection) -> TraitCollection {
        self.key(key)
        out.append("{\"horizontalSizeClass\":\"\(value.horizontalSizeClass.rawValue)\""
            + ",\"verticalSizeClass\":\"\(value.verticalSizeClass.rawValue)\""
            + ",\"userInterfaceIdiom\":\"\(value.userInterfaceIdiom.rawValue)\""
            + ",\"displayScale\":\(CanonicalNumber.format(value.displayScale))"
            + ",\"layoutDirection\":\"\(value.layoutDirection.rawValue)\""
            + ",\"userInterfaceStyle\":\"\(value.userInterfaceStyle.rawValue)\""
            + ",\"preferredContentSizeCategory\":\"\(value.preferredContentSizeCategory.rawValue)\"}")
        return value
    }

    mutating func flag(_ key: String, _ value: Bool) -> Bool {
        self.key(key)
        out.append(value ? "true" : "false")
        return value
    }

    /// The message name carries it: nothing is written.
    func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value { value }

    func variant(_ field: String, _ value: Bool) -> Bool { value }
}


/// Version 1.1's event line as the `String` oracle writes it (no trailing newline).
enum ReferenceCaptureLine {
    static func eventLine(for event: TraceEvent, headerNode: String) -> String {
        var out = "{"
        if event.id.node != headerNode {
            out.append("\"node\":")
            out.append(JSONWriter.quoted(event.id.node))
            out.append(",")
        }
        appendFields(of: event, to: &out)
        return out
    }

    static func appendFields(of event: TraceEvent, to out: inout String) {
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
        out.append("\",\"message\":")
        // Quoted like every other string: a completion's name is made of its action.
        out.append(JSONWriter.quoted(event.message.name))
        out.append(",\"payload\":")
        ReferenceCaptureLinePayload.append(event.message, to: &out)
        out.append(",\"time\":")
        out.append(String(event.time))
        out.append("}")
    }
}
