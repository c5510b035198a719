import TrellisModel

/// One frame of the simulated screen (SPEC §6, the screen picture): what a controller, a
/// presentation's container view or a dimming view occupies, in window coordinates.
public struct ScreenFrame: Sendable, Equatable {
    /// What the frame is on screen.
    public enum Role: Sendable, Equatable, CustomStringConvertible {
        /// The window's root controller.
        case root
        /// A child its container shows (all for `view`, the top of a navigation stack, the
        /// selected tab, the visible split columns).
        case child
        /// A presentation controller's container view (`pc:P`), with the style in effect.
        case presentationContainer(ModalPresentationStyle)
        /// A presented controller, with the style in effect (the adaptive style while adapted).
        case presented(ModalPresentationStyle)
        /// The navigation controller an adaptive delegate wraps a presented controller in (R49).
        case wrapper
        /// The dimming view over a presentation's container view, under the presented view, for
        /// the styles that dim (R64; `pc:P`'s).
        case dimming
        /// The 1-point divider a regular split view draws between its columns (§3.2, R61; the
        /// split view's), over the columns' edges, under what the split view presents.
        case divider

        public var description: String {
            switch self {
            case .root: return "root"
            case .child: return "child"
            case let .presentationContainer(style): return "container " + style.rawValue
            case let .presented(style): return "presented " + style.rawValue
            case .wrapper: return "wrapper"
            case .dimming: return "dimming"
            case .divider: return "divider"
            }
        }
    }

    /// The controller; for a container view or a dimming view, its presentation controller
    /// (`pc:P`); for a divider, its split view.
    public var id: ControllerID
    /// Where it is, in window coordinates.
    public var rect: Rect
    public var role: Role
    /// Its place in drawing order: 0 is drawn first (at the bottom); each frame is drawn over
    /// every frame with a smaller depth. It equals the frame's index in `screenFrames()`.
    public var depth: Int

    /// A popover's source rect in window coordinates, where its arrow points (R62); else nil.
    public var popoverSource: Rect?

    public init(id: ControllerID, rect: Rect, role: Role, depth: Int, popoverSource: Rect? = nil) {
        self.id = id
        self.rect = rect
        self.role = role
        self.depth = depth
        self.popoverSource = popoverSource
    }
}

/// The frames gathered while walking the window, bottom to top.
private struct ScreenLayout {
    var frames: [(id: ControllerID, rect: Rect, role: ScreenFrame.Role, source: Rect?)] = []
    /// The role a controller gets instead of `child`: a presented controller inside its wrapper.
    var roleOverride: [ControllerID: ScreenFrame.Role] = [:]
}

extension Window {
    /// What is on the simulated screen now, bottom to top (SPEC §6), at the frames the layout
    /// passes gave (R60–R64).
    ///
    /// The root fills the window; each container shows the children its kind shows, at the
    /// frames it gave them (R61). After a controller's subtree comes what it presents: the
    /// presentation's container view (the window, or the context controller for current-context
    /// styles), a dimming view over it for the styles that dim (R64), then the presented
    /// controller (or its adaptive wrapper) at the frame its presentation controller gave it
    /// (R63) and, recursively, its own children and presentations. A popover's frame carries its
    /// source rect, for the arrow. A presentation that removes its presenter's views (R41) takes
    /// the presenter and everything drawn inside it off the picture.
    ///
    /// It reads the controllers one by one, so take it when the window is quiescent (after
    /// `perform` returns), not while an event is being handled.
    public func screenFrames() async -> [ScreenFrame] {
        var layout = ScreenLayout()
        await place(rootID, in: Rect(size), role: .root, layout: &layout)
        return layout.frames.enumerated().map { index, frame in
            ScreenFrame(id: frame.id, rect: frame.rect, role: frame.role, depth: index, popoverSource: frame.source)
        }
    }

    /// Places `id` at `rect` (window coordinates), then its visible children, then what it presents.
    private func place(_ id: ControllerID, in rect: Rect, role: ScreenFrame.Role, layout: inout ScreenLayout, source: Rect? = nil) async {
        let start = layout.frames.count
        layout.frames.append((id, rect, layout.roleOverride[id] ?? role, source))
        guard let node = structure[id] else { return }
        let managed = controllers[id]
        let horizontal = await managed?.snapshot().traitCollection.horizontalSizeClass ?? .unspecified
        let visible = ContainerRules.forwardTargets(node.kind, childCount: node.children.count, selected: node.selectedIndex, horizontal: horizontal)
        var first = Rect.zero
        for index in visible {
            let child = node.children[index]
            let frame = await frame(of: child) ?? .zero
            if index == visible.lowerBound { first = frame }
            await place(child, in: frame.offset(by: rect.origin), role: .child, layout: &layout)
        }
        // §3.2: a regular split view's divider, drawn over its columns' edges.
        if let divider = ContainerRules.divider(node.kind, visible: visible, primary: first, containerSize: rect.size) {
            layout.frames.append((id, divider.offset(by: rect.origin), .divider, nil))
        }
        if let presented = node.presented {
            await placePresentation(of: presented, presenterRect: rect, presenterStart: start, layout: &layout)
        }
    }

    private func placePresentation(of presentedID: ControllerID, presenterRect: Rect, presenterStart: Int, layout: inout ScreenLayout) async {
        guard let pc = presentationControllers[presentedID] else { return }
        let state = await pc.presentationState()
        // R41: the presenter's views, and everything drawn inside them, are off screen.
        if state.removesPresenterViews {
            layout.frames.removeSubrange(presenterStart...)
        }
        let pcID = ControllerID.presentationController(of: presentedID)
        let container = state.coversContext
            ? Rect(origin: presenterRect.origin, size: state.containerViewBounds.size)
            : Rect(size)
        layout.frames.append((pcID, container, .presentationContainer(state.style), nil))
        if PresentationRules.dims(state.style), !state.removesPresenterViews {
            layout.frames.append((pcID, container, .dimming, nil))
        }
        let rect = state.presentedViewFrame.offset(by: container.origin)
        let source = state.style == .popover ? await popoverSourceRect(of: presentedID) : nil
        if state.displayedID != presentedID {
            layout.roleOverride[presentedID] = .presented(state.style)
            await place(state.displayedID, in: rect, role: .wrapper, layout: &layout, source: source)
            layout.roleOverride[presentedID] = nil
        } else {
            await place(presentedID, in: rect, role: .presented(state.style), layout: &layout, source: source)
        }
    }
}
