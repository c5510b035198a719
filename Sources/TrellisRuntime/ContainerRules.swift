import TrellisModel

/// The rules of the built-in containers (SPEC §3.2, §3.8, §3.9) that depend only on values:
/// which children a default implementation forwards to, the size each gets, when a split view
/// is collapsed, where each child is placed, who handles `show` and `showDetail` and what
/// `showDetail` then does. `Controller`, `Window`, the hierarchy structure and the scenario
/// validator ask these; none of them decides a container's rule by itself.
///
/// Every rule switches over every `ContainerKind`, with no `default:` arm: a new kind does not
/// compile until each rule here has decided for it. The split view's geometry is its three
/// constants below (the primary column, the 1-point divider, the secondary's slot): every
/// size and origin of a split view derives from them, and the collapsed `showDetail` is
/// `showDetailOutcome`.
public enum ContainerRules {
    // MARK: Split view columns (§3.2)

    /// The width of a split view controller's primary column in regular width.
    public static let splitPrimaryWidth = 320.0
    /// §3.2, R61: the divider between a regular split view's primary and secondary columns. UIKit
    /// logs show a 1-point divider: the secondary is W − 321 wide (703 × 768 in a 1024 × 768
    /// window, 447 × 1024 in 768 × 1024), at x = 321.
    public static let splitDividerWidth = 1.0
    /// How many columns a split view has: `[primary, secondary]`.
    public static let splitColumnCount = 2
    /// The slot of a split view's secondary column, the one `showDetail` replaces.
    public static let splitSecondaryIndex = 1

    /// §3.2: whether a container of `kind` is collapsed in this horizontal size class: a split
    /// view in compact width shows its primary column only, at full size.
    public static func isCollapsed(_ kind: ContainerKind, horizontal: SizeClass) -> Bool {
        switch kind {
        case .split: return horizontal == .compact
        case .view, .navigation, .tab: return false
        }
    }

