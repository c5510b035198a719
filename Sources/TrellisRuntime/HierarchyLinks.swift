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
        self.init(order: order) { _, _ in }
    }

    /// The controllers of `order`, none with a parent yet, telling `placed` where each element
    /// of `order` is in `ids` (its index in `order`, its position): a caller that keeps
    /// something by position learns it here rather than hashing each id again.
    package init(order: [ControllerID], placed: (_ index: Int, _ position: Int) -> Void) {
        var ids: [ControllerID] = []
        ids.reserveCapacity(order.count)
        var positions = [ControllerID: Int](minimumCapacity: order.count)
        for (index, id) in order.enumerated() {
            let position = Self.position(of: id, addingAt: ids.count, to: &positions)
            if position == ids.count { ids.append(id) }
            placed(index, position)
        }
        self.ids = ids
        self.positions = positions
        orderCount = ids.count
        parent = Array(repeating: -1, count: ids.count)
    }

    /// The position of `id` in `positions`, which gets `next` for it when it has none: one hash
    /// of the id either way (the default subscript's in-place access inserts; hashing a
    /// million ids twice was a fifth of `trellis validate`'s time for a flat scenario).
    private static func position(of id: ControllerID, addingAt next: Int, to positions: inout [ControllerID: Int]) -> Int {
        value(of: &positions[id, default: next])
    }

    private static func value(of slot: inout Int) -> Int {
        slot
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
        let position = Self.position(of: id, addingAt: ids.count, to: &positions)
        if position == ids.count {
            ids.append(id)
            parent.append(-1)
        }
        return position
    }
}
