import TrellisModel

/// How a container answers a child's preferred-content-size request (SPEC R24): ignore it,
/// grant all of it, grant it within a bound, or grant a fraction of the requested change.
public enum GrantPolicy: Sendable, Hashable {
    /// UIKit's default for a plain view controller: nothing changes.
    case none
    /// The whole requested size, granted as asked.
    case all
    /// The requested size, clamped axis by axis to at most this size.
    case clamp(Size)
    /// `current + fraction × (requested − current)`, axis by axis.
    case fraction(Double)

    /// The size the child gets, given its current size and the size it asked for.
    public func grantedSize(current: Size, requested: Size) -> Size {
        switch self {
        case .none:
            return current
        case .all:
            return requested
        case let .clamp(bound):
            return Size(min(requested.width, bound.width), min(requested.height, bound.height))
        case let .fraction(fraction):
            return Size(
                current.width + fraction * (requested.width - current.width),
                current.height + fraction * (requested.height - current.height))
        }
    }
}
