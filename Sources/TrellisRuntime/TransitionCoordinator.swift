import Synchronization
import TrellisModel
import TrellisTrace

/// The facts of one transition that travel with its messages (and, later, over the wire):
/// its id within the window, whether it animates, its simulated duration, and the window
/// traits it moves to.
public struct TransitionInfo: Sendable, Hashable {
    /// The transition's id within its window, as trace lines name it.
    public var id: Int
    /// Whether it animates.
    public var isAnimated: Bool
    /// Simulated seconds; the simulated clock advances by this much when the transition ends.
    public var duration: Double
    /// The window's traits after the transition (what presented controllers inherit, R18).
    public var windowTraits: TraitCollection
    /// The window's size after the transition (what full-screen presentations get, §3.5).
    public var windowSize: Size

    /// The facts of transition `id`.
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
    /// The transition's id within its window.
    public var transitionID: Int
    /// Whether it animates.
    public var isAnimated: Bool
    /// Its simulated duration in seconds.
    public var transitionDuration: Double
    /// Whether it was cancelled: always false, since a simulated transition always completes.
    public var isCancelled: Bool
}

/// UIKit's `UIViewControllerTransitionCoordinator` as a behaviour sees it: the transition's facts
/// and `animate(alongsideTransition:completion:)`, whose blocks run when the transition ends,
/// each recorded in the trace under the controller that registered it.
public struct TransitionCoordinator: Sendable {
    /// The transition's facts.
    public let info: TransitionInfo
    /// The number of the registrar that keeps this transition's blocks
    /// (`CoordinatorRegistrar.registrar(numbered:)`), not a reference to it: a coordinator is
    /// made for every controller whose Swift behaviour's size hook a walk runs, and the retain
    /// and release of a reference it held were a tenth of such a walk (docs/performance.md,
    /// issue 28, fourth pass). Registering a block, which is rare, looks the number up.
    @usableFromInline let registrarNumber: Int
    /// The controller the coordinator was handed to; registrations are traced under its name.
    public let owner: ControllerID

    init(info: TransitionInfo, registrar: CoordinatorRegistrar, owner: ControllerID) {
        self.init(info: info, registrarNumber: registrar.number, owner: owner)
    }

    /// A coordinator made where a hook is called (`SizeHooks`): inlined there, it costs nothing
    /// when the hook does not read it.
    @usableFromInline
    init(info: TransitionInfo, registrarNumber: Int, owner: ControllerID) {
        self.info = info
        self.registrarNumber = registrarNumber
        self.owner = owner
    }

    /// The transition's id within its window (UIKit's coordinator has none: for the trace).
    public var transitionID: Int { info.id }
    /// Whether it animates (`isAnimated`).
    public var isAnimated: Bool { info.isAnimated }
    /// Its simulated duration in seconds (`transitionDuration`).
    public var transitionDuration: Double { info.duration }

    /// Registers blocks to run at the end of this transition, in registration order: every
    /// alongside block first, then every completion block. Accepted (returns true) unless the
    /// window whose transition it is has gone, leaving nothing to run them (returns false, as
    /// UIKit's does when it cannot queue the blocks).
    @discardableResult
    public func animate(
        alongsideTransition alongside: (@Sendable (TransitionCoordinatorContext) -> Void)?,
        completion: (@Sendable (TransitionCoordinatorContext) -> Void)? = nil
    ) -> Bool {
        guard let registrar = CoordinatorRegistrar.registrar(numbered: registrarNumber) else { return false }
        registrar.register(transition: info.id, owner: owner, alongside: alongside, completion: completion)
        return true
    }
}

/// Runs, on the node whose behaviour registered them, that behaviour's next alongside block
/// (`completion` false) or next completion block of a transition: how the conductor's window
/// runs blocks registered on another node in their place in the order (SPEC §7, TWP/1 §8.7).
public typealias BlocksElsewhere = @Sendable (_ completion: Bool, _ info: TransitionInfo, _ cause: EventRef?) async -> Void

/// A registration made on a node without the window, not yet told to the conductor's window
/// (TWP/1 `coordinatorRegistration`): which blocks `owner` registered for `transition`.
public struct CoordinatorAnnouncement: Sendable, Hashable {
    /// The transition the blocks belong to.
    public var transition: Int
    /// The controller whose behaviour registered them.
    public var owner: ControllerID
    /// Whether an alongside block was registered.
    public var alongside: Bool
    /// Whether a completion block was registered.
    public var completion: Bool

    /// A registration of `owner` for `transition`, as the window's node is told of it.
    public init(transition: Int, owner: ControllerID, alongside: Bool, completion: Bool) {
        self.transition = transition
        self.owner = owner
        self.alongside = alongside
        self.completion = completion
    }
}

/// Keeps the blocks registered with the coordinators of unfinished transitions and runs them
/// when a transition ends. The window's node also keeps, in their place in the order, the
/// registrations other nodes told it of, and runs those there.
final class CoordinatorRegistrar: Sendable {
    typealias Block = @Sendable (TransitionCoordinatorContext) -> Void

    /// One block of a registration: here, or kept by the node that registered it.
    private enum Step {
        case here(Block)
        case elsewhere(BlocksElsewhere)
    }

