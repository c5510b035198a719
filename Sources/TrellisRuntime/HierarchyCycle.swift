import TrellisModel

/// Finds a cycle in a hierarchy's parent links, for the two places that reject one: a scenario
/// file (`ScenarioValidator`) and a hierarchy built in Swift (`HierarchyDescription.validate`).
///
/// Every controller has one parent at most, so following parents from a controller ends at a
/// root or runs into a cycle. Each controller is walked over once: walking up from every
/// controller in turn is quadratic in the depth (12 s for a chain of 20,000), and a walk from a
/// controller that leads into a cycle without being on it never comes back to where it started.
package enum HierarchyCycle {
    /// The cycle of the first controller in `order` that lies on one, written parent to child
    /// from that controller back to it (`[X, Y, X]`: X is Y's parent and Y is X's); nil when the
    /// links have no cycle.
    package static func first(in order: [ControllerID], parentOf: [ControllerID: ControllerID]) -> [ControllerID]? {
        first(in: HierarchyLinks(order: order, parentOf: parentOf))
    }

    /// The cycle of the first controller of the links' order that lies on one, as above.
    package static func first(in links: HierarchyLinks) -> [ControllerID]? {
        let parent = links.parent
        /// 0: not walked; 1: on the current walk; 2: walked over by an earlier one.
        var walked = [UInt8](repeating: 0, count: parent.count)
        var onCycle = [Bool](repeating: false, count: parent.count)
        var path: [Int] = []
        for start in 0..<links.orderCount {
            path.removeAll(keepingCapacity: true)
            var current = start
            while current >= 0, walked[current] == 0 {
                walked[current] = 1
                path.append(current)
                current = parent[current]
            }
            // Back at a controller of this very walk: from there on, the path is a cycle.
            if current >= 0, walked[current] == 1, let entry = path.firstIndex(of: current) {
                for node in path[entry...] { onCycle[node] = true }
            }
            for node in path { walked[node] = 2 }
        }
        guard let first = (0..<links.orderCount).first(where: { onCycle[$0] }) else { return nil }
        // `path` climbs from the controller to its ancestors; it is returned parent to child.
        var cycle = [links.ids[first]]
        var current = first
        while parent[current] >= 0, parent[current] != first {
            current = parent[current]
            cycle.append(links.ids[current])
        }
        return Array((cycle + [links.ids[first]]).reversed())
    }
}
