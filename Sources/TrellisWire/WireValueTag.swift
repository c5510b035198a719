/// The octet in front of every value that says which kind of value follows.
public enum WireValueTag: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// No value (an optional argument left out); no payload.
    case none = 0x00
    /// u8 0 or 1.
    case bool = 0x01
    /// i64.
    case int = 0x02
    /// IEEE 754 binary64.
    case double = 0x03
    /// u16 length, UTF-8 bytes.
    case string = 0x04
    /// double width, double height.
    case size = 0x05
    /// six u8 trait indices and a double display scale.
    case traits = 0x06
    /// string node, string controller, u32 incarnation.
    case address = 0x07
    /// string node, u64 sequence.
    case eventRef = 0x08
    /// i64 id, u8 animated, double duration, traits, size.
    case transition = 0x09
    /// u32 length, UTF-8 bytes.
    case longString = 0x0A
    /// u16 count, then that many tagged values.
    case list = 0x0B
    /// double x, double y, double width, double height (TWP/1.1: frames, SPEC §3.9).
    case rect = 0x0C

    /// The tag's name as the protocol document spells it.
    public var description: String {
        switch self {
        case .none: "none"
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .size: "size"
        case .traits: "traits"
        case .address: "address"
        case .eventRef: "eventref"
        case .transition: "transition"
        case .longString: "longstring"
        case .list: "list"
        case .rect: "rect"
        }
    }
}
