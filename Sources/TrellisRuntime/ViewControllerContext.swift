import TrellisModel

/// What a behaviour sees of the controller it customises: its state, the "super" steps of each
/// message, and manual forwarding. It is the controller's own actor, so a behaviour runs inside
/// the controller's isolation and nothing else can touch the controller's state meanwhile.
///
/// Calling a `super…` method is UIKit's `super.…` call: not calling it is suppression (SPEC R8),
/// and code after the `await` runs after the whole forwarded subtree handled the message (R11).
public protocol ViewControllerContext: BehaviorRequester {
    /// The controller's id.
    nonisolated var id: ControllerID { get }
    /// The container kind whose default forwarding `super` performs.
    var kind: ContainerKind { get }
    /// The current size. It changes in the layout pass after a transition, not during it (R10).
    var size: Size { get }
    /// The current effective traits. Inside `viewWillTransition` these are still the old ones (R14).
    var traitCollection: TraitCollection { get }
    /// The child controllers, in order.
    var children: [ControllerID] { get }
    /// The size it asks its container for; set it with `setPreferredContentSize(_:)`.
    var preferredContentSize: Size { get }
    /// This controller's frame as its container last laid it out: origin in the container's
    /// coordinates, size (R60).
    var frame: Rect { get }
    /// The frame this controller gave `child` in its last layout pass (nil for a stranger).
    func frame(ofChild child: ControllerID) -> Rect?
    /// Places a child (R61): its origin in this controller's coordinates; its size stays the one
    /// the layout pass applied. Call it from `viewWillLayoutSubviews` or `viewDidLayoutSubviews`,
    /// as UIKit code sets a child view's frame in `layoutSubviews`.
    func setOrigin(ofChild child: ControllerID, to origin: Point)
    /// Sets a child's frame (R61, R2a), origin and size, as UIKit code sets a child view
    /// controller's `view.frame` in `viewWillLayoutSubviews` or `viewDidLayoutSubviews`: this
    /// pass hands the child that frame (a layout pass for the child when its size changes, no
    /// `viewWillTransition` and no `sizeForChild` query). Set in `viewWillLayoutSubviews` of a
    /// first layout, the runtime does not size that child by `size(forChild:)`. Called outside
    /// those two hooks, for a stranger, or with a negative or infinite size, it records an `error`.
    func setFrame(_ frame: Rect, ofChild child: ControllerID)
    /// State the behaviour keeps across messages, isolated to this controller (SPEC §4).
    var state: BehaviorState { get set }

    /// `super.viewWillTransition(to:with:)`: forwards to the children (asking `size(forChild:)`
    /// right before each, skipping unchanged sizes) and then to the presented chain.
    func superViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) async
    /// `super.willTransition(to:with:)`: forwards the trait change to the children whose traits change.
    func superWillTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator) async
    /// `super.size(forChildContentContainer:withParentContainerSize:)`: the container kind's default.
    func superSize(forChild child: ControllerID, parentSize: Size) -> Size
    /// `super.preferredContentSizeDidChange(forChildContentContainer:)`: applies the grant policy.
    func superPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size) async

    /// Asks this controller's own `size(forChild:)` (traced as a query), as UIKit code calling
    /// `self.size(forChildContentContainer:…)` does.
    func sizeForChild(_ child: ControllerID, parentSize: Size) -> Size
    /// Manual forwarding (R9): sends `viewWillTransition(to: size)` to one child, whatever its size.
    func forwardViewWillTransition(toChild child: ControllerID, size: Size, with coordinator: TransitionCoordinator) async
    /// Manual forwarding of a trait transition to one child (its traits come from the hierarchy).
    func forwardWillTransition(toChild child: ControllerID, with coordinator: TransitionCoordinator) async
    /// Changes a child's size as a container does after a preferred-size request (R25): a
    /// `viewWillTransition` receipt to the child, then a layout pass. Nothing when the size is unchanged.
    func resize(child: ControllerID, to size: Size) async
    /// Writes a `note` line into the trace under this controller.
    func note(_ text: String)
}

extension ViewControllerContext {
    /// `preferredContentSize = size`, after the current event (§4.2, R22).
    public func setPreferredContentSize(_ size: Size) {
        request(.setPreferredContentSize(size))
    }

    /// `setOverrideTraitCollection(_:forChild:)` (nil removes it), after the current event (§4.2, R17).
    public func setOverrideTraitCollection(_ traits: TraitCollection?, forChild child: ControllerID) {
        request(.setTraitOverride(child: child, traits: traits))
    }
}
