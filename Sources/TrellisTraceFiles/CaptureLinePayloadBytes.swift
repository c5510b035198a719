import TrellisModel
import TrellisTrace

/// Writes a message's payload object of a capture line straight into a capture buffer, its
/// fields in `TraceMessageSchema`'s order (`Protocols/trace-format.md` §3), for the encoder's
/// events outside the compact form, which then cost no `String` of their own. Tests compare it
/// byte for byte with an independent `String` writer for every message.
struct CaptureLinePayloadBytesWriter: TraceFieldCoder {
    typealias Failure = Never
    let out: CaptureByteBuffer
    /// Whether a key was written: the next one is preceded by a comma, not the opening brace.
    private var opened = false

    /// Appends the payload object of `message` to `out`.
    static func append(_ message: TraceMessage, to out: CaptureByteBuffer) {
        var writer = CaptureLinePayloadBytesWriter(out: out)
        _ = TraceMessageSchema.fields(of: message, &writer)
        out.reserve(2)
        if !writer.opened { out.put(0x7B) }
        out.put(0x7D)
    }

    private init(out: CaptureByteBuffer) {
        self.out = out
    }

    /// `{"key":` or `,"key":` (the schema's keys are plain ASCII words).
    private mutating func key(_ key: String) {
        var key = key
        key.withUTF8 { bytes in
            out.reserve(bytes.count &+ 4)
            out.put(opened ? 0x2C : 0x7B)
            out.put(0x22)
            out.put(UnsafeRawBufferPointer(bytes))
            out.put("\":")
        }
        opened = true
    }

    mutating func integer(_ key: String, _ value: Int) -> Int {
        self.key(key)
        out.putInteger(Int64(value))
        return value
    }

    mutating func text(_ key: String, _ value: String) -> String {
        self.key(key)
        out.putQuoted(value)
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
        out.reserve(1)
        out.put(0x5B)
        for (position, id) in value.enumerated() {
            if position > 0 {
                out.reserve(1)
                out.put(0x2C)
            }
            out.putQuoted(id.name)
        }
        out.reserve(1)
        out.put(0x5D)
        return value
    }

    mutating func size(_ key: String, _ value: Size) -> Size {
        self.key(key)
        number(value.width, after: 0x5B)
        number(value.height, after: 0x2C)
        out.reserve(1)
        out.put(0x5D)
        return value
    }

    mutating func rect(_ key: String, _ value: Rect) -> Rect {
        self.key(key)
        number(value.minX, after: 0x5B)
        number(value.minY, after: 0x2C)
        number(value.size.width, after: 0x2C)
        number(value.size.height, after: 0x2C)
        out.reserve(1)
        out.put(0x5D)
        return value
    }

    mutating func frame(_ key: String, _ value: Rect?) -> Rect? {
        if let value { _ = rect(key, value) }
        return value
    }

    mutating func traits(_ key: String, _ value: TraitCollection) -> TraitCollection {
        self.key(key)
        // The raw values are plain words, written without escaping, as the String writer does.
        word("{\"horizontalSizeClass\":\"", value.horizontalSizeClass.rawValue)
        word("\",\"verticalSizeClass\":\"", value.verticalSizeClass.rawValue)
        word("\",\"userInterfaceIdiom\":\"", value.userInterfaceIdiom.rawValue)
        out.reserve(17)
        out.put("\",\"displayScale\":")
        out.putCanonical(value.displayScale)
        word(",\"layoutDirection\":\"", value.layoutDirection.rawValue)
        word("\",\"userInterfaceStyle\":\"", value.userInterfaceStyle.rawValue)
        word("\",\"preferredContentSizeCategory\":\"", value.preferredContentSizeCategory.rawValue)
        out.reserve(2)
        out.put("\"}")
        return value
    }

    mutating func flag(_ key: String, _ value: Bool) -> Bool {
        self.key(key)
        out.reserve(5)
        out.put(value ? "true" : "false")
        return value
    }

    /// The message name carries it: nothing is written.
    func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value { value }

    func variant(_ field: String, _ value: Bool) -> Bool { value }

    /// `separator` (an opening bracket or a comma), then `value`'s canonical text.
    private func number(_ value: Double, after separator: UInt8) {
        out.reserve(1)
        out.put(separator)
        out.putCanonical(value)
    }

    /// `prefix` then `word` as they are.
    private func word(_ prefix: StaticString, _ word: String) {
        var word = word
        word.withUTF8 { bytes in
            out.reserve(prefix.utf8CodeUnitCount &+ bytes.count)
            out.put(prefix)
            out.put(UnsafeRawBufferPointer(bytes))
        }
    }
}
