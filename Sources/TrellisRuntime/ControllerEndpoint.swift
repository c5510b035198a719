import TrellisModel
import TrellisTrace

/// The messages the router sends to a controller. A parent holds its children as endpoints, so
/// a child may be a local `Controller` or, with a transport, a stand-in for one on another node:
/// the router code is the same either way.
package protocol ControllerEndpoint: Actor {
    nonisolated var id: ControllerID { get }

    /// `viewWillTransition(to:with:)` arrives (R2, R7, R25).
    func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async
    /// A trait transition reaches this controller with its new effective traits (R13–R17).
    /// `deliver` is false below a suppression: traits still change, but no message is delivered.
    func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async
    /// Applies the traits computed by the trait transition and sends `traitCollectionDidChange` (R14).
    func applyPendingTraits(cause: EventRef?) async
    /// The layout pass: adopts the frame its container gives it (R10, R60) and lays out the
    /// children it announced sizes to. A presentation controller gets its presenter's bounds.
    func layout(frame: Rect, cause: EventRef?) async
    /// A child's preferred content size changed (R22).
    func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async
    /// A child's fitting size changed (R27).
    func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async
    /// Sets up the first size and traits, before any step: layout callbacks and size queries, no transition.
    /// `frame` is nil for a controller that is not shown yet (it only takes the traits).
    func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async
    /// An appearance callback (R42), forwarded to what is visible below.
    func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async
    /// Becomes visible again (a pop, a tab switch, a replaced column): takes the container's
    /// size and traits, with layout and `traitCollectionDidChange` only where they changed.
    func refresh(frame: Rect, traits: TraitCollection, cause: EventRef?) async
    /// Where this controller's preferred-size and fitting-size changes go from now on (R22):
    /// its parent, its presentation controller, or nowhere.
    func setContainer(_ container: (any ControllerEndpoint)?) async
}