    /// Whether a container has columns: whether its targets, sizes and origins depend on its
    /// horizontal size class (a split view's do). Others decide without reading their traits.
    public static func hasColumns(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .split: return true
        case .view, .navigation, .tab: return false
        }
    }

    /// Whether a change of horizontal size class from `old` to `new` may collapse or expand a
    /// container's columns, so that a trait change alone resizes them (any change, for a split
    /// view: the columns it did not already resize are asked again).
    public static func columnsMayChange(_ kind: ContainerKind, from old: SizeClass, to new: SizeClass) -> Bool {
        hasColumns(kind) && old != new
    }

    // MARK: Forwarding and default sizes (R2, R3, §3.2)

    /// R2, §3.2: the slots of the children a default implementation forwards to, in order —
    /// all (`view`), the top of the stack (`navigation`), the selected one (`tab`), the visible
    /// columns (`split`: both in regular width, the primary when collapsed). Always a contiguous
    /// range, so the hot path allocates nothing.
    public static func forwardTargets(_ kind: ContainerKind, childCount: Int, selected: Int, horizontal: SizeClass) -> Range<Int> {
        guard childCount > 0 else { return 0..<0 }
        switch kind {
        case .view:
            return 0..<childCount
        case .navigation:
            return (childCount - 1)..<childCount
        case .tab:
            return selected < childCount && selected >= 0 ? selected..<(selected + 1) : 0..<0
        case .split:
            return isCollapsed(kind, horizontal: horizontal) ? 0..<1 : 0..<min(childCount, splitColumnCount)
        }
    }

    /// R3, §3.2: UIKit's default `size(forChildContentContainer:withParentContainerSize:)`: the
    /// parent's size, except in a regular split view: the primary `splitPrimaryWidth` wide (at
    /// most the parent's width), the secondary the rest after the divider.
    public static func defaultSize(_ kind: ContainerKind, forChildAt index: Int, parentSize: Size, horizontal: SizeClass) -> Size {
        switch kind {
        case .view, .navigation, .tab:
            return parentSize
        case .split:
            guard !isCollapsed(kind, horizontal: horizontal) else { return parentSize }
            let primary = min(splitPrimaryWidth, parentSize.width)
            return index == 0
                ? Size(primary, parentSize.height)
                : Size(max(0, parentSize.width - primary - splitDividerWidth), parentSize.height)
        }
    }

    // MARK: Origins (R61)

    /// R61: the origin of each child, in the container's coordinates, given the size each has
    /// after this layout pass. Only the `visible` children are placed; the others keep (0,0).
    ///
    /// `navigation` (top child), `tab` (selected child) and a collapsed `split`: (0,0). A regular
    /// `split`: the primary at (0,0), the secondary after the primary's width and the divider.
    /// `view`: by `layout`.
    public static func origins(
        _ kind: ContainerKind, layout: ChildLayout, children: [ControllerID], sizes: [Size], visible: Range<Int>
    ) -> [Point] {
        var origins = [Point](repeating: .zero, count: sizes.count)
        switch kind {
        case .navigation, .tab:
            break
        case .split:
            // Both columns visible means regular width: the secondary starts where the primary ends.
            if visible.count == splitColumnCount, visible.lowerBound == 0 {
                origins[splitSecondaryIndex] = Point(x: sizes[0].width + splitDividerWidth, y: 0)
            }
        case .view:
            viewOrigins(layout, children: children, sizes: sizes, visible: visible, into: &origins)
        }
        return origins
    }

    /// §3.2, R61: the divider a container draws between its columns, in its own coordinates,
    /// given the frame of its first column: a regular split view's, `splitDividerWidth` wide and
    /// the container's height, where its primary column ends (the secondary starts after it).
    /// Nil when both columns are not shown (a collapsed split view) and for other kinds.
    public static func divider(_ kind: ContainerKind, visible: Range<Int>, primary: Rect, containerSize: Size) -> Rect? {
        switch kind {
        case .split:
            guard visible.count == splitColumnCount, visible.lowerBound == 0, splitDividerWidth > 0 else { return nil }
            return Rect(x: primary.maxX, y: primary.minY, width: splitDividerWidth, height: containerSize.height)
        case .view, .navigation, .tab:
            return nil
        }
    }

    /// R61: a plain `view` container's children, placed by the scenario's `layout` rule.
    private static func viewOrigins(
        _ layout: ChildLayout, children: [ControllerID], sizes: [Size], visible: Range<Int>, into origins: inout [Point]
    ) {
        switch layout {
        case .overlay:
            break
        case .row:
            var x = 0.0
            for index in visible {
                origins[index] = Point(x: x, y: 0)
                x += sizes[index].width
            }
        case .column:
            var y = 0.0
            for index in visible {
                origins[index] = Point(x: 0, y: y)
                y += sizes[index].height
            }
        case let .origins(points):
            for index in visible {
                origins[index] = points[children[index]] ?? .zero
            }
        }
    }

    /// R61, R2a: whether a container's behaviour may give a child `frame` in its layout
    /// (`ViewControllerContext.setFrame`): a finite origin and a finite size, neither side
    /// negative — what a view's frame can be, so that the child's size is one a layout applies.
    public static func isValidChildFrame(_ frame: Rect) -> Bool {
        BehaviorGeometry.problem(with: frame) == nil
    }

    /// R61: whether `origins` can give any child an origin other than (0,0): the layout pass skips
    /// placing children when it cannot (most controllers of a large hierarchy).
    public static func placesChildren(_ kind: ContainerKind, layout: ChildLayout) -> Bool {
        switch kind {
        case .navigation, .tab: return false
        case .split: return true
        case .view: return layout != .overlay
        }
    }

    /// R61: whether a container of `kind` takes a `layout` rule for its children: a plain view
    /// does; the others place their children themselves.
    public static func takesLayoutRule(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .view: return true
        case .navigation, .tab, .split: return false
        }
    }

    // MARK: Structure (§3.2)

    /// §3.2: whether a container of `kind` has a selected child (a tab bar controller), the only
    /// one it forwards to.
    public static func hasSelection(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .tab: return true
        case .view, .navigation, .split: return false
        }
    }

    /// §3.2: a navigation controller defines a presentation context unless told otherwise.
    public static func definesPresentationContextByDefault(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .navigation: return true
        case .view, .tab, .split: return false
        }
    }

    /// §3.2: why a container of `kind` cannot have `count` children (a split view has two
    /// columns), as the scenario reader words it; nil when it can.
    public static func childCountRefusal(_ kind: ContainerKind, count: Int) -> String? {
        switch kind {
        case .split:
            return count > splitColumnCount
                ? "a split controller has at most two children [primary, secondary], found \(count)" : nil
        case .view, .navigation, .tab:
            return nil
        }
    }

    // MARK: show and showDetail (R55–R57)

    /// R55: whether a container of `kind` handles `show` (a navigation controller pushes).
    public static func handlesShow(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .navigation: return true
        case .view, .tab, .split: return false
        }
    }

    /// R56: whether a container of `kind` handles `showDetail` (a split view controller).
    public static func handlesShowDetail(_ kind: ContainerKind) -> Bool {
        switch kind {
        case .split: return true
        case .view, .navigation, .tab: return false
        }
    }

    /// What `showDetail` does (R56, R57, §3.2).
    public enum ShowDetailOutcome: Sendable, Hashable {
        /// The split view puts the shown controller in its secondary column (`splitSecondaryIndex`).
        case replaceSecondary(of: ControllerID)
        /// A collapsed split view forwards it to the controller being replaced, its primary
        /// column (the secondary is collapsed onto it), which is a navigation controller: it pushes.
        case push(onto: ControllerID)
        /// This controller presents the shown one modally: a collapsed split view whose primary
        /// column does not push, or the window's root when nobody handles it.
        case present(from: ControllerID)
    }

    /// R56/R57, §3.2: what `showDetail` does, given the controller that handles it (found by
    /// `HierarchyStructure.showDetailHandler`; nil: nobody) and that controller's horizontal
    /// size class. Expanded, it replaces the secondary column. Collapsed, it is forwarded to the
    /// controller being replaced — the primary column, onto which the secondary is collapsed —
    /// and a navigation controller there pushes; else the split view presents it modally
    /// (Apple's `UISplitViewController.showDetailViewController(_:sender:)`). Nobody handling
    /// it, the window's root presents it modally.
    public static func showDetailOutcome(handler: ControllerID?, horizontal: SizeClass, in structure: HierarchyStructure) -> ShowDetailOutcome {
        guard let handler, let node = structure[handler] else { return .present(from: structure.root) }
        guard isCollapsed(node.kind, horizontal: horizontal) else { return .replaceSecondary(of: handler) }
        if let primary = node.children.first, let column = structure[primary], handlesShow(column.kind) {
            return .push(onto: primary)
        }
        return .present(from: handler)
    }
}
