import TrellisModel
import TrellisTrace

/// The window's plain-value picture of its hierarchy: who is whose parent, who presents whom,
/// and the flags the presentation rules read. The window keeps it in step with the actors so
/// that presenter searches (R35, R37), `show` targets (R55) and dismissal sets (R43–R46) are
/// pure functions, decided in one place and testable without actors.
public struct HierarchyStructure: Sendable, Equatable {
    /// One controller as the structure sees it.
    ///
    /// The window keeps one a controller in a dictionary of about 2.6 buckets a controller at
    /// 100k (its capacity is a power of two), so each byte here is more than two a controller:
    /// the presentation links and the popover source, which few controllers ever have, are in
    /// one shared box (`HierarchyNodeLinks`), and the small fields are packed after the
    /// others. 64 bytes a stride, not 152 (issue 27 item 7).
    public struct Node: Sendable, Equatable {
        /// The controller's id.
        public var id: ControllerID
        /// Its container, nil for the root (filled in from the children lists).
        public var parent: ControllerID?
        /// Its children, in order.
        public var children: [ControllerID]
        /// The selected child of a tab bar controller.
        public var selectedIndex: Int
        /// Which container it is.
        public var kind: ContainerKind
        /// R37: whether it defines the context of `currentContext` presentations below it.
        public var definesPresentationContext: Bool
        /// R38: whether it also provides their transition style.
        public var providesPresentationContextTransitionStyle: Bool
        /// The style it asks for when presented (nil: the profile's default).
        public var modalPresentationStyle: ModalPresentationStyle?
        /// The transition style it asks for when presented.
        public var modalTransitionStyle: ModalTransitionStyle
        /// Whether a popover presentation of this controller has a source (R31).
        public var hasPopoverSource: Bool
        /// R35: whether a custom presentation of this controller needs a full-screen presenter.
        public var customPresentsInFullscreen: Bool
        /// `presented`, `presenting` and the popover source, boxed.
        private var links: HierarchyNodeLinks

        /// The controller this one presents (R28: at most one).
        public var presented: ControllerID? {
            get { links.presented }
            set { links.presented = newValue }
        }
        /// The controller that presents this one.
        public var presenting: ControllerID? {
            get { links.presenting }
            set { links.presenting = newValue }
        }
        /// Where a popover presentation of this controller points from (for the screen picture).
        public var popoverSourceView: ControllerID? {
            get { links.popoverSourceView }
            set { links.popoverSourceView = newValue }
        }
        /// The rect it points from, in the source view's coordinates (or the window's).
        public var popoverSourceRect: Rect? {
            get { links.popoverSourceRect }
            set { links.popoverSourceRect = newValue }
        }
        /// The corner of the source view the rect is measured from (R62).
        public var popoverSourceCorner: PopoverSourceCorner {
            get { links.popoverSourceCorner }
            set { links.popoverSourceCorner = newValue }
        }

        /// A node with UIKit's defaults for everything not given.
        public init(
            id: ControllerID, kind: ContainerKind = .view, parent: ControllerID? = nil, children: [ControllerID] = [],
            selectedIndex: Int = 0, definesPresentationContext: Bool? = nil,
            providesPresentationContextTransitionStyle: Bool = false,
            modalPresentationStyle: ModalPresentationStyle? = nil, modalTransitionStyle: ModalTransitionStyle = .coverVertical,
            hasPopoverSource: Bool = false, customPresentsInFullscreen: Bool = true,
            popoverSourceView: ControllerID? = nil, popoverSourceRect: Rect? = nil, popoverSourceCorner: PopoverSourceCorner = .topLeft
        ) {
            self.links = HierarchyNodeLinks(popoverSourceView: popoverSourceView, popoverSourceRect: popoverSourceRect, popoverSourceCorner: popoverSourceCorner)
            self.hasPopoverSource = hasPopoverSource
            self.customPresentsInFullscreen = customPresentsInFullscreen
            self.id = id
            self.kind = kind
            self.parent = parent
            self.children = children
            self.selectedIndex = selectedIndex
            // SPEC §3.2: a navigation controller defines a presentation context by default.
            self.definesPresentationContext = definesPresentationContext ?? ContainerRules.definesPresentationContextByDefault(kind)
            self.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
            self.modalPresentationStyle = modalPresentationStyle
            self.modalTransitionStyle = modalTransitionStyle
        }
    }

