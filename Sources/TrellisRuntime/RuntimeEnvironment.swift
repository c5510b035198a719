import Synchronization
import TrellisModel
import TrellisTrace

/// What every controller of one window shares on one node: the trace recorder, the coordinator
/// registrations, the transition counter and the simulated clock.
public final class RuntimeEnvironment: Sendable {
    /// Where every event of the window's controllers is recorded.
    public let recorder: TraceRecorder
    /// The executor the window's actors share.
    let executor = WindowExecutor()
    let registrar = CoordinatorRegistrar()
    /// What behaviours asked the window to do, waiting for the event being handled to end (§4.2).
    let requests = BehaviorRequestQueue()
    /// The event of the synchronous hook a behaviour is running (layout, appearance,
    /// `traitCollectionDidChange`), what a request made there is caused by: its sequence plus
    /// one, 0 for none. Every such event is this recorder's, so its node need not be kept; an
    /// atomic word rather than a mutex, since a controller with a Swift or declarative behaviour
    /// sets and restores it around each of those hooks (two plain stores on x86, where a mutex
    /// took two lock operations a hook).
    private let hookSequence = Atomic<UInt64>(0)
    /// The transition of that hook's event plus one, 0 for none: a size walk's synchronous hook
    /// (`viewWillTransitionBeforeSuper`) is in one, a layout hook is not.
    private let hookTransition = Atomic<Int>(0)
    /// The slot of the child whose size a behaviour's `size(forChild:)` is being asked for
    /// (`beginAsking`), plus one, 0 for none: its `super` step looks there first, and takes the
    /// slot when the child there has the id it was handed — as it is whichever controller's
    /// `superSize` the hook reaches on the window's executor, and whatever value of the id it
    /// passes (the asking parent lends its child's own id, `Unmanaged.lendingID`, so comparing
    /// them is two words). Window-wide, as `hookSequence` is: the hook is synchronous. Kept here
    /// rather than in a box of the controller's, which was a heap block a controller between the
    /// blocks the walk reads (docs/performance.md, issue 28, fourth pass); one word, where the
    /// id's words and the asker were kept too before (seventh pass).
    private let askedChildSlot = Atomic<Int>(0)

    private struct Clock {
        var nextTransition = 1
        var simulatedSeconds = 0.0
        var windowSize = Size.zero
        var windowTraits = TraitCollection()
    }

    private let clock = Mutex(Clock())
    /// Where the transitions this node's controllers start come from when the window lives on
    /// another node (nil: the window is here).
    private let windowElsewhere = Mutex<(@Sendable (_ animated: Bool) async -> TransitionInfo?)?>(nil)
    /// Where the transitions this node's controllers start are ended when the window lives on
    /// another node: its node runs the coordinator blocks of every node in their order (SPEC §7).
    private let endsElsewhere = Mutex<(@Sendable (_ transition: TransitionInfo, _ cause: EventRef?) async -> Void)?>(nil)

    /// Each controller's container (R22). Kept here rather than in the controllers: an object
    /// that is referenced weakly gets a side table, through which every retain and release of it
    /// then goes — on every hop into a parent, about a tenth of a large transition — and a strong
    /// reference from child to container would be a cycle.
    /// Held strongly here, and let go by `releaseContainers()` when the window goes away.
    /// Indexed by the contained controller's interned trace name, which numbers the controllers
    /// of a recorder densely.
    private let containers = Mutex<[(any ControllerEndpoint)?]>([])

    /// Simulated seconds elapsed: the sum of the durations of the finished transitions.
    public var simulatedTime: Double { clock.withLock { $0.simulatedSeconds } }

    /// An environment recording to `recorder` (in memory by default).
    public init(recorder: TraceRecorder = TraceRecorder()) {
        self.recorder = recorder
    }

    /// The window's size and traits as they are now (between transitions: after the last one).
    public var window: (size: Size, traits: TraitCollection) {
        clock.withLock { ($0.windowSize, $0.windowTraits) }
    }

    /// Where the window is now: set by the window itself (and by tests of one controller).
    public func setWindow(size: Size, traits: TraitCollection) {
        clock.withLock {
            $0.windowSize = size
            $0.windowTraits = traits
        }
    }

