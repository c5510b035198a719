/// One Swift behaviour a SETUP names (TWP/1 §7.2, since 1.3): the kind of code and the name a
/// runner registers it under (SPEC §4.1). A node that does not know every one refuses the SETUP
/// with ERROR 8 (`WireErrorCode.unknownBehavior`), naming them.
public struct WireBehavior: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The kind octet as sent: a receiver keeps an octet it does not know, and knows no
    /// behaviour of that kind (`knownKind` nil).
    public var kind: UInt8
    /// The name the runner registers it under.
    public var name: String

    /// A behaviour of kind octet `kind`, as read from the wire.
    public init(kind: UInt8, name: String) {
        self.kind = kind
        self.name = name
    }

    /// A behaviour of a known kind.
    public init(_ kind: WireBehaviorKind, _ name: String) {
        self.init(kind: kind.rawValue, name: name)
    }

    /// The kind, when this document defines the octet.
    public var knownKind: WireBehaviorKind? { WireBehaviorKind(rawValue: kind) }

    /// "Overlay (presentation-controller behaviour)": how refusals name it.
    public var description: String {
        "\(name) (\(knownKind?.words ?? "behaviour of kind \(kind)"))"
    }

    public static func < (lhs: WireBehavior, rhs: WireBehavior) -> Bool {
        (lhs.kind, lhs.name) < (rhs.kind, rhs.name)
    }
}

/// The kinds of behaviour a SETUP can name (§7.2): each kind has its own names.
public enum WireBehaviorKind: UInt8, CaseIterable, Hashable, Sendable {
    /// A view controller's (or container's) behaviour: `"behavior"` on a controller.
    case viewController = 0
    /// A `custom` presentation's presentation-controller behaviour.
    case presentationController = 1
    /// An adaptive presentation delegate.
    case adaptiveDelegate = 2

    /// Words for refusals.
    public var words: String {
        switch self {
        case .viewController: "view-controller behaviour"
        case .presentationController: "presentation-controller behaviour"
        case .adaptiveDelegate: "adaptive delegate"
        }
    }
}
