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
        /// false: on the current walk; true: walked over by an earlier one.
        var walked: [ControllerID: Bool] = [:]
        var onCycle = Set<ControllerID>()
        for start in order {
            var path: [ControllerID] = []
            var current: ControllerID? = start
            while let node = current, walked[node] == nil {
                walked[node] = false
                path.append(node)
                current = parentOf[node]
            }
            // Back at a controller of this very walk: from there on, the path is a cycle.
            if let node = current, walked[node] == false, let entry = path.firstIndex(of: node) {
                onCycle.formUnion(path[entry...])
            }
            for node in path { walked[node] = true }
        }
        guard let first = order.first(where: { onCycle.contains($0) }) else { return nil }
        // `path` climbs from the controller to its ancestors; it is returned parent to child.
        var path = [first]
        var current = first
        while let parent = parentOf[current], parent != first {
            path.append(parent)
            current = parent
        }
        return Array((path + [first]).reversed())
    }
}
