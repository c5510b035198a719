import TrellisModel

/// What a presentation controller's behaviour sees of it: its state, the `super` steps of each
/// message, and its presented controller. It is the presentation controller's own actor.
public protocol PresentationControllerContext: BehaviorRequester {
    /// `pc:` + the presented controller's id.
    nonisolated var id: ControllerID { get }
    /// The presented controller.
    nonisolated var presentedID: ControllerID { get }
    /// The controller shown in the container: the presented one, or its adaptive wrapper (R49).
    var displayedID: ControllerID { get }
    /// The style asked for at presentation.
    var presentationStyle: ModalPresentationStyle { get }
    /// The style in effect: the adaptive style while adapted (R48), else `presentationStyle`.
    var style: ModalPresentationStyle { get }
    /// The presenter's (or context's) size: what `viewWillTransition` last brought.
    var size: Size { get }
    /// The container view's bounds (R62): the window for full-screen styles, the context
    /// controller for current-context styles.
    var containerViewBounds: Rect { get }
    /// The frame the presented view (or its adaptive wrapper) has now, in the container view's
    /// coordinates (R60, R63).
    var presentedViewFrame: Rect { get }
    /// The size `size(forPresented:)` last gave the presented view (R7), before the layout pass
    /// applies the frame; at presentation, its answer taken without a query (R2a), which a frame
    /// may be sized with.
    var presentedViewSize: Size { get }
    /// A popover's source rect in the container view's (the window's) coordinates, or nil.
    var popoverSourceRect: Rect? { get }
    /// Its traits: the environment it gives the presented controller.
    var traitCollection: TraitCollection { get }
    /// State the behaviour keeps across messages, isolated to this presentation controller (SPEC §4).
    var state: BehaviorState { get set }

    /// `super.viewWillTransition(to:with:)`: asks `size(forPresented:)` and sends the presented
    /// controller its size (R7), unless unchanged (R4).
    func superViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) async
    /// `super.willTransition(to:with:)`: adapts (R48) and forwards the trait change (R18).
    func superWillTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator) async
    /// The built-in presented size of the style (SPEC §3.5), or the parent size for `custom`.
    func superSize(forPresentedWithParentSize parentSize: Size) -> Size
    /// `super.preferredContentSizeDidChange(forChildContentContainer:)`: the grant policy (R24).
    func superPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size) async
    /// `super.containerViewWillLayoutSubviews()` (R63): a built-in style's asks
    /// `frameOfPresentedViewInContainerView` (traced as a query) and gives the presented view that
    /// frame; a custom presentation's, as UIKit's, leaves the presented view where it is
    /// (autoresized with the container view).
    func superContainerViewWillLayoutSubviews()
    /// `presentedView.frame = frameOfPresentedViewInContainerView`, the line WWDC 2014's sidebar
    /// writes in its `containerViewWillLayoutSubviews` override so that a rotation moves the view
    /// to its new frame (R63): asks the frame (traced as the query) and places the presented view
    /// there. Call it from `containerViewWillLayoutSubviews`; elsewhere, `setPresentedViewFrame`.
    func applyFrameOfPresentedViewInContainerView()
    /// Asks this presentation controller's own `size(forPresented:)` (traced as a query, nested
    /// under the frame query when asked from `frameOfPresentedViewInContainerView`), as UIKit code
    /// calling `self.size(forChildContentContainer:…)` does (R2a).
    func sizeForPresented(parentSize: Size) -> Size
    /// `super.frameOfPresentedViewInContainerView` (R62): the built-in frame of the style in
    /// effect; for `custom`, the container view's bounds, as UIKit's default.
    func superFrameOfPresentedViewInContainerView() -> Rect
    /// Asks this presentation controller's own `frameOfPresentedViewInContainerView` (the
    /// behaviour's), as UIKit code reading `self.frameOfPresentedViewInContainerView` does.
    func frameOfPresentedViewInContainerView() -> Rect
    /// `super.containerViewDidLayoutSubviews()`: UIKit's does nothing; called for symmetry with
    /// a subclass's code (not calling it changes nothing).
    func superContainerViewDidLayoutSubviews()
    /// `super.presentationTransitionWillBegin()` (R42): UIKit's does nothing.
    func superPresentationTransitionWillBegin()
    /// `super.presentationTransitionDidEnd(_:)` (R42): UIKit's does nothing.
    func superPresentationTransitionDidEnd(completed: Bool)
    /// `super.dismissalTransitionWillBegin()` (R42): UIKit's does nothing.
    func superDismissalTransitionWillBegin()
    /// `super.dismissalTransitionDidEnd(_:)` (R42): UIKit's does nothing.
    func superDismissalTransitionDidEnd(completed: Bool)
    /// The coordinator of the presentation or dismissal transition under way, as UIKit's
    /// `presentedViewController.transitionCoordinator`: set in `presentationTransitionWillBegin`
    /// and `dismissalTransitionWillBegin` (animate alongside, register a completion), nil elsewhere.
    var transitionCoordinator: TransitionCoordinator? { get }
    /// Writes a `note` line into the trace under this presentation controller.
    func note(_ text: String)
}