    /// Every controller, by id.
    public private(set) var nodes: NodeTable
    /// The window's root controller.
    public let root: ControllerID
    /// Every split view controller, found once: the window asks these whether they are collapsed
    /// (`isInWindow`).
    public let splits: [ControllerID]

    /// The structure of `nodes`, each node's `parent` taken from its container's children.
    public init(root: ControllerID, nodes: [Node]) {
        self.init(root: root, names: nil, nodes: nodes)
    }

    /// The same, its nodes found through `names`' index of interned ids (a window's recorder,
    /// once its controllers are made) rather than a dictionary of their own.
    ///
    /// A lazy collection of nodes is read twice and never held: an array of them made after the
    /// controllers (6.4 MB at 100k) was freed but stayed resident.
    init<Nodes: Collection<Node>>(root: ControllerID, names: TraceRecorder?, nodes: Nodes) {
        self.root = root
        var byID = NodeTable(nodes, names: names)
        var splits: [ControllerID] = []
        for node in nodes {
            for child in node.children { byID[child]?.parent = node.id }
            if node.kind == .split { splits.append(node.id) }
        }
        self.nodes = byID
        self.splits = splits
    }

    /// The node of `id`; nil when there is none.
    public subscript(id: ControllerID) -> Node? { nodes[id] }

    mutating func update(_ id: ControllerID, _ change: (inout Node) -> Void) {
        guard var node = nodes[id] else { return }
        change(&node)
        nodes[id] = node
    }

    mutating func insert(_ node: Node) {
        nodes[node.id] = node
    }

    mutating func remove(_ id: ControllerID) {
        nodes[id] = nil
    }

