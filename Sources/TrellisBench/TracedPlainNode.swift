import TrellisModel
import TrellisTrace

/// The traced floor of the in-process figures: `PlainNode`'s two walks as plain synchronous
/// calls over `final class` objects, each recording the events Trellis records for the same
/// transition (`PlainTrace`) — `viewWillTransition` on arrival, a `sizeForChild` before each
/// child (R2, R5), then the layout pass's `viewWillLayoutSubviews` with the frame and
/// `viewDidLayoutSubviews` (R10, R60), each caused as the router causes it. Plain calls that
/// record nothing are not the floor of a traced walk; this is.
final class TracedPlainNode {
    var children: [TracedPlainNode] = []
    var size = Size.zero
    var pendingSize: Size?
    /// The index of its name in the trace's controller table (as `Controller.traceName`).
    let name: UInt32

    init(name: UInt32) {
        self.name = name
    }

    /// The first walk; returns the hops (nodes reached).
    @inline(never)
    func announce(_ newSize: Size, cause: UInt64?, trace: inout PlainTrace) -> Int {
        let event = trace.recordViewWillTransition(to: newSize, controller: name, cause: cause)
        pendingSize = newSize
        var hops = 1
        for child in children {
            // A plain view controller's child fills it (ContainerRules.defaultSize).
            let answer = newSize
            trace.recordSizeForChild(child.name, parent: newSize, answer: answer, controller: name, cause: event)
            // R4: a child whose size does not change is not told.
            guard answer != child.size else { continue }
            hops += child.announce(answer, cause: event, trace: &trace)
        }
        return hops
    }

    /// The second walk, `frame` given by the parent; returns the hops.
    @inline(never)
    func layout(frame: Rect, cause: UInt64?, trace: inout PlainTrace) -> Int {
        pendingSize = nil
        var childFramesChanged = false
        for child in children {
            if let pending = child.pendingSize, pending != child.size { childFramesChanged = true }
        }
        var layoutEvent = cause
        if frame.size != size || childFramesChanged {
            size = frame.size
            layoutEvent = trace.recordLayoutPair(controller: name, frame: frame, cause: cause)
        }
        var hops = 1
        for child in children {
            guard let pending = child.pendingSize else { continue }
            hops += child.layout(frame: Rect(pending), cause: layoutEvent, trace: &trace)
        }
        return hops
    }

    /// The tree of `shape`, built bottom-up; controller `c<i>` is name `i`
    /// (`HierarchyShape.id(i)`).
    static func tree(_ shape: HierarchyShape) -> TracedPlainNode {
        var nodes = (0..<shape.count).map { TracedPlainNode(name: UInt32(truncatingIfNeeded: $0)) }
        for index in stride(from: shape.count - 1, through: 0, by: -1) {
            nodes[index].children = shape.children(of: index).map { nodes[$0] }
        }
        let root = nodes[0]
        nodes.removeAll()
        return root
    }
}
