import TrellisModel

/// The state of a controller that most controllers of a large hierarchy never set, kept in one
/// box (`OutOfLine`) that a controller allocates only when it sets one of them: where its
/// container put it away from (0,0), a preferred content size, trait overrides for its
/// children, a presentation, its children's origins, its behaviour's state. A plain controller
/// carries one nil pointer for all of them instead of some ninety bytes (issue 27 item 7:
/// docs/performance.md has the table). A change is made in place (`OutOfLine.modify`): only
/// the first allocates.
struct ControllerExtras {
    /// Where its container put it, in the container's coordinates, at its last layout (R60);
    /// read only when `Controller.isOffset` says it is not (0,0).
    var origin: Point = .zero
    /// The size it asks its container for (UIKit's `preferredContentSize`).
    var preferredContentSize: Size = .zero
    /// The `setOverrideTraitCollection(_:forChild:)` values it set, by child.
    var traitOverrides: [ControllerID: TraitCollection] = [:]
    /// The presentation it makes (R6); `Controller.presents` says whether there is one.
    var presentation: Controller.PresentationSlot?
    /// Where it put each child (R61), by slot; `Controller.hasChildOrigins` says whether any.
    var childOrigins: [Point] = []
    /// What its behaviour keeps across messages (SPEC §4), nil until it keeps something.
    var state: BehaviorState?
    /// A container with columns (a split view): whether a size transition's `viewWillTransition`
    /// reached it since its last layout. Its columns were then decided with the traits the
    /// transition moves to (§3.2), so applying those traits does not size them again
    /// (`Controller.resizeColumns`).
    var sizeTransitionPending = false

    /// The extras of a new controller, nil when its description sets none of them.
    static func initial(_ description: ControllerDescription) -> ControllerExtras? {
        guard description.preferredContentSize != .zero || !description.traitOverrides.isEmpty else { return nil }
        return ControllerExtras(preferredContentSize: description.preferredContentSize, traitOverrides: description.traitOverrides)
    }
}
