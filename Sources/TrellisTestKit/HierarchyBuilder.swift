import TrellisModel
import TrellisRuntime

/// One controller of a hierarchy written in Swift, with the controllers nested inside it as its
/// children: `ViewController("R") { ViewController("A"); ViewController("B") }`.
public struct ViewController: Sendable {
    /// How to build this controller (its kind, configuration and behaviour).
    public var description: ControllerDescription
    /// The controllers nested inside it, in order: its children.
    public var children: [ViewController]

    /// A controller of any kind; the block lists its children in order. The parameters are
    /// those of `ControllerDescription`.
    public init(
        _ id: ControllerID,
        kind: ContainerKind = .view,
        behavior: any ViewControllerBehavior = DefaultBehavior(),
        selectedIndex: Int = 0,
        preferredContentSize: Size = .zero,
        traitOverrides: [ControllerID: TraitCollection] = [:],
        grant: GrantPolicy = .none,
        modalPresentationStyle: ModalPresentationStyle? = nil,
        modalTransitionStyle: ModalTransitionStyle = .coverVertical,
        definesPresentationContext: Bool? = nil,
        presentationController: PresentationControllerDescription = PresentationControllerDescription(),
        adaptiveDelegate: (any AdaptivePresentationDelegate)? = nil,
        hasPopoverSource: Bool = false,
        @HierarchyBuilder children: () -> [ViewController] = { [] }
    ) {
        var description = ControllerDescription(
            id, kind: kind, selectedIndex: selectedIndex, preferredContentSize: preferredContentSize,
            traitOverrides: traitOverrides, grant: grant, behavior: behavior,
            modalPresentationStyle: modalPresentationStyle, modalTransitionStyle: modalTransitionStyle,
            definesPresentationContext: definesPresentationContext, presentationController: presentationController,
            adaptiveDelegate: adaptiveDelegate, hasPopoverSource: hasPopoverSource)
        self.children = children()
        description.children = self.children.map(\.description.id)
        self.description = description
    }

    /// This controller and everything below it, parents before children.
    var flattened: [ControllerDescription] {
        [description] + children.flatMap(\.flattened)
    }
}

/// Builds lists of `ViewController`s.
@resultBuilder
public enum HierarchyBuilder {
    /// A controller in the block is a list of one.
    public static func buildExpression(_ controller: ViewController) -> [ViewController] { [controller] }
    /// The block's lists, one after the other.
    public static func buildBlock(_ parts: [ViewController]...) -> [ViewController] { parts.flatMap { $0 } }
    /// An `if` without `else`: its controllers, or none.
    public static func buildOptional(_ part: [ViewController]?) -> [ViewController] { part ?? [] }
    /// The `if` branch of an `if`–`else`.
    public static func buildEither(first part: [ViewController]) -> [ViewController] { part }
    /// The `else` branch of an `if`–`else`.
    public static func buildEither(second part: [ViewController]) -> [ViewController] { part }
    /// A `for` loop's controllers, one iteration after the other.
    public static func buildArray(_ parts: [[ViewController]]) -> [ViewController] { parts.flatMap { $0 } }
}

/// Hierarchies written in Swift (`ViewController` blocks) for the test kit.
extension HierarchyDescription {
    /// A window whose root is the first controller listed; the others stand alone, ready to be
    /// presented, pushed or shown.
    public init(
        _ setup: WindowSetup, profile: AdaptationProfile = .ios8, @HierarchyBuilder _ controllers: () -> [ViewController]
    ) {
        let tops = controllers()
        self.init(
            windowSize: setup.size, windowTraits: setup.traits, root: tops.first?.description.id ?? "root",
            controllers: tops.flatMap(\.flattened), profile: profile)
    }
}
