import TrellisModel

/// A hierarchy's parent links by position rather than by id, for the checks that walk them
/// (`HierarchyCycle`, `HierarchyDepth`): they index arrays instead of hashing ids into
/// dictionaries, which took most of `trellis validate`'s time and memory for a scenario of a
/// million controllers (issue 27).
package struct HierarchyLinks: Sendable {
    /// The controllers: the order's (each once, where it first appears), then any other that
    /// the links named.
    package private(set) var ids: [ControllerID]
    /// How many of `ids` come from the order.
    package let orderCount: Int
    /// `parent[i]`: the position in `ids` of the parent of `ids[i]`, or -1 for none.
    package private(set) var parent: [Int]
    private var positions: [ControllerID: Int]

    /// The controllers of `order`, none with a parent yet.
    package init(order: [ControllerID]) {
        var ids: [ControllerID] = []
        ids.reserveCapacity(order.count)
        var positions = [ControllerID: Int](minimumCapacity: order.count)
        for id in order where positions[id] == nil {
            positions[id] = ids.count
            ids.append(id)
        }
        self.ids = ids
        self.positions = positions
        orderCount = ids.count
        parent = Array(repeating: -1, count: ids.count)
    }

    /// The controllers of `order` with the links of `parentOf` (child → parent).
    package init(order: [ControllerID], parentOf: [ControllerID: ControllerID]) {
        self.init(order: order)
        for (child, parentID) in parentOf {
            let childPosition = adding(child)
            parent[childPosition] = adding(parentID)
        }
    }

    /// Where `id` is in `ids`, nil when it is not there.
    package func position(of id: ControllerID) -> Int? {
        positions[id]
    }

    /// Makes the controller at `parentPosition` the parent of the one at `childPosition`.
    package mutating func link(_ childPosition: Int, to parentPosition: Int) {
        parent[childPosition] = parentPosition
    }

    /// The parent of `id`, nil for a root or an unknown id.
    package subscript(parentOf id: ControllerID) -> ControllerID? {
        guard let position = positions[id], parent[position] >= 0 else { return nil }
        return ids[parent[position]]
    }

    private mutating func adding(_ id: ControllerID) -> Int {
        if let position = positions[id] { return position }
        positions[id] = ids.count
        ids.append(id)
        parent.append(-1)
        return ids.count - 1
    }
}
