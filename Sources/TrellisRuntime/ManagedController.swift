import TrellisModel
import TrellisTrace

/// A controller's state as a window reads it.
public struct ControllerSnapshot: Sendable, Equatable {
    /// Its size (its view's bounds).
    public var size: Size
    /// Its traits, as its environment last gave them.
    public var traitCollection: TraitCollection
    /// The size it asks its container for.
    public var preferredContentSize: Size
    /// Its frame as its container last laid it out (R60): origin in the container's coordinates.
    public var frame: Rect

    /// `frame` defaults to `size` at (0,0).
    public init(size: Size, traitCollection: TraitCollection, preferredContentSize: Size, frame: Rect? = nil) {
        self.size = size
        self.traitCollection = traitCollection
        self.preferredContentSize = preferredContentSize
        self.frame = frame ?? Rect(size)
    }
}

/// Everything a window asks of a controller, wherever the controller lives: the router's
/// messages (`ControllerEndpoint`) plus the structural operations of presentation, navigation and
/// preferred sizes. A local `Controller` implements it directly; a transport implements it with a
/// stand-in that forwards each call to the node hosting the controller.
package protocol ManagedController: ControllerEndpoint {
    func snapshot() async -> ControllerSnapshot
    /// The frame this container gives `child` (R60): the origin it put it at, the size its
    /// layout applied; nil when `child` is not its child.
    func frame(ofChild child: ControllerID) async -> Rect?
    /// Sets `preferredContentSize`; a different value goes to the container (R22).
    func setPreferredContentSize(_ newSize: Size, cause: EventRef?) async
    /// Tells the container that the fitting size changed (R27).
    func notifySystemLayoutFittingSizeDidChange(cause: EventRef?) async
    /// `setOverrideTraitCollection(_:forChild:)` and the trait transition it causes (R17).
    func setOverrideTraitCollection(_ traits: TraitCollection?, forChild child: ControllerID, transition: TransitionInfo, cause: EventRef?) async throws(RuntimeError)
    /// This controller now presents through `presentationController` (R6, R18).
    func attachPresentation(_ presentationController: any ControllerEndpoint, inheritsPresenterTraits: Bool) async
    /// `view.setNeedsLayout()` carried out: the layout pass at its frame, callbacks included.
    func layOutAgain(cause: EventRef?) async
    func detachPresentation() async
    /// Adds a child at the end (a push, a split view's first detail); `showChild` sizes it.
    func appendChild(_ child: any ControllerEndpoint) async
    /// Removes the last child (a pop).
    func removeLastChild() async
    /// Replaces a child (a split view's secondary column).
    func replaceChild(at index: Int, with child: any ControllerEndpoint) async
    /// Selects a tab bar controller's child and sizes it.
    func select(index: Int, cause: EventRef?) async
    /// A child becomes visible: sized by this container's SFC, its traits brought up to date.
    func showChild(at index: Int, cause: EventRef?) async
    /// A user action for its behaviour (SPEC §4.2); `cause` is the action's event.
    func perform(action: String, value: ActionValue?, cause: EventRef) async -> ActionOutcome
    /// Creates the presentation controller of a presentation of this controller, on the node
    /// that hosts it, from this controller's own presentation settings. `popoverSource` gives a
    /// popover's source rect in window coordinates, asked at each layout pass (R62).
    func makePresentationController(
        style: ModalPresentationStyle, containerSize: Size, traits: TraitCollection, windowSize: Size,
        profile: AdaptationProfile, popoverSource: @escaping @Sendable () async -> Rect?,
        wrapperChanged: @escaping @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void
    ) async -> any ManagedPresentationController
}

/// Everything a window asks of a presentation controller, wherever it lives.
package protocol ManagedPresentationController: ControllerEndpoint {
    /// R51: adapts when presenting into a compact environment.
    func adaptForPresentation(cause: EventRef?) async
    /// Gives what it displays its traits, silently, before it appears.
    func prepareDisplayed() async
    /// A presentation or dismissal callback (R42); `transition` is the presentation's or
    /// dismissal's, whose coordinator the `WillBegin` callbacks see (nil: none to hand).
    func transitionCallback(_ callback: PresentationCallback, value: Bool, transition: TransitionInfo?, cause: EventRef?) async
    /// Sizes and lays out what it displays, the first time.
    func initialPresentationLayout(cause: EventRef?) async
    /// Whether the presenter's views are removed (R41), what the container shows now and where.
    func presentationState() async -> PresentationState
    /// An appearance callback to what the container shows (the presented controller or its wrapper).
    func deliverDisplayedAppearance(_ callback: AppearanceCallback, cause: EventRef?) async
    /// A user action for its behaviour (SPEC §4.2); `cause` is the action's event.
    func perform(action: String, value: ActionValue?, cause: EventRef) async -> ActionOutcome
    /// `presentedView.frame = frame` requested by its behaviour (§4.2).
    func setPresentedViewFrame(_ frame: Rect, cause: EventRef?) async
}

/// A presentation as its window reads it, for inspection and the screen picture.
public struct PresentationState: Sendable, Equatable {
    /// R41: the presenter's views are off screen while it is shown.
    public var removesPresenterViews: Bool
    /// The presented controller, or its adaptive wrapper (R49).
    public var displayedID: ControllerID
    /// The style in effect: the adaptive style while adapted.
    public var style: ModalPresentationStyle
    /// Whether the container view covers the context controller (current-context styles) rather
    /// than the window (R62).
    public var coversContext: Bool
    /// The container view's bounds.
    public var containerViewBounds: Rect
    /// The presented view's frame in the container view's coordinates (R63).
    public var presentedViewFrame: Rect

    /// A presentation as its window reads it.
    public init(
        removesPresenterViews: Bool, displayedID: ControllerID, style: ModalPresentationStyle, coversContext: Bool,
        containerViewBounds: Rect, presentedViewFrame: Rect
    ) {
        self.removesPresenterViews = removesPresenterViews
        self.displayedID = displayedID
        self.style = style
        self.coversContext = coversContext
        self.containerViewBounds = containerViewBounds
        self.presentedViewFrame = presentedViewFrame
    }
}
