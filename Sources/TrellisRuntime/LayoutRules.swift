import TrellisModel

/// Where containers put their children (SPEC §3.9, R60–R61), as pure functions of the sizes
/// the layout pass applies. The presented controller's frame is `PresentationRules.frameOfPresentedView`.
enum LayoutRules {
    /// R61: the origin of each child, in the container's coordinates, given the size each has
    /// after this layout pass. Only the `visible` children are placed; the others keep (0,0).
    ///
    /// `navigation` (top child), `tab` (selected child) and a collapsed `split`: (0,0). A regular
    /// `split`: the primary at (0,0), the secondary at (primary width, 0). `view`: by `layout`.
    static func origins(
        kind: ContainerKind, layout: ChildLayout, children: [ControllerID], sizes: [Size], visible: Range<Int>
    ) -> [Point] {
        var origins = [Point](repeating: .zero, count: sizes.count)
        switch kind {
        case .navigation, .tab:
            break
        case .split:
            // Both columns visible means regular width: the secondary starts where the primary ends.
            if visible.count == 2, visible.lowerBound == 0 {
                origins[1] = Point(x: sizes[0].width, y: 0)
            }
        case .view:
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
        return origins
    }

    /// Whether `origins` can give any child an origin other than (0,0): the layout pass skips
    /// placing children when it cannot (most controllers of a large hierarchy).
    static func placesChildren(kind: ContainerKind, layout: ChildLayout) -> Bool {
        switch kind {
        case .navigation, .tab: return false
        case .split: return true
        case .view: return layout != .overlay
        }
    }
}