    /// A new transition with the next id of this window, towards the given window geometry
    /// (nil: the window as it is).
    public func beginTransition(animated: Bool, windowSize: Size? = nil, windowTraits: TraitCollection? = nil) -> TransitionInfo {
        let (id, size, traits) = clock.withLock { clock in
            defer { clock.nextTransition += 1 }
            return (clock.nextTransition, windowSize ?? clock.windowSize, windowTraits ?? clock.windowTraits)
        }
        return TransitionInfo(
            id: id, isAnimated: animated, duration: animated ? Self.defaultTransitionDuration : 0,
            windowTraits: traits, windowSize: size)
    }

    /// The window lives on another node (a transport's worker): the transitions that controllers
    /// here start by themselves come from `window`, which numbers them and knows where the window
    /// is now — this node keeps no copy of either that could go stale.
    /// `end` ends them there, running the coordinator blocks registered on every node.
    public func takeTransitions(
        from window: @escaping @Sendable (_ animated: Bool) async -> TransitionInfo?,
        endingThem end: @escaping @Sendable (_ transition: TransitionInfo, _ cause: EventRef?) async -> Void
    ) {
        windowElsewhere.withLock { $0 = window }
        endsElsewhere.withLock { $0 = end }
        registrar.announceRegistrations()
    }

    /// Runs a synchronous hook of a behaviour as the handling of `event` (§4.2: what it requests
    /// names `event` as its cause). The window's controllers share one serial executor and a
    /// synchronous hook cannot be interleaved, so one slot serves them all; only the executor's
    /// running job reads or writes it, so relaxed ordering suffices.
    @inline(__always)
    func runHook(_ event: EventRef, transition: Int? = nil, _ body: () -> Void) {
        let outer = beginHook(event, transition: transition)
        body()
        endHook(outer)
    }

    /// The hook that `beginHook` interrupted, for `endHook` to put back.
    struct OuterHook {
        fileprivate let sequence: UInt64
        fileprivate let transition: Int
    }

    /// `runHook`'s first half, for a caller that calls the hook itself: a closure passed to
    /// `runHook` made the size walk copy the behaviour out of its settings to call it.
    @inline(__always)
    func beginHook(_ event: EventRef, transition: Int?) -> OuterHook {
        let outer = OuterHook(sequence: hookSequence.load(ordering: .relaxed), transition: hookTransition.load(ordering: .relaxed))
        hookSequence.store(event.sequence &+ 1, ordering: .relaxed)
        hookTransition.store(transition.map { $0 &+ 1 } ?? 0, ordering: .relaxed)
        return outer
    }

    /// `runHook`'s second half: puts back the hook `beginHook` interrupted.
    @inline(__always)
    func endHook(_ outer: OuterHook) {
        hookSequence.store(outer.sequence, ordering: .relaxed)
        hookTransition.store(outer.transition, ordering: .relaxed)
    }

    /// Starts asking a behaviour's `size(forChild:)` about the child in `slot`, kept for its
    /// `super` step (`askedChild`); returns the slot it interrupts (a hook that asks again,
    /// `sizeForChild`), for `endAsking`. Relaxed, as `runHook`: only the executor's running job
    /// reads it.
    @inline(__always)
    func beginAsking(at slot: Int) -> Int {
        let outer = askedChildSlot.load(ordering: .relaxed)
        askedChildSlot.store(slot &+ 1, ordering: .relaxed)
        return outer
    }

    /// Ends asking, putting back what `beginAsking` returned.
    @inline(__always)
    func endAsking(_ outer: Int) {
        askedChildSlot.store(outer, ordering: .relaxed)
    }

    /// The slot of the child being asked about (`beginAsking`), nil for none.
    @inline(__always)
    var askedChild: Int? {
        let stored = askedChildSlot.load(ordering: .relaxed)
        return stored == 0 ? nil : stored - 1
    }

    /// The event of the synchronous hook running now, if any, and its transition.
    var runningHook: (event: EventRef, transition: Int?)? {
        let stored = hookSequence.load(ordering: .relaxed)
        guard stored != 0 else { return nil }
        let transition = hookTransition.load(ordering: .relaxed)
        return (EventRef(node: recorder.node, sequence: stored - 1), transition == 0 ? nil : transition - 1)
    }

