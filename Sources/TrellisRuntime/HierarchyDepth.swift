import TrellisModel

/// How deep a hierarchy may be, and how deep a described one is.
///
/// Controllers hold their children and presented controllers strongly, so releasing a chain of
/// controllers, and some walks over it, recurse once a level on the thread's stack: a chain of
/// 40,000 overflowed an 8 MiB stack in a debug build. Input is checked against `maximum` before
/// anything runs (`docs/decisions.md`, *Hierarchy depth*), which keeps a wide margin.
package enum HierarchyDepth {
    /// The most levels a run may chain, children and presentations together.
    package static let maximum = 10_000

    /// For each controller, the levels of its subtree: 1 for a leaf, 1 + its deepest child's
    /// otherwise. `parentOf` must have no cycle. Iterative, so any depth is measured safely.
    package static func heights(of order: [ControllerID], parentOf: [ControllerID: ControllerID]) -> [ControllerID: Int] {
        let links = HierarchyLinks(order: order, parentOf: parentOf)
        var byID: [ControllerID: Int] = [:]
        for (position, height) in heights(in: links).enumerated() where height > 0 {
            byID[links.ids[position]] = height
        }
        return byID
    }

    /// The heights as above by position in `links.ids`: 0 for a controller that is neither in
    /// the order nor above one of it. The links must have no cycle.
    package static func heights(in links: HierarchyLinks) -> [Int] {
        let parent = links.parent
        // Depth below the top of each controller's tree, found by walking up once per controller
        // and remembering every answer on the way (-1: not known yet).
        var depth = [Int](repeating: -1, count: parent.count)
        var path: [Int] = []
        var deepest = -1
        for start in 0..<links.orderCount where depth[start] < 0 {
            path.removeAll(keepingCapacity: true)
            var current = start
            while current >= 0, depth[current] < 0 {
                path.append(current)
                current = parent[current]
            }
            var level = current >= 0 ? depth[current] : -1
            for node in path.reversed() {
                level += 1
                depth[node] = level
            }
            deepest = max(deepest, level)
        }
        // Deepest level first: each child's height is final before its parent reads it. The
        // controllers are sorted by depth by counting them.
        var starts = [Int](repeating: 0, count: deepest + 2)
        for level in depth where level >= 0 { starts[level + 1] += 1 }
        for level in stride(from: 1, to: starts.count, by: 1) { starts[level] += starts[level - 1] }
        var byDepth = [Int](repeating: 0, count: starts[starts.count - 1])
        var next = starts
        for (node, level) in depth.enumerated() where level >= 0 {
            byDepth[next[level]] = node
            next[level] += 1
        }
        var height = [Int](repeating: 0, count: parent.count)
        for node in 0..<links.orderCount { height[node] = 1 }
        for node in byDepth.reversed() {
            let above = parent[node], below = height[node]
            guard above >= 0, below > 0 else { continue }
            height[above] = max(height[above] == 0 ? 1 : height[above], below + 1)
        }
        return height
    }
}
