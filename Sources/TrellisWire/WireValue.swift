import TrellisModel

/// One tagged value: an argument of a CALL or a result of a RETURN.
public indirect enum WireValue: Hashable, Sendable {
    /// No value: an optional argument that is absent.
    case none
    /// A boolean.
    case bool(Bool)
    /// A signed 64-bit integer.
    case int(Int64)
    /// An IEEE 754 binary64 number.
    case double(Double)
    /// A string of at most 65 535 UTF-8 bytes.
    case string(String)
    /// A width and a height.
    case size(Size)
    /// A trait collection.
    case traits(TraitCollection)
    /// A controller's address.
    case address(WireAddress)
    /// A trace event's identity.
    case eventRef(WireEventRef)
    /// A transition.
    case transition(WireTransition)
    /// A string of up to 4 294 967 295 UTF-8 bytes.
    case longString(String)
    /// A list of values, at most 65 535 of them, nested at most 16 lists deep.
    case list([WireValue])
    /// A frame: origin and size.
    case rect(Rect)

    /// The tag this value is written with.
    public var tag: WireValueTag {
        switch self {
        case .none: .none
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        case .size: .size
        case .traits: .traits
        case .address: .address
        case .eventRef: .eventRef
        case .transition: .transition
        case .longString: .longString
        case .list: .list
        case .rect: .rect
        }
    }
}
