import TrellisModel
import TrellisTrace

/// Writes a message's payload in the compact form (`Protocols/compact-trace-format.md` §4), its
/// fields in `TraceMessageSchema`'s order, into `bytes`; the names and sizes it refers to are
/// defined in `encoder`'s file first (their records go before the event).
struct CompactPayloadWriter: TraceFieldCoder {
    typealias Failure = Never
    private typealias Encoder = CompactCaptureEncoder
    let encoder: CompactCaptureEncoder
    var bytes: [UInt8]

    mutating func integer(_ key: String, _ value: Int) -> Int {
        Encoder.signed(value, into: &bytes)
        return value
    }

    mutating func text(_ key: String, _ value: String) -> String {
        Encoder.text(value, into: &bytes)
        return value
    }

    mutating func name(_ key: String, _ value: String) -> String {
        Encoder.varint(encoder.name(value), into: &bytes)
        return value
    }

    mutating func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) -> Value {
        _ = name(key, value.rawValue)
        return value
    }

    mutating func controller(_ key: String, _ value: ControllerID) -> ControllerID {
        _ = name(key, value.name)
        return value
    }

    mutating func controllers(_ key: String, _ value: [ControllerID]) -> [ControllerID] {
        Encoder.varint(UInt32(truncatingIfNeeded: value.count), into: &bytes)
        for id in value { _ = name(key, id.name) }
        return value
    }

    mutating func size(_ key: String, _ value: Size) -> Size {
        Encoder.varint(encoder.size(value), into: &bytes)
        return value
    }

    mutating func rect(_ key: String, _ value: Rect) -> Rect {
        _ = size(key, Size(value.minX, value.minY))
        _ = size(key, value.size)
        return value
    }

    /// A marker, then the size alone for a frame at (0,0) (bit for bit: -0 is an origin), or the
    /// origin and the size.
    mutating func frame(_ key: String, _ value: Rect?) -> Rect? {
        guard let value else {
            bytes.append(CompactCaptureFormat.FrameMarker.none.rawValue)
            return nil
        }
        if value.minX.bitPattern == 0, value.minY.bitPattern == 0 {
            bytes.append(CompactCaptureFormat.FrameMarker.atZero.rawValue)
            _ = size(key, value.size)
        } else {
            bytes.append(CompactCaptureFormat.FrameMarker.withOrigin.rawValue)
            _ = rect(key, value)
        }
        return value
    }

    mutating func traits(_ key: String, _ value: TraitCollection) -> TraitCollection {
        _ = named(key, value.horizontalSizeClass)
        _ = named(key, value.verticalSizeClass)
        _ = named(key, value.userInterfaceIdiom)
        Encoder.double(value.displayScale, into: &bytes)
        _ = named(key, value.layoutDirection)
        _ = named(key, value.userInterfaceStyle)
        _ = named(key, value.preferredContentSizeCategory)
        return value
    }

    mutating func flag(_ key: String, _ value: Bool) -> Bool {
        bytes.append(value ? 1 : 0)
        return value
    }

    mutating func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value {
        bytes.append(UInt8(truncatingIfNeeded: Array(Value.allCases).firstIndex(of: value) ?? 0))
        return value
    }

    mutating func variant(_ field: String, _ value: Bool) -> Bool {
        flag(field, value)
    }
}
