import TrellisModel
import TrellisTrace

/// How to build one controller: its kind, children, configuration and behaviour.
public struct ControllerDescription: Sendable {
    /// The controller's id, unique in its window.
    public var id: ControllerID
    /// Which built-in container it is, or a plain `view`.
    public var kind: ContainerKind
    /// Its children, in order.
    public var children: [ControllerID]
    /// The selected child of a tab bar controller.
    public var selectedIndex: Int
    /// The size it asks its container for (UIKit's `preferredContentSize`).
    public var preferredContentSize: Size
    /// `setOverrideTraitCollection(_:forChild:)` values, by child.
    public var traitOverrides: [ControllerID: TraitCollection]
    /// What the default `preferredContentSizeDidChange(forChild:)` grants (R24).
    public var grant: GrantPolicy
    /// The Swift code that customises it (`DefaultBehavior`: UIKit's, unchanged).
    public var behavior: any ViewControllerBehavior
    /// The style this controller asks for when presented (nil: the profile's default).
    public var modalPresentationStyle: ModalPresentationStyle?
    /// The transition style it asks for when presented.
    public var modalTransitionStyle: ModalTransitionStyle
    /// R37; nil means UIKit's default (true for navigation controllers).
    public var definesPresentationContext: Bool?
    /// R38: whether it provides the transition style of presentations in its context.
    public var providesPresentationContextTransitionStyle: Bool
    /// The presentation controller used when this controller is presented with `custom`.
    public var presentationController: PresentationControllerDescription
    /// The adaptive delegate of this controller's presentations (R48).
    public var adaptiveDelegate: (any AdaptivePresentationDelegate)?
    /// How a `view` container places its children (R61).
    public var layout: ChildLayout
    /// Whether a popover presentation of this controller has a source view or rect (R31).
    public var hasPopoverSource: Bool
    /// The view a popover presentation of this controller points from (UIKit's `sourceView`).
    public var popoverSourceView: ControllerID?
    /// The rect it points from, in the source view's coordinates (UIKit's `sourceRect`); without
    /// a source view, in the window's. Only the screen picture reads it.
    public var popoverSourceRect: Rect?
    /// The corner of the source view `popoverSourceRect` is measured from (R62): a rect kept at
    /// the view's right or bottom edge as the view resizes.
    public var popoverSourceCorner: PopoverSourceCorner

    /// A controller `id` with UIKit's defaults for everything not given.
    public init(
        _ id: ControllerID,
        kind: ContainerKind = .view,
        children: [ControllerID] = [],
        selectedIndex: Int = 0,
        preferredContentSize: Size = .zero,
        traitOverrides: [ControllerID: TraitCollection] = [:],
        grant: GrantPolicy = .none,
        behavior: any ViewControllerBehavior = DefaultBehavior(),
        modalPresentationStyle: ModalPresentationStyle? = nil,
        modalTransitionStyle: ModalTransitionStyle = .coverVertical,
        definesPresentationContext: Bool? = nil,
        providesPresentationContextTransitionStyle: Bool = false,
        presentationController: PresentationControllerDescription = PresentationControllerDescription(),
        adaptiveDelegate: (any AdaptivePresentationDelegate)? = nil,
        hasPopoverSource: Bool = false,
        popoverSourceView: ControllerID? = nil,
        popoverSourceRect: Rect? = nil,
        popoverSourceCorner: PopoverSourceCorner = .topLeft,
        layout: ChildLayout = .overlay
    ) {
        self.modalPresentationStyle = modalPresentationStyle
        self.modalTransitionStyle = modalTransitionStyle
        self.definesPresentationContext = definesPresentationContext
        self.providesPresentationContextTransitionStyle = providesPresentationContextTransitionStyle
        self.presentationController = presentationController
        self.adaptiveDelegate = adaptiveDelegate
        self.layout = layout
        self.hasPopoverSource = hasPopoverSource || popoverSourceView != nil || popoverSourceRect != nil
        self.popoverSourceView = popoverSourceView
        self.popoverSourceRect = popoverSourceRect
        self.popoverSourceCorner = popoverSourceCorner
        self.id = id
        self.kind = kind
        self.children = children
        self.selectedIndex = selectedIndex
        self.preferredContentSize = preferredContentSize
        self.traitOverrides = traitOverrides
        self.grant = grant
        self.behavior = behavior
    }
}

