import TrellisModel
import TrellisRuntime

/// The tree the in-process figures traverse: `count` controllers, each with up to `branching`
/// children in breadth-first order (`c0` the root), so a Trellis hierarchy and the bare actor
/// anchor have exactly the same shape.
package struct HierarchyShape: Sendable {
    package let count: Int
    package let branching: Int

    package init(count: Int, branching: Int = 8) {
        self.count = max(1, count)
        self.branching = max(1, branching)
    }

    package func children(of index: Int) -> Range<Int> {
        let first = index * branching + 1
        return min(first, count)..<min(first + branching, count)
    }

    package static func id(_ index: Int) -> ControllerID { ControllerID("c\(index)") }

    /// The hierarchy as Trellis describes it: plain view controllers, each with `behavior`
    /// (default: UIKit's, which the router runs without asking).
    package func hierarchy(windowSize: Size, behavior: any ViewControllerBehavior = DefaultBehavior()) -> HierarchyDescription {
        HierarchyDescription(
            windowSize: windowSize,
            windowTraits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2),
            root: Self.id(0),
            controllers: (0..<count).map { index in
                ControllerDescription(Self.id(index), children: children(of: index).map(Self.id), behavior: behavior)
            })
    }
}
