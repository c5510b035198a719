import TrellisJSON
import TrellisModel
import TrellisTrace

/// Reads a message's fields from the payload object of a capture line, starting from the
/// prototype its name stands for.
struct CaptureLinePayloadReader: TraceFieldCoder {
    typealias Failure = TraceCaptureFormat.ReadError
    typealias ReadError = TraceCaptureFormat.ReadError
    let payload: JSONNode

    /// The message a line named `name` with `payload` holds.
    static func message(name: String, payload: JSONNode) throws(ReadError) -> TraceMessage {
        guard let prototype = TraceMessageSchema.prototypesByName[name] else {
            throw ReadError("field \"message\": unknown message \"\(name)\"")
        }
        var reader = CaptureLinePayloadReader(payload: payload)
        let message = try TraceMessageSchema.fields(of: prototype, &reader).message
        // A field that the name is made of (a completion's action) must agree with it.
        guard message.name == name else {
            throw ReadError("field \"message\": \"\(name)\" does not match its payload, which is that of \"\(message.name)\"")
        }
        return message
    }

    func integer(_ key: String, _ value: Int) throws(ReadError) -> Int {
        try TraceCaptureFormat.int(payload, key, in: "payload.")
    }

    func text(_ key: String, _ value: String) throws(ReadError) -> String {
        try TraceCaptureFormat.string(payload, key, in: "payload.")
    }

    func name(_ key: String, _ value: String) throws(ReadError) -> String {
        try text(key, value)
    }

    func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) throws(ReadError) -> Value {
        let raw = try text(key, value.rawValue)
        guard let value = Value(rawValue: raw) else { throw ReadError("field \"payload.\(key)\": unknown value \"\(raw)\"") }
        return value
    }

    func controller(_ key: String, _ value: ControllerID) throws(ReadError) -> ControllerID {
        ControllerID(try text(key, value.name))
    }

    func controllers(_ key: String, _ value: [ControllerID]) throws(ReadError) -> [ControllerID] {
        guard let member = payload[key], case let .array(items) = member.value else {
            throw ReadError("field \"payload.\(key)\": expected an array of controller ids")
        }
        var ids: [ControllerID] = []
        for item in items {
            guard case let .string(id) = item.value else { throw ReadError("field \"payload.\(key)\": expected strings") }
            ids.append(ControllerID(id))
        }
        return ids
    }

    func size(_ key: String, _ value: Size) throws(ReadError) -> Size {
        guard let member = payload[key], case let .array(items) = member.value, items.count == 2,
              case let .number(width) = items[0].value, case let .number(height) = items[1].value else {
            throw ReadError("field \"payload.\(key)\": expected [width, height]")
        }
        return Size(width, height)
    }

    func rect(_ key: String, _ value: Rect) throws(ReadError) -> Rect {
        guard let member = payload[key], case let .array(items) = member.value, items.count == 4,
              case let .number(x) = items[0].value, case let .number(y) = items[1].value,
              case let .number(width) = items[2].value, case let .number(height) = items[3].value else {
            throw ReadError("field \"payload.\(key)\": expected [x, y, width, height]")
        }
        return Rect(x: x, y: y, width: width, height: height)
    }

    func frame(_ key: String, _ value: Rect?) throws(ReadError) -> Rect? {
        payload[key] == nil ? nil : try rect(key, value ?? .zero)
    }

    func traits(_ key: String, _ value: TraitCollection) throws(ReadError) -> TraitCollection {
        guard let member = payload[key], case .object = member.value else {
            throw ReadError("field \"payload.\(key)\": expected a trait object")
        }
        let context = "payload.\(key)."
        func axis<T: RawRepresentable<String>>(_ name: String, _: T.Type) throws(ReadError) -> T {
            let raw = try TraceCaptureFormat.string(member, name, in: context)
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

    func flag(_ key: String, _ value: Bool) throws(ReadError) -> Bool {
        guard let member = payload[key], case let .bool(value) = member.value else {
            throw ReadError("field \"payload.\(key)\": expected true or false")
        }
        return value
    }

    /// The name told the prototype's case: it is the one read.
    func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value { value }

    func variant(_ field: String, _ value: Bool) -> Bool { value }
}
