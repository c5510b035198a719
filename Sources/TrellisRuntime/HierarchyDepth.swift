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
        // Depth below the top of each controller's tree, found by walking up once per controller
        // and remembering every answer on the way.
        var depth: [ControllerID: Int] = [:]
        for start in order where depth[start] == nil {
            var path: [ControllerID] = []
            var current: ControllerID? = start
            while let node = current, depth[node] == nil {
                path.append(node)
                current = parentOf[node]
            }
            var level = current.flatMap { depth[$0] } ?? -1
            for node in path.reversed() {
                level += 1
                depth[node] = level
            }
        }
        // Deepest level first: each child's height is final before its parent reads it.
        var levels: [[ControllerID]] = []
        for (node, level) in depth {
            while levels.count <= level { levels.append([]) }
            levels[level].append(node)
        }
        var height: [ControllerID: Int] = [:]
        height.reserveCapacity(depth.count)
        for node in order { height[node] = 1 }
        for level in levels.reversed() {
            for node in level {
                guard let parent = parentOf[node], let below = height[node] else { continue }
                height[parent] = max(height[parent] ?? 1, below + 1)
            }
        }
        return height
    }
}
