import TrellisModel

/// The built-in containers of SPEC §3.2: which children a transition is forwarded to, and the
/// size each gets when nobody overrides `size(forChildContentContainer:…)`.
public enum ContainerKind: String, Sendable, CaseIterable {
    /// A plain view controller: forwards to all children, each gets the parent's size.
    case view
    /// A navigation controller: the children are the stack; only the top one is forwarded to.
    case navigation
    /// A split view controller `[primary, secondary]`: both in regular width (primary 320 points
    /// wide, secondary the rest); collapsed in compact width (primary full size, secondary silent).
    case split
    /// A tab bar controller: only the selected child is forwarded to.
    case tab

    /// The width of a split view controller's primary column in regular width.
    public static let splitPrimaryWidth = 320.0

    /// Whether a split view controller is collapsed for this horizontal size class.
    static func isCollapsed(_ horizontal: SizeClass) -> Bool { horizontal == .compact }

    /// The indices of the children a default implementation forwards to, in order — always a
    /// contiguous range, so the hot path allocates nothing.
    func forwardTargets(childCount: Int, selected: Int, horizontal: SizeClass) -> Range<Int> {
        guard childCount > 0 else { return 0..<0 }
        switch self {
        case .view:
            return 0..<childCount
        case .navigation:
            return (childCount - 1)..<childCount
        case .tab:
            return selected < childCount && selected >= 0 ? selected..<(selected + 1) : 0..<0
        case .split:
            return Self.isCollapsed(horizontal) ? 0..<1 : 0..<min(childCount, 2)
        }
    }

    /// UIKit's default `size(forChildContentContainer:withParentContainerSize:)` for this container.
    func defaultSize(forChildAt index: Int, parentSize: Size, horizontal: SizeClass) -> Size {
        guard self == .split, !Self.isCollapsed(horizontal) else { return parentSize }
        let primary = min(Self.splitPrimaryWidth, parentSize.width)
        return index == 0
            ? Size(primary, parentSize.height)
            : Size(max(0, parentSize.width - primary), parentSize.height)
    }
}
