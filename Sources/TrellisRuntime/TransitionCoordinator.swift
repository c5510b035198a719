import Synchronization
import TrellisModel
import TrellisTrace

/// The facts of one transition that travel with its messages (and, later, over the wire):
/// its id within the window, whether it animates, its simulated duration, and the window
/// traits it moves to.
public struct TransitionInfo: Sendable, Hashable {
    public var id: Int
    public var isAnimated: Bool
    /// Simulated seconds; the simulated clock advances by this much when the transition ends.
    public var duration: Double
    /// The window's traits after the transition (what presented controllers inherit, R18).
    public var windowTraits: TraitCollection
    /// The window's size after the transition (what full-screen presentations get, §3.5).
    public var windowSize: Size

    public init(id: Int, isAnimated: Bool, duration: Double, windowTraits: TraitCollection, windowSize: Size) {
        self.id = id
        self.isAnimated = isAnimated
        self.duration = duration
        self.windowTraits = windowTraits
        self.windowSize = windowSize
    }
}

/// What an alongside or completion block receives, as UIKit's
/// `UIViewControllerTransitionCoordinatorContext`.
public struct TransitionCoordinatorContext: Sendable {
    public var transitionID: Int
    public var isAnimated: Bool
    public var transitionDuration: Double
    public var isCancelled: Bool
}

/// UIKit's `UIViewControllerTransitionCoordinator` as a behaviour sees it: the transition's facts
/// and `animate(alongsideTransition:completion:)`, whose blocks run when the transition ends,
/// each recorded in the trace under the controller that registered it.
public struct TransitionCoordinator: Sendable {
    public let info: TransitionInfo
    let registrar: CoordinatorRegistrar
    /// The controller the coordinator was handed to; registrations are traced under its name.
    public let owner: ControllerID

    init(info: TransitionInfo, registrar: CoordinatorRegistrar, owner: ControllerID) {
        self.info = info
        self.registrar = registrar
        self.owner = owner
    }

    public var transitionID: Int { info.id }
    public var isAnimated: Bool { info.isAnimated }
    public var transitionDuration: Double { info.duration }

    /// Registers blocks to run at the end of this transition, in registration order: every
    /// alongside block first, then every completion block. Always accepted (returns true).
    @discardableResult
    public func animate(
        alongsideTransition alongside: (@Sendable (TransitionCoordinatorContext) -> Void)?,
        completion: (@Sendable (TransitionCoordinatorContext) -> Void)? = nil
    ) -> Bool {
        registrar.register(transition: info.id, owner: owner, alongside: alongside, completion: completion)
        return true
    }
}

/// Keeps the blocks registered with the coordinators of unfinished transitions and runs them
/// when a transition ends.
final class CoordinatorRegistrar: Sendable {
    private struct Registration {
        var owner: ControllerID
        var alongside: (@Sendable (TransitionCoordinatorContext) -> Void)?
        var completion: (@Sendable (TransitionCoordinatorContext) -> Void)?
    }

    private let pending = Mutex<[Int: [Registration]]>([:])

    func register(
        transition: Int, owner: ControllerID,
        alongside: (@Sendable (TransitionCoordinatorContext) -> Void)?,
        completion: (@Sendable (TransitionCoordinatorContext) -> Void)?
    ) {
        guard alongside != nil || completion != nil else { return }
        pending.withLock { $0[transition, default: []].append(Registration(owner: owner, alongside: alongside, completion: completion)) }
    }

    /// Runs and forgets the blocks of `transition`: alongside blocks, then completion blocks.
    func finish(_ info: TransitionInfo, recorder: TraceRecorder, cause: EventRef?) {
        let registrations = pending.withLock { $0.removeValue(forKey: info.id) } ?? []
        let context = TransitionCoordinatorContext(
            transitionID: info.id, isAnimated: info.isAnimated, transitionDuration: info.duration, isCancelled: false)
        for registration in registrations {
            guard let alongside = registration.alongside else { continue }
            recorder.record(.alongsideTransition(transition: info.id), controller: registration.owner, cause: cause, transition: info.id)
            alongside(context)
        }
        for registration in registrations {
            guard let completion = registration.completion else { continue }
            recorder.record(.transitionCompletion(transition: info.id), controller: registration.owner, cause: cause, transition: info.id)
            completion(context)
        }
    }
}
