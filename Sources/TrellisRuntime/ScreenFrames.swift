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
        /// The dimming view under a presentation that keeps its presenter visible (`pc:P`'s).
        case dimming

        public var description: String {
            switch self {
            case .root: return "root"
            case .child: return "child"
            case let .presentationContainer(style): return "container " + style.rawValue
            case let .presented(style): return "presented " + style.rawValue
            case .wrapper: return "wrapper"
            case .dimming: return "dimming"
            }
        }
    }

    /// The controller; for a container view or a dimming view, its presentation controller (`pc:P`).
    public var id: ControllerID
    /// Where it is, in window coordinates.
    public var rect: Rect
    public var role: Role
    /// Its place in drawing order: 0 is drawn first (at the bottom); each frame is drawn over
    /// every frame with a smaller depth. It equals the frame's index in `screenFrames()`.
    public var depth: Int

    public init(id: ControllerID, rect: Rect, role: Role, depth: Int) {
        self.id = id
        self.rect = rect
        self.role = role
        self.depth = depth
    }
}

fileprivate extension Rect {
    var minX: Double { origin.x }
    var minY: Double { origin.y }
    var maxX: Double { origin.x + size.width }
    var maxY: Double { origin.y + size.height }
    var midX: Double { origin.x + size.width / 2 }
}

/// The frames gathered while walking the window, and every placed controller's rect — kept
/// even when a covering presentation takes the frame off screen, since a presentation above
/// may still be placed relative to it (a context, a popover's source view).
private struct ScreenLayout {
    var frames: [(id: ControllerID, rect: Rect, role: ScreenFrame.Role)] = []
    var rects: [ControllerID: Rect] = [:]
    /// The role a controller gets instead of `child`: a presented controller inside its wrapper.
    var roleOverride: [ControllerID: ScreenFrame.Role] = [:]
}

extension Window {
    /// What is on the simulated screen now, bottom to top (SPEC §6).
    ///
    /// The root fills the window; each container shows the children its kind shows, with the
    /// size it gave them, at its own origin (a split view's secondary column at the primary
    /// column's width). After a controller's subtree comes what it presents: the presentation's
    /// container view, a dimming view when the presentation keeps its presenter visible and is a
    /// sheet, popover or custom one, then the presented controller (or its adaptive wrapper)
    /// placed by the style in effect and, recursively, its own children and presentations. A
    /// presentation that removes its presenter's views (R41) takes the presenter and everything
    /// drawn inside it off the picture.
    ///
    /// It reads the controllers one by one, so take it when the window is quiescent (after
    /// `perform` returns), not while an event is being handled.
    public func screenFrames() async -> [ScreenFrame] {
        var layout = ScreenLayout()
        await place(rootID, in: Rect(origin: .zero, size: size), role: .root, layout: &layout)
        return layout.frames.enumerated().map { index, frame in
            ScreenFrame(id: frame.id, rect: frame.rect, role: frame.role, depth: index)
        }
    }

    /// Places `id` at `rect`, then its visible children, then what it presents.
    private func place(_ id: ControllerID, in rect: Rect, role: ScreenFrame.Role, layout: inout ScreenLayout) async {
        let start = layout.frames.count
        layout.frames.append((id, rect, layout.roleOverride[id] ?? role))
        layout.rects[id] = rect
        guard let node = structure[id] else { return }
        let managed = controllers[id]
        let local = managed as? Controller
        let horizontal = await managed?.snapshot().traitCollection.horizontalSizeClass ?? .unspecified
        let visible = node.kind.forwardTargets(childCount: node.children.count, selected: node.selectedIndex, horizontal: horizontal)
        for index in visible {
            let child = node.children[index]
            let childSize = await givenSize(child, by: local)
            var origin = rect.origin
            if node.kind == .split, index == 1 {
                // The secondary column starts where the primary ends.
                origin.x += await givenSize(node.children[0], by: local).width
            }
            await place(child, in: Rect(origin: origin, size: childSize), role: .child, layout: &layout)
        }
        if let presented = node.presented {
            await placePresentation(of: presented, by: id, presenterRect: rect, presenterStart: start, layout: &layout)
        }
    }