extension PresentationControllerContext {
    /// `presentedView.frame = frame`, in the container view's coordinates, after the current
    /// event (§4.2). The frame holds until this presentation controller's own code sets it again
    /// (a built-in style's `containerViewWillLayoutSubviews` at its next layout pass); meanwhile it
    /// is autoresized with the container view (R63).
    public func setPresentedViewFrame(_ frame: Rect) {
        request(.setPresentedViewFrame(frame))
    }
}

/// The Swift code that customises a presentation controller (a `custom` presentation's
/// `UIPresentationController` subclass), each method defaulting to UIKit's behaviour.
public protocol PresentationControllerBehavior: Sendable {
    /// `viewWillTransition(to:with:)`: the container view is resizing; super forwards it to the presented controller.
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async
    /// `willTransition(to:with:)`: the traits are changing; super forwards them to the presented controller.
    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async
    /// `size(forChildContentContainer:withParentContainerSize:)` for the presented controller.
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size
    /// `preferredContentSizeDidChange(forChildContentContainer:)` from the presented controller.
    func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, in pc: isolated any PresentationControllerContext) async
    /// `frameOfPresentedViewInContainerView` (R62), in the container view's coordinates.
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect
    /// `containerViewWillLayoutSubviews()` (R63): a built-in style's super gives the presented view
    /// its frame again; a custom presentation places it with `applyFrameOfPresentedViewInContainerView()`,
    /// else it keeps its frame, autoresized with the container view.
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext)
    /// `containerViewDidLayoutSubviews()` (R63): after the presented view has its frame.
    func containerViewDidLayoutSubviews(in pc: isolated any PresentationControllerContext)
    /// The transition callbacks of R42, called when they are recorded.
    func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext)
    /// `presentationTransitionDidEnd(_:)`: the presentation finished, or was cancelled.
    func presentationTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext)
    /// `dismissalTransitionWillBegin()`: the dismissal is starting.
    func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext)
    /// `dismissalTransitionDidEnd(_:)`: the dismissal finished, or was cancelled.
    func dismissalTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext)
    /// A user action (SPEC §4.2): a tap on the dimming view, a drag, the keyboard showing. Return
    /// true when handled; an action nobody handles is a `warning` in the trace. Requests made
    /// here are carried out right after it.
    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool
    /// The JSON type of the value `action` expects; an action with a value of another type (or
    /// none) is refused with an error before `perform` runs. nil (the default): any value, or none.
    func valueType(forAction action: String) -> ActionValueType?
}

extension PresentationControllerBehavior {
    public func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        await pc.superViewWillTransition(to: size, with: coordinator)
    }

    public func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        await pc.superWillTransition(to: traits, with: coordinator)
    }

    public func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        pc.superSize(forPresentedWithParentSize: parentSize)
    }

    public func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, in pc: isolated any PresentationControllerContext) async {
        await pc.superPreferredContentSizeDidChange(forChild: child, preferredSize: preferredSize)
    }

    public func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        pc.superFrameOfPresentedViewInContainerView()
    }

    public func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.superContainerViewWillLayoutSubviews()
    }

    public func containerViewDidLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.superContainerViewDidLayoutSubviews()
    }

    public func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
        pc.superPresentationTransitionWillBegin()
    }

    public func presentationTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) {
        pc.superPresentationTransitionDidEnd(completed: completed)
    }

    public func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
        pc.superDismissalTransitionWillBegin()
    }

    public func dismissalTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) {
        pc.superDismissalTransitionDidEnd(completed: completed)
    }

    public func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool { false }

    public func valueType(forAction action: String) -> ActionValueType? { nil }
}

/// A presentation controller that behaves as UIKit's built-in ones.
public struct DefaultPresentationBehavior: PresentationControllerBehavior {
    /// UIKit's built-in presentation controller.
    public init() {}
}

/// How to build the presentation controller of a controller's presentations.
public struct PresentationControllerDescription: Sendable {
    /// R35: a custom presentation that covers the screen needs a full-screen presenter.
    public var shouldPresentInFullscreen: Bool
    /// R41: whether the presenter's views are removed after presentation (custom only).
    public var shouldRemovePresentersView: Bool
    /// R18: traits laid over the presented controller's inherited traits.
    public var overrideTraitCollection: TraitCollection?
    /// The preferred-size policy; nil: the built-in default of the style.
    public var grant: GrantPolicy?
    /// The Swift code of the presentation controller (`DefaultPresentationBehavior`: UIKit's).
    public var behavior: any PresentationControllerBehavior

    /// A presentation controller run by `behavior`.
    public init(
        shouldPresentInFullscreen: Bool = true, shouldRemovePresentersView: Bool = false,
        overrideTraitCollection: TraitCollection? = nil, grant: GrantPolicy? = nil,
        behavior: any PresentationControllerBehavior = DefaultPresentationBehavior()
    ) {
        self.shouldPresentInFullscreen = shouldPresentInFullscreen
        self.shouldRemovePresentersView = shouldRemovePresentersView
        self.overrideTraitCollection = overrideTraitCollection
        self.grant = grant
        self.behavior = behavior
    }
}