    /// The chain of parents from `id` up to (and including) the first controller without a parent.
    public func ancestry(of id: ControllerID) -> [ControllerID] {
        var chain = [id]
        var current = id
        while let parent = nodes[current]?.parent, chain.count <= nodes.count {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Whether `id` is in the window's tree at all: a descendant of the root or of a presented
    /// controller — one an adaptive wrapper holds too (R49: the wrapper, `wrap:P`, is P's parent
    /// and has no presenting link of its own; P keeps its own).
    public func isInHierarchy(_ id: ControllerID) -> Bool {
        let chain = ancestry(of: id)
        guard let top = chain.last else { return false }
        return top == root || chain.contains { nodes[$0]?.presenting != nil }
    }

    /// Whether `id`'s view is in the window now (R42): in the window's tree (`isInHierarchy`),
    /// and shown by each container above it — a tab bar controller's selected child, a
    /// navigation controller's top. UIKit sends appearance callbacks as views join or leave the
    /// window (Apple's `viewWillAppear(_:)`: "the view is about to be added to a view
    /// hierarchy"), so a push, pop, tab switch or detail replaced inside a container that is not
    /// on screen sends none: the controller shown appears when its container does.
    /// R41: nor is a controller on screen while it or a container above it is a presenter whose
    /// views a covering presentation removed (`coveredPresenters`): a push under a full-screen
    /// presentation is silent, and what it pushed appears when the presentation is dismissed.
    public func isOnScreen(_ id: ControllerID, coveredPresenters: Set<ControllerID>) -> Bool {
        guard isInHierarchy(id) else { return false }
        let chain = ancestry(of: id)
        if chain.contains(where: coveredPresenters.contains) { return false }
        for (child, parent) in zip(chain, chain.dropFirst()) {
            guard let container = nodes[parent] else { return false }
            switch container.kind {
            case .tab:
                guard container.children.indices.contains(container.selectedIndex), container.children[container.selectedIndex] == child else { return false }
            case .navigation:
                guard container.children.last == child else { return false }
            case .view, .split:
                continue
            }
        }
        return true
    }

    /// Whether `id`'s view is in the window, for what needs it there (R31: presenting; a
    /// segue's source): on screen (`isOnScreen`, no covered presenters) and not under a
    /// collapsed split view's secondary (`collapsedSplits`, which the window asks the splits
    /// for; SPEC §3.2: collapsed, a split shows its primary only). Appearance callbacks keep
    /// `isOnScreen`: a split collapsing or expanding sends none (§3.2), so counting its secondary
    /// off screen there would leave them unpaired.
    public func isInWindow(_ id: ControllerID, collapsedSplits: Set<ControllerID>) -> Bool {
        guard isOnScreen(id, coveredPresenters: []) else { return false }
        guard !collapsedSplits.isEmpty else { return true }
        let chain = ancestry(of: id)
        for (child, parent) in zip(chain, chain.dropFirst()) where collapsedSplits.contains(parent) {
            guard nodes[parent]?.children.first == child else { return false }
        }
        return true
    }

    /// The top of `id`'s presentation stack: follow `presented` links to the end.
    public func topOfPresentationChain(from id: ControllerID) -> ControllerID {
        var current = id
        var hops = 0
        while let next = nodes[current]?.presented, hops <= nodes.count {
            current = next
            hops += 1
        }
        return current
    }

    /// R35: a full-screen presentation is made by the first controller without a parent
    /// above the receiver: the window's root, or a presented controller.
    public func fullScreenPresenter(from receiver: ControllerID) -> ControllerID {
        ancestry(of: receiver).last ?? receiver
    }

    /// R37: a current-context presentation is made by the first controller, from the receiver
    /// up, that defines a presentation context; else by the window's root.
    public func presentationContext(from receiver: ControllerID) -> ControllerID {
        ancestry(of: receiver).first { nodes[$0]?.definesPresentationContext == true } ?? root
    }

    /// R55: the controller that handles `show` from `receiver`: the first navigation controller
    /// walking up the parents, continuing from a presented controller's presenter; nil when
    /// nobody does (then the window's root presents modally).
    public func showHandler(from receiver: ControllerID) -> ControllerID? {
        var visited = Set<ControllerID>()
        var current: ControllerID? = receiver
        while let id = current, visited.insert(id).inserted {
            guard let node = nodes[id] else { return nil }
            if ContainerRules.handlesShow(node.kind) { return id }
            current = node.parent ?? node.presenting
        }
        return nil
    }

    /// R56: the split view controller that handles `showDetail` from `receiver`, found the same way.
    public func showDetailHandler(from receiver: ControllerID) -> ControllerID? {
        var visited = Set<ControllerID>()
        var current: ControllerID? = receiver
        while let id = current, visited.insert(id).inserted {
            guard let node = nodes[id] else { return nil }
            if ContainerRules.handlesShowDetail(node.kind) { return id }
            current = node.parent ?? node.presenting
        }
        return nil
    }

    /// SPEC §11 unwind: the presenter of the presented controller that holds `source` (itself or
    /// an ancestor), whose `dismiss` removes that controller and everything above it (R44). Nil
    /// when `source` is not inside a presented controller.
    public func unwindPresenter(from source: ControllerID) -> ControllerID? {
        ancestry(of: source).lazy.compactMap { self.nodes[$0]?.presenting }.first
    }

    /// R43–R46: what `dismiss` called on `receiver` removes: the presenter that keeps its place
    /// and the removed controllers from the lowest to the top-most. Nil when there is nothing
    /// to dismiss.
    public func dismissal(from receiver: ControllerID) -> (presenter: ControllerID, removed: [ControllerID])? {
        guard let node = nodes[receiver] else { return nil }
        var presenter: ControllerID
        if node.presented != nil {
            // R44: a presenter removes what it presents and everything above it.
            presenter = receiver
        } else if let presenting = node.presenting {
            // R43: a presented controller with nothing presented forwards to its presenter.
            presenter = presenting
        } else if let container = ancestry(of: receiver).dropFirst().first(where: { nodes[$0]?.presenting != nil }),
                  let presenting = nodes[container]?.presenting {
            // R46: a child inside a presented container dismisses the whole container.
            presenter = presenting
        } else {
            return nil
        }
        // The presenter's chain, then — "everything above it" — what the removed controllers'
        // descendants present (a current-context presentation inside a removed container).
        var removed: [ControllerID] = []
        var seen = Set<ControllerID>()
        func addChain(from first: ControllerID?) {
            var current = first
            while let id = current, seen.insert(id).inserted {
                removed.append(id)
                current = nodes[id]?.presented
            }
        }
        addChain(from: nodes[presenter]?.presented)
        var index = 0
        while index < removed.count {
            var descendants = nodes[removed[index]]?.children ?? []
            while let descendant = descendants.popLast() {
                guard let node = nodes[descendant], seen.count <= nodes.count * 2 else { continue }
                if let presented = node.presented, !seen.contains(presented) { addChain(from: presented) }
                descendants.append(contentsOf: node.children)
            }
            index += 1
        }
        return removed.isEmpty ? nil : (presenter, removed)
    }
}