    /// The size a container gave `child`: its frame for the child, or (a container on another
    /// node) the child's own size.
    private func givenSize(_ child: ControllerID, by container: Controller?) async -> Size {
        if let container, let frame = await container.frame(ofChild: child) { return frame }
        return await controllers[child]?.snapshot().size ?? .zero
    }

    private func placePresentation(
        of presentedID: ControllerID, by presenterID: ControllerID, presenterRect: Rect, presenterStart: Int,
        layout: inout ScreenLayout
    ) async {
        let style: ModalPresentationStyle
        let displayedID: ControllerID
        let presentedSize: Size
        let removesPresenterViews: Bool
        let description = structure[presentedID]
        if let pc = presentationController(presenting: presentedID) {
            style = await pc.style
            displayedID = await pc.displayedID
            presentedSize = await pc.presentedFrame
            removesPresenterViews = await pc.removesPresenterViews
        } else if let pc = presentationControllers[presentedID] {
            // A presentation controller on another node says only what it shows and whether it
            // covers; the style is the one the presented controller asks for.
            let state = await pc.presentationState()
            style = PresentationRules.resolvedStyle(description?.modalPresentationStyle, profile: profile)
            displayedID = state.displayedID
            removesPresenterViews = state.removesPresenterViews
            presentedSize = await controllers[state.displayedID]?.snapshot().size ?? .zero
        } else {
            return
        }
        // R41: the presenter's views, and everything drawn inside them, are off screen.
        if removesPresenterViews {
            layout.frames.removeSubrange(presenterStart...)
        }
        let pcID = ControllerID.presentationController(of: presentedID)
        let window = Rect(origin: .zero, size: size)
        let presentsInFullscreen = description?.customPresentsInFullscreen ?? false
        let container = PresentationRules.isContextStyle(style, customPresentsInFullscreen: presentsInFullscreen) ? presenterRect : window
        layout.frames.append((pcID, container, .presentationContainer(style)))
        let dimmingStyles: Set<ModalPresentationStyle> = [.formSheet, .pageSheet, .popover, .custom]
        if dimmingStyles.contains(style), !removesPresenterViews {
            layout.frames.append((pcID, container, .dimming))
        }
        let origin: Point
        switch style {
        case .formSheet, .pageSheet:
            origin = Point(x: container.minX + (container.size.width - presentedSize.width) / 2,
                           y: container.minY + (container.size.height - presentedSize.height) / 2)
        case .popover:
            var source = description?.popoverSourceRect ?? Rect(x: 0, y: 0, width: 0, height: 0)
            if let view = description?.popoverSourceView, let viewRect = layout.rects[view] {
                source.origin.x += viewRect.minX
                source.origin.y += viewRect.minY
            }
            origin = Self.popoverOrigin(size: presentedSize, source: source, window: window)
        default:
            // Full-screen styles at the window's origin, current-context and custom ones at
            // their container's.
            origin = container.origin
        }
        let rect = Rect(origin: origin, size: presentedSize)
        if displayedID != presentedID {
            layout.roleOverride[presentedID] = .presented(style)
            await place(displayedID, in: rect, role: .wrapper, layout: &layout)
            layout.roleOverride[presentedID] = nil
        } else {
            await place(presentedID, in: rect, role: .presented(style), layout: &layout)
        }
    }

    /// A popover's origin: centred on its source horizontally, below the source when it fits,
    /// else above it; kept inside the window.
    static func popoverOrigin(size: Size, source: Rect, window: Rect) -> Point {
        func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double {
            max(low, min(value, high))
        }
        let x = clamp(source.midX - size.width / 2, window.minX, max(window.minX, window.maxX - size.width))
        let below = source.maxY
        let y = below + size.height <= window.maxY
            ? below
            : clamp(source.minY - size.height, window.minY, max(window.minY, window.maxY - size.height))
        return Point(x: x, y: y)
    }
}