/// A whole window: its size and traits, its root controller and every controller below it.
public struct HierarchyDescription: Sendable {
    /// The window's size in points.
    public var windowSize: Size
    /// The window's traits (its screen's).
    public var windowTraits: TraitCollection
    /// The id of the window's root controller.
    public var root: ControllerID
    /// Every controller of the window, the root among them.
    public var controllers: [ControllerDescription]
    /// Which UIKit generation's presentation defaults and adaptation apply.
    public var profile: AdaptationProfile
    /// The copies a scenario's segues made (SPEC §11), each with the file's controller it
    /// copies; they are among `controllers`, in the order they were made. A segue performed from
    /// a copy no container shows starts from an earlier one that is shown (`SegueCopyLineage`).
    public var copiedFrom: [ControllerID: ControllerID] = [:]

    /// A window of `windowSize` and `windowTraits` whose root is `root`.
    public init(
        windowSize: Size, windowTraits: TraitCollection, root: ControllerID, controllers: [ControllerDescription],
        profile: AdaptationProfile = .ios8
    ) {
        self.windowSize = windowSize
        self.windowTraits = windowTraits
        self.root = root
        self.controllers = controllers
        self.profile = profile
    }

    /// The structure the window starts from: the described tree, nothing presented; with
    /// `names`, its nodes are found through that recorder's interned ids.
    func structure(names: TraceRecorder? = nil) -> HierarchyStructure {
        HierarchyStructure(root: root, names: names, nodes: controllers.lazy.map { description in
            HierarchyStructure.Node(
                id: description.id, kind: description.kind, children: description.children,
                selectedIndex: description.selectedIndex,
                definesPresentationContext: description.definesPresentationContext,
                providesPresentationContextTransitionStyle: description.providesPresentationContextTransitionStyle,
                modalPresentationStyle: description.modalPresentationStyle,
                modalTransitionStyle: description.modalTransitionStyle,
                hasPopoverSource: description.hasPopoverSource,
                customPresentsInFullscreen: description.presentationController.shouldPresentInFullscreen,
                popoverSourceView: description.popoverSourceView, popoverSourceRect: description.popoverSourceRect,
                popoverSourceCorner: description.popoverSourceCorner)
        })
    }

    /// Checks the shape before anything is built: the window's size and traits values
    /// (`BehaviorGeometry`, `TraitCollection.problem`), every id one a trace line can name
    /// (`ControllerID.problem`) and described once, every child described, no controller with
    /// two parents, no cycle, tab selections in range.
    public func validate() throws(RuntimeError) -> [ControllerID: ControllerDescription] {
        // A window a scenario file could not describe (its reader checks the same).
        if let problem = WindowEvent.windowProblem(size: windowSize, traits: windowTraits) { throw .invalidValue(problem) }
        // Said plainly: an empty builder block would otherwise name a root nobody wrote.
        guard !controllers.isEmpty else { throw .invalidValue("the hierarchy describes no controller: it needs one at least, its root") }
        // Both tables sized once, as `ControllerFactory.build`'s: outgrown tables stay resident.
        var byID = [ControllerID: ControllerDescription](minimumCapacity: controllers.count)
        for controller in controllers {
            // Ids a trace line could not tell apart (a scenario file's are checked as it is read).
            if let problem = ControllerID.problem(with: controller.id.name) { throw .invalidValue(problem) }
            guard byID.updateValue(controller, forKey: controller.id) == nil else {
                throw .duplicateController(controller.id)
            }
        }
        guard byID[root] != nil else { throw .unknownController(root) }
        var parentOf = [ControllerID: ControllerID](minimumCapacity: controllers.count)
        for controller in controllers {
            for child in controller.children {
                guard byID[child] != nil else { throw .unknownController(child) }
                if let first = parentOf[child] {
                    throw .usedTwice(child, firstParent: first, secondParent: controller.id)
                }
                parentOf[child] = controller.id
            }
            if ContainerRules.hasSelection(controller.kind), !controller.children.isEmpty,
               !(0..<controller.children.count).contains(controller.selectedIndex) {
                throw .invalidSelection(controller.id, index: controller.selectedIndex, childCount: controller.children.count)
            }
        }
        if let cycle = HierarchyCycle.first(in: controllers.map(\.id), parentOf: parentOf) { throw .cycle(cycle) }
        if let rootParent = parentOf[root] { throw .usedTwice(root, firstParent: "window", secondParent: rootParent) }
        return byID
    }
}
