import TrellisModel

/// A behaviour type's two synchronous size hooks — `viewWillTransitionBeforeSuper` and
/// `size(forChild:)` — as functions compiled for that type, which the router calls on every
/// controller a size walk reaches (SPEC §4.1: a Swift behaviour that only calls super costs no
/// more than the default).
///
/// Called through the behaviour's existential, each hook cost a projection of the existential's
/// box, the witness's thunk and, in `size(forChild:)`, a second witness call through the
/// context's existential to reach `superSize`: together about a seventh of the walk of 100k
/// controllers (docs/performance.md, "hooks compiled for their type"). Made by
/// `ViewControllerBehavior._sizeHooks()`, whose default implementation is inlinable, so the
/// module that declares a behaviour type compiles these closures for it: there the type's own
/// hooks are direct calls the optimizer can inline — a hook that only calls super reduces to
/// the call of super.
///
/// Not for your code: its initialiser is the runtime's, and a behaviour leaves `_sizeHooks()`
/// as it is — never forwards it to another behaviour's (a wrapper that did would run the
/// other's size hooks instead of its own).
public struct SizeHooks: Sendable {
    /// `viewWillTransitionBeforeSuper`, handed what its coordinator is made of: made in the
    /// closure, the coordinator (and the copy of its owner's id) goes when the hook ignores it.
    @usableFromInline let beforeSuper: @Sendable (Size, TransitionInfo, Int, ControllerID, isolated Controller) -> SuperStep
    @usableFromInline let sizeForChild: @Sendable (ControllerID, Size, isolated Controller) -> Size

    @usableFromInline
    init(
        beforeSuper: @escaping @Sendable (Size, TransitionInfo, Int, ControllerID, isolated Controller) -> SuperStep,
        sizeForChild: @escaping @Sendable (ControllerID, Size, isolated Controller) -> Size
    ) {
        self.beforeSuper = beforeSuper
        self.sizeForChild = sizeForChild
    }
}

extension ViewControllerBehavior {
    /// This behaviour's size hooks compiled for its type (`SizeHooks`); the runtime calls it once
    /// for each shared settings box, not per message.
    @inlinable
    public func _sizeHooks() -> SizeHooks {
        SizeHooks(
            beforeSuper: { size, info, registrarNumber, owner, vc in
                self.viewWillTransitionBeforeSuper(
                    to: size, with: TransitionCoordinator(info: info, registrarNumber: registrarNumber, owner: owner), in: vc)
            },
            sizeForChild: { child, parentSize, vc in self.size(forChild: child, parentSize: parentSize, in: vc) })
    }
}
