import TrellisModel

extension Window {
    /// R60: `id`'s frame in its container's coordinates — the frame its parent gave it, or for a
    /// presented controller (or its adaptive wrapper) the frame its presentation controller
    /// gave it in the container view; the root's is the window's bounds. Nil for an unknown id
    /// or a controller not on screen in any container.
    public func frame(of id: ControllerID) async -> Rect? {
        await placement(of: id)?.frame
    }

    /// R60: `id`'s frame in window coordinates: its frame moved by every container above it.
    /// Take it when the window is quiescent (after `perform` returns).
    public func windowFrame(of id: ControllerID) async -> Rect? {
        guard var placed = await placement(of: id) else { return nil }
        var rect = placed.frame
        // Each step goes one container up; the structure has no cycles (validated), and the
        // bound keeps a damaged one from looping.
        var steps = 0
        while let container = placed.container, steps <= structure.nodes.count, let next = await placement(of: container) {
            rect = rect.offset(by: next.frame.origin)
            placed = next
            steps += 1
        }
        return rect
    }

    /// Where one controller is: its frame in its container's coordinates and the controller whose
    /// coordinates those are.
    private struct Placement {
        var frame: Rect
        /// The parent, or for a presented controller the context controller its container view
        /// covers; nil for the root and for presentations whose container view is the window.
        var container: ControllerID?
    }

    private func placement(of id: ControllerID) async -> Placement? {
        if id == rootID { return Placement(frame: Rect(size), container: nil) }
        guard let node = structure[id] else { return nil }
        if let parent = node.parent {
            guard let frame = await childFrame(id, of: parent) else { return nil }
            return Placement(frame: frame, container: parent)
        }
        // A presented controller, or the adaptive wrapper shown in its place.
        let presentedID = node.presenting != nil ? id : node.children.first ?? id
        guard let pc = presentationControllers[presentedID], let presenter = structure[presentedID]?.presenting else { return nil }
        let state = await pc.presentationState()
        guard state.displayedID == id else { return nil }
        return Placement(frame: state.presentedViewFrame, container: state.coversContext ? presenter : nil)
    }

    /// The frame `parent` gave `child`, from the parent, which owns it — wherever it lives (the
    /// child's own frame is what the parent gave it at the child's last layout, which a sibling's
    /// new size can have moved since).
    private func childFrame(_ child: ControllerID, of parent: ControllerID) async -> Rect? {
        await controllers[parent]?.frame(ofChild: child)
    }

    /// R62: a popover's source rect in window coordinates: `sourceRect` in `sourceView`'s
    /// coordinates, or in the window's without a source view.
    public func popoverSourceRect(of presentedID: ControllerID) async -> Rect? {
        guard let node = structure[presentedID], node.hasPopoverSource else { return nil }
        let rect = node.popoverSourceRect
        guard let view = node.popoverSourceView else { return rect }
        guard let viewFrame = await windowFrame(of: view) else { return rect }
        guard let rect else { return viewFrame }
        return node.popoverSourceCorner.rect(rect, inViewOf: viewFrame.size).offset(by: viewFrame.origin)
    }
}