    /// Takes every request waiting here, in order: a single-controller test kit, which has no
    /// window to carry them out, reports them instead; a node without the window sends them to
    /// the conductor's.
    package func takeRequests() -> [QueuedRequest] {
        guard !requests.isEmpty else { return [] }
        var taken: [QueuedRequest] = []
        while let next = requests.next() { taken.append(next) }
        return taken
    }

    /// Queues a request that reached this node from a behaviour on another one (§4.2).
    public func enqueueRequest(_ request: QueuedRequest) {
        requests.append(request)
    }

    /// A transition a controller starts by itself, without a step's (a receipt, R25): the
    /// window's next number, towards the window's size and traits as they are now.
    public func beginOwnTransition(animated: Bool) async -> TransitionInfo {
        if let window = windowElsewhere.withLock({ $0 }), let transition = await window(animated) {
            return transition
        }
        return beginTransition(animated: animated)
    }

    /// Ends a transition: advances the simulated clock and runs the coordinator blocks (those
    /// registered on other nodes there, in their place in the order).
    public func finishTransition(_ info: TransitionInfo, cause: EventRef?, isolation: isolated (any Actor)? = #isolation) async {
        clock.withLock { $0.simulatedSeconds += info.duration }
        if let end = endsElsewhere.withLock({ $0 }) {
            await end(info, cause)
            return
        }
        await registrar.finish(info, recorder: recorder, cause: cause)
    }

    /// Runs the coordinator blocks of a transition another node started and ended (TWP/1
    /// `endTransition`): this node's, and those other nodes told it of, in their order.
    package func runCoordinatorBlocks(of info: TransitionInfo, cause: EventRef?, isolation: isolated (any Actor)? = #isolation) async {
        await registrar.finish(info, recorder: recorder, cause: cause)
    }

    /// The coordinator registrations made on this node (its window elsewhere) that the window's
    /// node has not been told of yet, in order (TWP/1 `coordinatorRegistration`).
    package func takeCoordinatorAnnouncements() -> [CoordinatorAnnouncement] {
        registrar.takeAnnouncements()
    }

    /// A registration a behaviour on another node made, which `run` runs there when the
    /// transition ends, in its place among this node's.
    package func registerBlocksElsewhere(_ announcement: CoordinatorAnnouncement, run: @escaping BlocksElsewhere) {
        registrar.registerElsewhere(announcement, run: run)
    }

    /// Runs `owner`'s next alongside or completion block of `info`, as the window's node asked
    /// (TWP/1 `coordinatorBlock`); false when `owner` registered no such block here.
    package func runRegisteredBlock(_ info: TransitionInfo, owner: ControllerID, completion: Bool, cause: EventRef?) -> Bool {
        registrar.runNext(info, owner: owner, completion: completion, recorder: recorder, cause: cause)
    }

    /// The container of the controller named `name`: where its preferred-size and fitting-size
    /// changes go.
    func container(of name: TraceName) -> (any ControllerEndpoint)? {
        containers.withLock { $0.indices.contains(name.position) ? $0[name.position] : nil }
    }

    /// Sets (nil: removes) the container of the controller named `name`.
    func setContainer(_ container: (any ControllerEndpoint)?, of name: TraceName) {
        containers.withLock { containers in
            if name.position >= containers.count {
                guard container != nil else { return }
                containers.append(contentsOf: repeatElement(nil, count: name.position + 1 - containers.count))
            }
            containers[name.position] = container
        }
    }

    /// Lets go of every container: the window these controllers belong to is gone. The
    /// controllers are then owned by their parents alone, and go with the root.
    public func releaseContainers() {
        let released = containers.withLock { containers in
            defer { containers.removeAll() }
            return containers
        }
        // Released outside the lock: a last release runs deinitialisers.
        withExtendedLifetime(released) {}
    }

    /// The coordinator handed to `owner`'s behaviour for `info`.
    func coordinator(for info: TransitionInfo, owner: ControllerID) -> TransitionCoordinator {
        TransitionCoordinator(info: info, registrar: registrar, owner: owner)
    }

    /// The duration UIKit uses for a rotation, used for every animated simulated transition.
    public static let defaultTransitionDuration = 0.3
}