    private struct Registration {
        var owner: ControllerID
        var alongside: Step?
        var completion: Step?
    }

    private struct State {
        var pending: [Int: [Registration]] = [:]
        /// Set on a node without the window: its registrations are told to the window's node.
        var announces = false
        var unannounced: [CoordinatorAnnouncement] = []
    }

    private let state = Mutex(State())
    /// This registrar's number among the live ones, which its coordinators keep.
    let number: Int

    /// A weak reference to a registrar: the table of live ones does not keep them alive.
    private struct Live: Sendable {
        weak var registrar: CoordinatorRegistrar?
    }

    /// Every registrar by its number (a weak reference, gone once its environment is), and the
    /// next number: a coordinator kept past its window's life finds nothing, never another
    /// window's registrar, since numbers are not reused.
    private static let live = Mutex<(next: Int, byNumber: [Int: Live])>((1, [:]))

    init() {
        number = Self.live.withLock { live in
            defer { live.next += 1 }
            return live.next
        }
        Self.live.withLock { $0.byNumber[number] = Live(registrar: self) }
    }

    deinit {
        let number = number
        Self.live.withLock { _ = $0.byNumber.removeValue(forKey: number) }
    }

    /// The live registrar numbered `number`, nil when it is gone.
    static func registrar(numbered number: Int) -> CoordinatorRegistrar? {
        live.withLock { $0.byNumber[number]?.registrar }
    }

    func register(transition: Int, owner: ControllerID, alongside: Block?, completion: Block?) {
        guard alongside != nil || completion != nil else { return }
        state.withLock { state in
            state.pending[transition, default: []].append(
                Registration(owner: owner, alongside: alongside.map(Step.here), completion: completion.map(Step.here)))
            guard state.announces else { return }
            state.unannounced.append(CoordinatorAnnouncement(
                transition: transition, owner: owner, alongside: alongside != nil, completion: completion != nil))
        }
    }

    /// This node's window is elsewhere: from now on its registrations are announced.
    func announceRegistrations() {
        state.withLock { $0.announces = true }
    }

    /// The registrations made here and not yet told to the window's node, in order.
    func takeAnnouncements() -> [CoordinatorAnnouncement] {
        state.withLock { state in
            defer { state.unannounced.removeAll() }
            return state.unannounced
        }
    }

    /// A registration another node made, kept in its place in the order; `run` runs its blocks there.
    func registerElsewhere(_ announcement: CoordinatorAnnouncement, run: @escaping BlocksElsewhere) {
        guard announcement.alongside || announcement.completion else { return }
        let registration = Registration(
            owner: announcement.owner, alongside: announcement.alongside ? .elsewhere(run) : nil,
            completion: announcement.completion ? .elsewhere(run) : nil)
        state.withLock { $0.pending[announcement.transition, default: []].append(registration) }
    }

    /// Runs and forgets the blocks of `transition`: alongside blocks, then completion blocks, those
    /// registered on other nodes there, in their place (no suspension when there are none).
    func finish(
        _ info: TransitionInfo, recorder: TraceRecorder, cause: EventRef?, isolation: isolated (any Actor)? = #isolation
    ) async {
        guard let registrations = state.withLock({ $0.pending.removeValue(forKey: info.id) }) else { return }
        let context = Self.context(info)
        for registration in registrations {
            switch registration.alongside {
            case .here(let alongside)?:
                recorder.record(.alongsideTransition(transition: info.id), controller: registration.owner, cause: cause, transition: info.id)
                alongside(context)
            case .elsewhere(let run)?: await run(false, info, cause)
            case nil: continue
            }
        }
        for registration in registrations {
            switch registration.completion {
            case .here(let completion)?:
                recorder.record(.transitionCompletion(transition: info.id), controller: registration.owner, cause: cause, transition: info.id)
                completion(context)
            case .elsewhere(let run)?: await run(true, info, cause)
            case nil: continue
            }
        }
    }

    /// Runs `owner`'s next alongside (or completion) block of `info`'s transition, registered
    /// here: the window's node asked for it in its place in the order. False when there is none.
    func runNext(_ info: TransitionInfo, owner: ControllerID, completion: Bool, recorder: TraceRecorder, cause: EventRef?) -> Bool {
        let block: Block? = state.withLock { state in
            guard var registrations = state.pending[info.id] else { return nil }
            defer { state.pending[info.id] = registrations.isEmpty ? nil : registrations }
            for index in registrations.indices where registrations[index].owner == owner {
                let step = completion ? registrations[index].completion : registrations[index].alongside
                guard case .here(let block)? = step else { continue }
                if completion { registrations[index].completion = nil } else { registrations[index].alongside = nil }
                if registrations[index].alongside == nil && registrations[index].completion == nil { registrations.remove(at: index) }
                return block
            }
            return nil
        }
        guard let block else { return false }
        let message: TraceMessage = completion ? .transitionCompletion(transition: info.id) : .alongsideTransition(transition: info.id)
        recorder.record(message, controller: owner, cause: cause, transition: info.id)
        block(Self.context(info))
        return true
    }

    private static func context(_ info: TransitionInfo) -> TransitionCoordinatorContext {
        TransitionCoordinatorContext(transitionID: info.id, isAnimated: info.isAnimated, transitionDuration: info.duration, isCancelled: false)
    }
}
