import TrellisModel

/// The floor of the in-process figures: the same two walks as `BareNode`, as plain synchronous
/// method calls over `final class` objects — no actors, no executor, no message; what remains is
/// pointer chasing, the calls and the two stored sizes (as `../shared/peers/swift-plain`).
/// The walk recurses once per level: the bench's shapes are 8-ary, a few levels deep.
final class PlainNode {
    var children: [PlainNode] = []
    var size = Size.zero
    var pendingSize: Size?

    /// The first walk; returns the hops (nodes reached).
    @inline(never)
    func announce(_ newSize: Size) -> Int {
        pendingSize = newSize
        var hops = 1
        for child in children {
            hops += child.announce(newSize)
        }
        return hops
    }

    /// The second walk; returns the hops.
    @inline(never)
    func layout() -> Int {
        size = pendingSize ?? size
        pendingSize = nil
        var hops = 1
        for child in children {
            hops += child.layout()
        }
        return hops
    }

    /// The tree of `shape`, built bottom-up like the bare actors' tree.
    static func tree(_ shape: HierarchyShape) -> PlainNode {
        var nodes = (0..<shape.count).map { _ in PlainNode() }
        for index in stride(from: shape.count - 1, through: 0, by: -1) {
            nodes[index].children = shape.children(of: index).map { nodes[$0] }
        }
        let root = nodes[0]
        nodes.removeAll()
        return root
    }
}
