import TrellisModel

/// The Swift code that customises a controller, one method per `UIContentContainer` message,
/// each defaulting to UIKit's behaviour.
///
/// Override a method to change what the controller does; call the context's matching `super…`
/// method where a UIKit subclass would call `super`:
///
/// ```swift
/// struct Logged: ViewControllerBehavior {
///     func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator,
///                             in vc: isolated any ViewControllerContext) async {
///         vc.note("before \(size)")
///         await vc.superViewWillTransition(to: size, with: coordinator)
///         vc.note("after the whole subtree")   // R11
///     }
/// }
/// ```
public protocol ViewControllerBehavior: Sendable {
    /// `viewWillTransition(to:with:)`: the view is resizing; super forwards it to the children (R11).
    /// By default it runs `viewWillTransitionBeforeSuper` and then does what that returned.
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async
    /// `viewWillTransition(to:with:)` for an override whose work all comes before `super`, as most
    /// UIKit overrides' does (what follows the transition they register with the coordinator):
    /// return `.callSuper` to forward as super does, `.suppress` to cut the subtree off (R8).
    /// It is synchronous, so the router runs it within its synchronous walk and a behaviour that
    /// only calls super here costs what the default does. Override the async
    /// `viewWillTransition(to:with:in:)` instead to run code after the subtree (R11) or to
    /// forward by hand (R9); it takes precedence.
    func viewWillTransitionBeforeSuper(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) -> SuperStep
    /// `willTransition(to:with:)`: the traits are changing; super forwards them to the children.
    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async
    /// `traitCollectionDidChange(_:)`: the traits changed (UIKit's does nothing).
    func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext)
    /// `size(forChildContentContainer:withParentContainerSize:)`: the size a child gets (R5).
    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size
    /// `preferredContentSizeDidChange(forChildContentContainer:)`: a child asks for a size (R24).
    func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, in vc: isolated any ViewControllerContext) async
    /// `systemLayoutFittingSizeDidChange(forChildContentContainer:)` (UIKit's does nothing).
    func systemLayoutFittingSizeDidChange(forChild child: ControllerID, in vc: isolated any ViewControllerContext) async
    /// `viewWillLayoutSubviews()`: before the children are laid out (UIKit's does nothing).
    func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext)
    /// `viewDidLayoutSubviews()`: after the children are laid out (UIKit's does nothing).
    func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext)
    /// `viewWillAppear(_:)` (R40).
    func viewWillAppear(in vc: isolated any ViewControllerContext)
    /// `viewDidAppear(_:)` (R40).
    func viewDidAppear(in vc: isolated any ViewControllerContext)
    /// `viewWillDisappear(_:)` (R40).
    func viewWillDisappear(in vc: isolated any ViewControllerContext)
    /// `viewDidDisappear(_:)` (R40).
    func viewDidDisappear(in vc: isolated any ViewControllerContext)
    /// A user action (SPEC §4.2: the scenario's `action` step, the test kit's `action`): a tap, a
    /// gesture, a keyboard notification, a timer. Return true when handled; an action nobody
    /// handles is a `warning` in the trace. Requests made here are carried out right after it.
    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool
    /// The JSON type of the value `action` expects; an action with a value of another type (or
    /// none) is refused with an error before `perform` runs. nil (the default): any value, or none.
    func valueType(forAction action: String) -> ActionValueType?
    /// The runtime's: this behaviour's size hooks compiled for its type (`SizeHooks`). Leave it
    /// as it is (never forward it to another behaviour's); its default implementation is the
    /// only one.
    func _sizeHooks() -> SizeHooks
}

extension ViewControllerBehavior {
    // UIKit's size hooks only call super; the runtime learns that a behaviour's type keeps them
    // (`DefaultHook`) and then does what super does without asking, as for `DefaultBehavior`.
    public func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        (vc as? Controller)?.defaultHookRan(.asyncViewWillTransition, for: Self.self)
        switch viewWillTransitionBeforeSuper(to: size, with: coordinator, in: vc) {
        case .callSuper: await vc.superViewWillTransition(to: size, with: coordinator)
        case .suppress: return
        }
    }

    public func viewWillTransitionBeforeSuper(
        to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext
    ) -> SuperStep {
        (vc as? Controller)?.defaultHookRan(.viewWillTransition, for: Self.self)
        return .callSuper
    }

    public func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superWillTransition(to: traits, with: coordinator)
    }

    public func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) {}

    public func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        (vc as? Controller)?.defaultHookRan(.sizeForChild, for: Self.self)
        return vc.superSize(forChild: child, parentSize: parentSize)
    }

    public func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, in vc: isolated any ViewControllerContext) async {
        await vc.superPreferredContentSizeDidChange(forChild: child, preferredSize: preferredSize)
    }

    public func systemLayoutFittingSizeDidChange(forChild child: ControllerID, in vc: isolated any ViewControllerContext) async {}

    // UIKit's layout hooks do nothing; the runtime learns that a behaviour's type keeps them
    // (`DefaultHook`) and skips them from then on, as it does for `DefaultBehavior`.
    public func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
        (vc as? Controller)?.defaultHookRan(.viewWillLayoutSubviews, for: Self.self)
    }

    public func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
        (vc as? Controller)?.defaultHookRan(.viewDidLayoutSubviews, for: Self.self)
    }

    public func viewWillAppear(in vc: isolated any ViewControllerContext) {}

    public func viewDidAppear(in vc: isolated any ViewControllerContext) {}

    public func viewWillDisappear(in vc: isolated any ViewControllerContext) {}

    public func viewDidDisappear(in vc: isolated any ViewControllerContext) {}

    public func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool { false }

    public func valueType(forAction action: String) -> ActionValueType? { nil }
}

/// UIKit's behaviour unchanged: every method calls super.
public struct DefaultBehavior: ViewControllerBehavior {
    /// UIKit's behaviour, unchanged.
    public init() {}
}

/// What a synchronous hook (`ViewControllerBehavior.viewWillTransitionBeforeSuper`) asks the
/// router to do once it returns: UIKit's `super` call, or none.
public enum SuperStep: Sendable, Equatable {
    /// Forward as super does (R2–R6): the children, then the presentation controller.
    case callSuper
    /// Do not call super: everything below is cut off (R8), traced as a suppression.
    case suppress
}
