import Synchronization
import TrellisModel
import TrellisTrace

/// A view controller as an actor: its state, its behaviour, and the router's forwarding rules
/// (SPEC §3.1–§3.4) applied to its children and its presented chain.
public actor Controller: ManagedController, ViewControllerContext, BehaviorHost {
    /// The presentation this controller makes: the edge to the presentation controller (R6).
    struct PresentationSlot {
        var slot: ChildSlot
        let endpoint: any ControllerEndpoint
        /// Current-context styles inherit this controller's traits; the others the window's (R18).
        var inheritsPresenterTraits: Bool
    }

    // Declared in the order they are laid out: what a size transition touches on every hop
    // first, so a visit reads one or two cache lines of the actor besides its header — a large
    // hierarchy does not fit in the caches, and each line missed costs more than the work done.
    //
    // The router's state is read and written on every hop, and each access to an actor's stored
    // property is checked for exclusivity at run time by default (a thread-local look-up). The
    // actor already rules out concurrent access, and the router never keeps an access open across
    // a suspension (it copies what it needs, then awaits), so those checks are turned off here.
    @exclusivity(unchecked) var slots: [ChildSlot]
    /// The children themselves, in the order of `slots`.
    @exclusivity(unchecked) var endpoints: ChildEndpoints
    public let kind: ContainerKind
    /// UIKit's behaviour unchanged: the router does what super does without asking the behaviour,
    /// which is most controllers of a large hierarchy.
    let usesDefaultBehavior: Bool
    /// Whether the layout pass can give a child an origin other than (0,0) (R61).
    let placesChildren: Bool
    /// Whether `presentation` is set: the hot path tests this instead of the larger slot.
    @exclusivity(unchecked) var presents = false
    /// Whether `origin` is not (0,0): most controllers sit at their container's origin, and the
    /// layout pass tests this instead of touching `origin`, which is kept with the rarely used state.
    @exclusivity(unchecked) var isOffset = false
    /// The layout hooks known to be the behaviour's empty defaults (`DefaultHook` bits), copied
    /// from the settings once learned: the layout pass reads them here, in the line it already
    /// touches, instead of the settings' box (a cache miss a controller at 100k). Sits in what
    /// was padding before `traceName`: the controller is no larger.
    @exclusivity(unchecked) var defaultHooks: UInt8 = 0
    /// Whether a layout hook of the behaviour is running, and whether it set a child's frame
    /// (`setFrame(_:ofChild:)`) in this pass. Only a behaviour's hooks touch it, and it sits in
    /// the padding after `defaultHooks`: the controller is no larger.
    @exclusivity(unchecked) var layoutHookState = LayoutHookState()
    /// Whether `childOrigins` (in `extras`) has an entry: most containers put every child at
    /// (0,0), and the layout pass tests this byte, in the last byte of padding before
    /// `traceName`, instead of the box.
    @exclusivity(unchecked) var hasChildOrigins = false
    /// This controller's name in the trace recorder.
    let traceName: TraceName
    /// `selectedIndex` in the four bytes after `traceName`, which were padding: a child's index
    /// is below the slot count, and 2³¹ slots of 48 bytes would be 96 GiB.
    private var selectedSlot: Int32
    /// The index of the selected child (a tab bar controller's `selectedIndex`).
    public var selectedIndex: Int { Int(selectedSlot) }
    @exclusivity(unchecked) public private(set) var size: Size = .zero
    let environment: RuntimeEnvironment
    /// `environment.recorder`, one load closer.
    let recorder: TraceRecorder
    // Read on a size walk only by a controller with a Swift behaviour (`settings`, for the
    // behaviour, and its `id`, for the coordinator its hook is handed) and by its parent (the
    // child's `id`, which its behaviour's `size(forChild:)` is asked with): right after what
    // every walk reads, in the lines it already touches, rather than after the traits, where
    // the id straddled a third line (docs/performance.md, issue 28, fourth pass).
    /// The behaviour, grant policy and presentation settings: shared by every controller with
    /// the defaults, so a large hierarchy does not pay for what few controllers use.
    let settings: ControllerSettings
    /// The controller's id, readable from any actor.
    public nonisolated let id: ControllerID
    // Read by the default walk only in a container with columns (a split view).
    @exclusivity(unchecked) public private(set) var traitCollection: TraitCollection = .unspecified
    @exclusivity(unchecked) var pendingTraits: TraitCollection?
    /// Made by the first async message handed to the behaviour (`delivery`), then reused: no
    /// allocation a message. A behaviour run only synchronously by the walks never makes one.
    @exclusivity(unchecked) private var deliverySlot: DeliverySlot?

    // Rarely touched on a transition.
    /// What most controllers never set (origin away from (0,0), preferred size, trait
    /// overrides, presentation, children's origins, a behaviour's state), in one box made when
    /// the first of them is set.
    @exclusivity(unchecked) private var extras: OutOfLine<ControllerExtras>

    /// Where its container put it, in the container's coordinates, at its last layout (R60).
    public private(set) var origin: Point {
        get { isOffset ? extras.read(\.origin) ?? .zero : .zero }
        set { extras.modify(default: ControllerExtras()) { $0.origin = newValue } }
    }
    /// Its frame as its container last laid it out (R60).
    public var frame: Rect { Rect(origin: origin, size: size) }
    /// Where it put each child (R61), by slot; empty while every child is at (0,0), as in most
    /// containers, which then keep nothing.
    var childOrigins: [Point] {
        get { hasChildOrigins ? extras.read(\.childOrigins) ?? [] : [] }
        set {
            extras.modify(default: ControllerExtras()) { $0.childOrigins = newValue }
            hasChildOrigins = !newValue.isEmpty
        }
    }
    var traitOverrides: [ControllerID: TraitCollection] {
        get { extras.read(\.traitOverrides) ?? [:] }
        set { extras.modify(default: ControllerExtras()) { $0.traitOverrides = newValue } }
    }
    /// The size it asks its container for (UIKit's `preferredContentSize`).
    public private(set) var preferredContentSize: Size {
        get { extras.read(\.preferredContentSize) ?? .zero }
        set { extras.modify(default: ControllerExtras()) { $0.preferredContentSize = newValue } }
    }
    var behavior: any ViewControllerBehavior { settings.behavior }
    var grantPolicy: GrantPolicy { settings.grantPolicy }
    /// Where preferred-size and fitting-size changes go (R22): the parent, or the presentation
    /// controller when presented. Kept by the environment, not here: see `RuntimeEnvironment.container(of:)`.
    var container: (any ControllerEndpoint)? { environment.container(of: traceName) }
    var presentation: PresentationSlot? {
        get { presents ? extras.read(\.presentation) ?? nil : nil }
        set {
            extras.modify(default: ControllerExtras()) { $0.presentation = newValue }
            presents = newValue != nil
        }
    }
    /// What the behaviour keeps across messages (SPEC §4): most controllers keep nothing.
    public var state: BehaviorState {
        get { (extras.read(\.state) ?? nil) ?? BehaviorState() }
        set { extras.modify(default: ControllerExtras()) { $0.state = newValue } }
    }
    var delivery: Delivery? {
        get { deliverySlot?.current }
        set {
            if let deliverySlot {
                deliverySlot.current = newValue
            } else if newValue != nil {
                deliverySlot = DeliverySlot(newValue, owner: id)
            }
        }
    }

    /// The window's executor (`WindowExecutor`): a hop between two controllers of one window
    /// stays on it.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { environment.executor.unownedExecutor }

    init(description: ControllerDescription, children: [any ControllerEndpoint], environment: RuntimeEnvironment) {
        self.id = description.id
        self.kind = description.kind
        self.usesDefaultBehavior = description.behavior is DefaultBehavior
        self.placesChildren = ContainerRules.placesChildren(description.kind, layout: description.layout)
        self.traceName = environment.recorder.intern(description.id)
        self.environment = environment
        self.recorder = environment.recorder
        self.slots = children.map { ChildSlot($0, recorder: environment.recorder) }
        self.endpoints = ChildEndpoints(children)
        self.selectedSlot = Int32(clamping: description.selectedIndex)
        self.extras = OutOfLine(ControllerExtras.initial(description))
        let settings = ControllerSettings.make(description)
        self.settings = settings
        // What other controllers with this behaviour's shared settings already learned.
        self.defaultHooks = settings.learnedDefaultHooks
    }

    /// Its state as a window reads it: size, traits, preferred size and frame.
    public func snapshot() -> ControllerSnapshot {
        ControllerSnapshot(size: size, traitCollection: traitCollection, preferredContentSize: preferredContentSize, frame: frame)
    }

    package func makePresentationController(
        style: ModalPresentationStyle, containerSize: Size, traits: TraitCollection, windowSize: Size,
        profile: AdaptationProfile, popoverSource: @escaping @Sendable () async -> Rect?,
        wrapperChanged: @escaping @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void
    ) -> any ManagedPresentationController {
        // Only a custom presentation uses this controller's own presentation controller settings;
        // the built-in styles have UIKit's.
        PresentationController(
            presented: self, style: style,
            description: style == .custom ? settings.presentationDescription : PresentationControllerDescription(),
            delegate: settings.delegate,
            profile: profile, containerSize: containerSize, traits: traits, windowSize: windowSize,
            preferredContentSize: preferredContentSize, environment: environment, popoverSource: popoverSource,
            wrapperChanged: wrapperChanged)
    }

    package func setContainer(_ container: (any ControllerEndpoint)?) {
        environment.setContainer(container, of: traceName)
    }

    public var children: [ControllerID] { endpoints.ids }

    /// The frame this controller gave each child, for inspection and tests.
    public var childFrames: [ControllerID: Rect] {
        Dictionary(zip(endpoints.ids, slots.indices.map(childFrame(at:))), uniquingKeysWith: { first, _ in first })
    }

    /// The `setOverrideTraitCollection(_:forChild:)` values it set, by child.
    public var traitOverridesByChild: [ControllerID: TraitCollection] { traitOverrides }

    public func frame(ofChild child: ControllerID) -> Rect? {
        index(of: child).map(childFrame(at:))
    }

    /// The frame of the child in slot `index`: the origin this controller put it at, the size
    /// its layout applied.
    @inline(__always)
    func childFrame(at index: Int) -> Rect {
        guard hasChildOrigins else { return Rect(origin: .zero, size: slots[index].size) }
        let origins = childOrigins
        return Rect(origin: index < origins.count ? origins[index] : .zero, size: slots[index].size)
    }

    public func setOrigin(ofChild child: ControllerID, to origin: Point) {
        guard let index = index(of: child) else {
            misuse("setOrigin: \(child) is not a child of \(id)")
            return
        }
        setOrigin(origin, at: index)
    }

    /// Keeps `origin` for the child in slot `index`; `childOrigins` grows only for a container
    /// that places a child away from (0,0).
    private func setOrigin(_ origin: Point, at index: Int) {
        if childOrigins.count < slots.count {
            childOrigins.append(contentsOf: repeatElement(.zero, count: slots.count - childOrigins.count))
        }
        childOrigins[index] = origin
    }

    public func setFrame(_ frame: Rect, ofChild child: ControllerID) {
        guard layoutHookState.contains(.running) else {
            misuse("setFrame: called outside viewWillLayoutSubviews and viewDidLayoutSubviews (a frame is set when the view is laid out)")
            return
        }
        guard let index = index(of: child) else {
            misuse("setFrame: \(child) is not a child of \(id)")
            return
        }
        if let problem = BehaviorGeometry.problem(with: frame) {
            misuse("setFrame: \(frame) for \(child) is not a frame: \(problem)")
            return
        }
        setOrigin(frame.origin, at: index)
        slots[index].size = frame.size
        slots[index].framedByLayout = true
        // R10: the layout pass hands the child its frame; a child it does not show gets none.
        if defaultTargets.contains(index) { slots[index].announced = frame.size }
        layoutHookState.insert(.framedChild)
    }

    /// A first layout hands each child its frame directly: what `setFrame(_:ofChild:)` announced
    /// for the layout of a transition is not wanted here.
    private func clearFramedAnnouncements() {
        guard layoutHookState.contains(.framedChild) else { return }
        for index in slots.indices where slots[index].framedByLayout {
            slots[index].announced = nil
        }
        endFramedPass()
    }

    /// Ends what `setFrame(_:ofChild:)` marked in this pass: the frames stay, the marks go.
    private func endFramedPass() {
        guard layoutHookState.contains(.framedChild) else { return }
        layoutHookState.remove(.framedChild)
        for index in slots.indices where slots[index].framedByLayout {
            slots[index].framedByLayout = false
        }
    }

    /// Keeps the origin its container gave it (R60) without touching `origin` for the usual (0,0).
    @inline(__always)
    private func place(at newOrigin: Point) {
        guard newOrigin != .zero || isOffset else { return }
        origin = newOrigin
        isOffset = newOrigin != .zero
    }

    /// R61: the built-in placement of the children, from the sizes the layout pass applied.
    private func placeChildren() {
        guard placesChildren else { return }
        var origins = ContainerRules.origins(
            kind, layout: settings.layout, children: endpoints.ids, sizes: slots.map(\.size), visible: defaultTargets)
        // A frame the behaviour set earlier in this pass stands (`setFrame(_:ofChild:)`).
        if layoutHookState.contains(.framedChild) {
            for index in slots.indices where slots[index].framedByLayout && index < origins.count && index < childOrigins.count {
                origins[index] = childOrigins[index]
            }
        }
        childOrigins = origins
    }

    /// The presentation controller of what this controller presents, if any (R28).
    public var presentationControllerID: ControllerID? { presentation?.endpoint.id }

    // MARK: Recording

    @discardableResult
    func record(_ message: TraceMessage, cause: EventRef?, transition: Int? = nil) -> EventRef {
        recorder.record(message, controller: id, cause: cause, transition: transition)
    }

    private func index(of child: ControllerID) -> Int? {
        endpoints.firstIndex(of: child)
    }

    /// The traits the current transition moves to: a container with columns decides them with these.
    private var transitioningTraits: TraitCollection { pendingTraits ?? traitCollection }

    /// The children a default implementation forwards to: all, the top, the selected, or the
    /// visible columns, by container kind (SPEC §3.2).
    var defaultTargets: Range<Int> {
        ContainerRules.forwardTargets(kind, childCount: slots.count, selected: selectedIndex, horizontal: columnsSizeClass)
    }

    /// The horizontal size class a container decides its columns with; one without columns
    /// does not read its traits.
    private var columnsSizeClass: SizeClass {
        ContainerRules.hasColumns(kind) ? transitioningTraits.horizontalSizeClass : .unspecified
    }

    /// R8: what super would have forwarded to and did not — the default targets not reached by
    /// manual forwarding, and the presentation controller.
    func suppressedTargets(_ handled: Delivery) -> [ControllerID] {
        var cut = defaultTargets.filter { !handled.forwarded.contains($0) }.map { endpoints[$0].id }
        if let presentation { cut.append(presentation.endpoint.id) }
        return cut
    }

    private func misuse(_ text: String) {
        let cause = hookCause
        record(.error(text), cause: cause.event, transition: cause.transition)
    }

    // MARK: Size transitions (R1–R11)

    package func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async {
        let event = recorder.recordViewWillTransition(to: size, controller: traceName, cause: cause, transition: transition.id)
        noteSizeTransition()
        if !usesDefaultBehavior, defaultHooks & DefaultHook.synchronousViewWillTransition == 0 {
            // What another controller with these settings learned since this one last copied
            // them: without it, the first transition took the slow path below, and made a
            // `DeliverySlot`, on every controller.
            _ = learnedSynchronousViewWillTransition()
        }
        if usesDefaultBehavior || defaultHooks & DefaultHook.viewWillTransition.rawValue != 0 {
            await forwardSizeTransition(to: size, transition: transition, cause: event)
            return
        }
        if defaultHooks & DefaultHook.asyncViewWillTransition.rawValue != 0 {
            // What the default async hook does, without its async frames.
            guard runViewWillTransitionBeforeSuper(to: size, transition: transition, event: event) == .callSuper else { return }
            await forwardSizeTransition(to: size, transition: transition, cause: event)
            return
        }
        // `handle`'s two halves around a direct call, on the controller's slot: no closure's
        // async frame, and the slot is read once, not at each access of `delivery`.
        let slot = deliverySlot ?? makeDeliverySlot()
        let outer = slot.current
        slot.current = Delivery(message: .viewWillTransition, cause: event, transition: transition)
        await settings.behavior.viewWillTransition(to: size, with: environment.coordinator(for: transition, owner: slot.owner), in: self)
        // What the default implementation learned as it ran, if it did (`DefaultHook`).
        defaultHooks = settings.learnedDefaultHooks
        // Super called, as usual: put the outer delivery back without copying this one out.
        if slot.superCalled(.viewWillTransition) {
            slot.current = outer
            return
        }
        endHandling(.viewWillTransition, event: event, transition: transition, outer: outer)
    }

    /// Whether this controller made the slot async messages are handed to its behaviour in:
    /// what the test of a walk that needs none reads.
    package var madeDeliverySlot: Bool { deliverySlot != nil }

    /// Makes the slot the async size walk hands a Swift behaviour's messages in, the first
    /// time it does (the synchronous walk needs none).
    private func makeDeliverySlot() -> DeliverySlot {
        let made = DeliverySlot(nil, owner: id)
        deliverySlot = made
        return made
    }

    /// Runs the behaviour's `viewWillTransitionBeforeSuper` as a synchronous hook caused by
    /// `event` — what its default async hook would do before super, called synchronously — and
    /// records a suppression when it answers `.suppress` (R8). Returns its answer.
    func runViewWillTransitionBeforeSuper(to size: Size, transition: TransitionInfo, event: EventRef) -> SuperStep {
        // As a layout hook runs: what it notes or requests is caused by `event`, in `transition`.
        let hook = environment.beginHook(event, transition: transition.id)
        let step = settings.viewWillTransitionBeforeSuper(to: size, transition: transition, registrarNumber: environment.registrar.number, owner: id, in: self)
        environment.endHook(hook)
        defaultHooks = settings.learnedDefaultHooks
        if step == .suppress { recordSizeWalkSuppression(event: event, transition: transition) }
        return step
    }

    /// `viewWillTransitionBeforeSuper`'s `.suppress`, recorded (R8). Out of line: building the
    /// delivery it records gave the hook's runner, on every controller, a frame four times the
    /// size it needs.
    @inline(never)
    private func recordSizeWalkSuppression(event: EventRef, transition: TransitionInfo) {
        recordSuppression(Delivery(message: .viewWillTransition, cause: event, transition: transition))
    }

    public func superViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) async {
        guard let cause = superCalled(.viewWillTransition), !refuses(size, in: "superViewWillTransition") else { return }
        await forwardSizeTransition(to: size, transition: coordinator.info, cause: cause)
    }

    /// `superStep` for the size walk, marking super called in the delivery's slot in place
    /// rather than copying the delivery out and back; returns the cause to forward with.
    @inline(__always)
    private func superCalled(_ message: HandledMessage) -> EventRef? {
        guard let slot = deliverySlot, let cause = slot.markSuperCalled(message) else { return superStep(message)?.cause }
        return cause
    }

    public func forwardViewWillTransition(toChild child: ControllerID, size: Size, with coordinator: TransitionCoordinator) async {
        guard let index = index(of: child) else {
            misuse("forwardViewWillTransition: \(child) is not a child of \(id)")
            return
        }
        guard !refuses(size, in: "forwardViewWillTransition to \(child)") else { return }
        delivery?.forwarded.insert(index)
        slots[index].announced = size
        await endpoints[index].deliverViewWillTransition(to: size, transition: coordinator.info, cause: delivery?.cause)
    }

    public func sizeForChild(_ child: ControllerID, parentSize: Size) -> Size {
        guard let index = index(of: child) else {
            misuse("sizeForChild: \(child) is not a child of \(id)")
            return parentSize
        }
        guard !refuses(parentSize, in: "sizeForChild: \(child)'s parent size") else { return slots[index].size }
        // Caused by the hook asking, which may be a layout hook (SPEC §4.2).
        let cause = hookCause
        return askSize(forChildAt: index, parentSize: parentSize, cause: cause.event, transition: cause.transition)
    }

    func askSize(forChildAt index: Int, parentSize: Size, cause: EventRef?, transition: Int?) -> Size {
        let answer = sizeRule(forChildAt: index, parentSize: parentSize)
        recorder.recordSizeForChild(slots[index].name, parent: parentSize, answer: answer, controller: traceName, cause: cause, transition: transition)
        return answer
    }

    /// R2a: the size this container's layout gives the child in slot `index` outside a size
    /// transition (the first layout, a child that becomes visible) — the same rule its SFC
    /// answers with (a container keeps the two in step), taken without a query: UIKit asks SFC
    /// only from `viewWillTransition`.
    private func layoutSize(forChildAt index: Int, parentSize: Size) -> Size {
        sizeRule(forChildAt: index, parentSize: parentSize)
    }

    /// What this container's size rule answers for the child in slot `index`: the container's
    /// default (`ContainerRules`), or its behaviour's SFC. Untraced: the caller records the query
    /// when it is one (R2), and not when it is the layout's sizing rule (R2a).
    @inline(__always)
    func sizeRule(forChildAt index: Int, parentSize: Size) -> Size {
        if usesDefaultBehavior || defaultHooks & DefaultHook.sizeForChild.rawValue != 0 {
            return ContainerRules.defaultSize(kind, forChildAt: index, parentSize: parentSize, horizontal: columnsSizeClass)
        }
        // The child's id from the child itself (its line prefetched by the walk with the rest
        // of it), lent rather than copied.
        if let child = endpoints.unretainedLocal(at: index) {
            return child.lendingID { askBehavior(about: $0, at: index, parentSize: parentSize) }
        }
        return askBehavior(about: endpoints.id(at: index), at: index, parentSize: parentSize)
    }

    /// The behaviour's `size(forChild:)` about `child`, the child in slot `index`, with the slot
    /// kept for its `super` step (`RuntimeEnvironment.beginAsking`), which then need not search.
    @inline(__always)
    private func askBehavior(about child: borrowing ControllerID, at index: Int, parentSize: Size) -> Size {
        let outer = environment.beginAsking(at: index)
        let answer = settings.size(forChild: child, parentSize: parentSize, in: self)
        environment.endAsking(outer)
        defaultHooks = settings.learnedDefaultHooks
        guard BehaviorGeometry.isSize(answer) else { return refuse(answer, forChildAt: index, parentSize: parentSize) }
        return answer
    }

    /// A `size(forChild:)` answer that is not a size (`BehaviorGeometry`): an error line, and the
    /// default's answer instead.
    @inline(never)
    private func refuse(_ answer: Size, forChildAt index: Int, parentSize: Size) -> Size {
        let fallback = ContainerRules.defaultSize(kind, forChildAt: index, parentSize: parentSize, horizontal: columnsSizeClass)
        misuse("size(forChild: \(endpoints.id(at: index))) answered \(answer), which is not a size: \(BehaviorGeometry.problem(with: answer) ?? ""); the default's \(fallback) is used")
        return fallback
    }

    public func superSize(forChild child: ControllerID, parentSize: Size) -> Size {
        guard let index = askedSlot(for: child) ?? index(of: child) else { return parentSize }
        return ContainerRules.defaultSize(kind, forChildAt: index, parentSize: parentSize, horizontal: columnsSizeClass)
    }

    /// The slot of `child` when it is the child in the slot being asked about (`sizeRule`), else
    /// nil (the caller searches). A local child's id is compared lent: when the behaviour hands
    /// back the id it was asked with — that very value, lent by this controller — the two are
    /// equal in their two words, and nothing is copied.
    @inline(__always)
    private func askedSlot(for child: ControllerID) -> Int? {
        guard let asked = environment.askedChild, asked < endpoints.count else { return nil }
        let same = endpoints.unretainedLocal(at: asked).map { $0.lendingID { $0 == child } } ?? (endpoints.id(at: asked) == child)
        return same ? asked : nil
    }

    // MARK: Layout (R10)

    package func layout(frame: Rect, cause: EventRef?) async {
        await layOutChildren(beginLayout(frame: frame, cause: cause), from: 0)
    }

    /// `view.setNeedsLayout()` carried out (§4.2): the layout pass at the frame it has, its
    /// callbacks recorded although its size is the same. Each child it shows first takes the size
    /// its layout gives it (R2a, as at the first layout: the default's, or its behaviour's SFC
    /// answer, untraced) — its behaviour's layout hooks may then set frames instead — and a child
    /// whose size changed is laid out in turn (R10).
    package func layOutAgain(cause: EventRef?) async {
        let visible = defaultTargets
        for index in slots.indices where visible.contains(index) {
            let resized = layoutSize(forChildAt: index, parentSize: size)
            guard resized != slots[index].size else { continue }
            slots[index].size = resized
            slots[index].announced = resized
        }
        placeChildren()
        let event = layOutSubviews(frame: frame, cause: cause)
        let (first, last) = announcedRange()
        endFramedPass()
        await layOutChildren(LayoutPass(first: first, last: last, cause: event, presentation: nil), from: 0)
    }

    /// The layout pass up to its children (R10): the frames this controller gives (the announced
    /// sizes become current), then its callbacks — without allocating on this path. Returns what
    /// the children's part needs (`layOutChildren`).
    @inline(__always)
    func beginLayout(frame: Rect, cause: EventRef?) -> LayoutPass {
        let newSize = frame.size
        if ContainerRules.hasColumns(kind) { endSizeTransition() }
        place(at: frame.origin)
        var childFramesChanged = false
        var first = slots.count, last = -1
        for index in slots.indices {
            guard let announced = slots[index].announced else { continue }
            if announced != slots[index].size {
                slots[index].size = announced
                childFramesChanged = true
            }
            first = min(first, index)
            last = index
        }
        var presentationEndpoint: (any ControllerEndpoint)?
        if presents, let announced = presentation?.slot.announced {
            presentationEndpoint = presentation?.endpoint
            presentation?.slot.announced = nil
            presentation?.slot.size = announced
        }
        var layoutEvent = cause
        if newSize != size || childFramesChanged {
            size = newSize
            placeChildren()
            layoutEvent = layOutSubviews(frame: frame, cause: cause)
            if layoutHookState.contains(.framedChild) {
                // The behaviour set frames: those children are laid out too (R10), in order.
                (first, last) = announcedRange()
                endFramedPass()
            }
        }
        return LayoutPass(first: first, last: last, cause: layoutEvent, presentation: presentationEndpoint)
    }

    /// The first and last slots with a size to apply (`first > last` when none).
    private func announcedRange() -> (first: Int, last: Int) {
        var first = slots.count, last = -1
        for index in slots.indices where slots[index].announced != nil {
            first = min(first, index)
            last = index
        }
        return (first, last)
    }

    /// `viewWillLayoutSubviews` then `viewDidLayoutSubviews`; returns the first's event.
    /// `frame` is the pass's (the parameter, not `self.frame`, which reads the rarely used `origin`).
    private func layOutSubviews(frame: Rect, cause: EventRef?) -> EventRef {
        if usesDefaultBehavior || defaultHooks & DefaultHook.bothLayoutHooks == DefaultHook.bothLayoutHooks {
            return recorder.recordLayoutPair(controller: traceName, frame: frame, cause: cause)
        }
        let event = recorder.recordLayout(.viewWillLayoutSubviews, controller: traceName, frame: frame, cause: cause)
        layoutHook(.viewWillLayoutSubviews, event)
        let didEvent = recorder.recordLayout(.viewDidLayoutSubviews, controller: traceName, cause: cause)
        layoutHook(.viewDidLayoutSubviews, didEvent)
        return event
    }

    /// Runs a layout hook of the behaviour as the handling of `event`, unless its type is known
    /// to keep UIKit's, which does nothing (`DefaultHook`).
    private func layoutHook(_ which: DefaultHook, _ event: EventRef) {
        guard !usesDefaultBehavior, defaultHooks & which.rawValue == 0 else { return }
        layoutHookState.insert(.running)
        hook(event) {
            switch which {
            case .viewWillLayoutSubviews: behavior.viewWillLayoutSubviews(in: self)
            case .viewDidLayoutSubviews: behavior.viewDidLayoutSubviews(in: self)
            // Not layout hooks: the size walk learns and skips these itself.
            case .viewWillTransition, .sizeForChild, .asyncViewWillTransition: break
            }
        }
        layoutHookState.remove(.running)
        // What the default implementation learned as it ran, if it did.
        defaultHooks = settings.learnedDefaultHooks
    }

    /// Which of the size walk's hooks this controller has learned its behaviour keeps as UIKit's
    /// (`DefaultHook`) and no longer asks it: what the tests of that learning read.
    package var learnedSizeWalkDefaults: (viewWillTransition: Bool, sizeForChild: Bool) {
        (defaultHooks & DefaultHook.viewWillTransition.rawValue != 0, defaultHooks & DefaultHook.sizeForChild.rawValue != 0)
    }

    /// Called by the default implementation of `which` (UIKit's: nothing) as it runs for a
    /// behaviour of type `type`: when that is this controller's behaviour's own type, the
    /// method the runtime calls for this behaviour is that default, so it can be skipped from
    /// now on. (A wrapper behaviour whose own hook calls a wrapped behaviour's default is of
    /// another type, and is still called.)
    nonisolated func defaultHookRan(_ which: DefaultHook, for type: any ViewControllerBehavior.Type) {
        guard ObjectIdentifier(type) == ObjectIdentifier(Swift.type(of: settings.behavior)) else { return }
        settings.learnDefault(which)
    }

    package func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async {
        traitCollection = traits
        pendingTraits = nil
        let visible = defaultTargets
        var layoutEvent = cause
        let resized = frame.map { $0.size != size } ?? false
        if let frame {
            size = frame.size
            place(at: frame.origin)
            let willEvent = recorder.recordLayout(.viewWillLayoutSubviews, controller: traceName, frame: frame, cause: cause)
            layoutEvent = willEvent
            layoutHook(.viewWillLayoutSubviews, willEvent)
            // R2a: sized by the layout, without a query — unless the behaviour set the frame.
            for index in slots.indices where visible.contains(index) && !slots[index].framedByLayout {
                slots[index].size = layoutSize(forChildAt: index, parentSize: frame.size)
            }
            placeChildren()
            let didEvent = recorder.recordLayout(.viewDidLayoutSubviews, controller: traceName, cause: cause)
            layoutHook(.viewDidLayoutSubviews, didEvent)
            clearFramedAnnouncements()
        }
        for index in slots.indices {
            let childFrame: Rect? = frame != nil && visible.contains(index) ? childFrame(at: index) : nil
            await endpoints[index].initialLayout(
                frame: childFrame, traits: effectiveTraits(forChildAt: index, parentTraits: traits), cause: layoutEvent)
        }
        // What it presents in its context (R62: a current-context container view covers it)
        // follows a new size, as in a layout pass (R63): shown again after a rotation while its
        // tab was not, a context — this controller, or one below the one shown — re-frames it.
        if resized, let endpoint = presentation?.endpoint {
            presentation?.slot.size = size
            await endpoint.layout(frame: Rect(size), cause: layoutEvent)
        }
    }

    // MARK: Trait transitions (R13–R18)

    private func effectiveTraits(forChildAt index: Int, parentTraits: TraitCollection) -> TraitCollection {
        // Most controllers override nothing: then neither the child's id nor a look-up is needed.
        guard let overrides = extras.read(\.traitOverrides), !overrides.isEmpty else { return parentTraits }
        return parentTraits.overlaid(with: overrides[endpoints[index].id] ?? .unspecified)
    }

    package func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        for index in slots.indices { slots[index].traitWalked = false }
        presentation?.slot.traitWalked = false
        // R16: unchanged traits get no message, and the children, inheriting from this
        // controller, do not change either. The presented chain may (it inherits the window's).
        guard traits != traitCollection else {
            pendingTraits = nil
            await walkPresentationTraits(deliver: deliver, transition: transition, cause: cause)
            return
        }
        pendingTraits = traits
        guard deliver else {
            await walkTraits(to: traits, targets: defaultTargets, deliver: false, transition: transition, cause: cause)
            await walkPresentationTraits(deliver: false, transition: transition, cause: cause)
            return
        }
        let event = record(.willTransition(to: traits), cause: cause, transition: transition.id)
        let coordinator = environment.coordinator(for: transition, owner: id)
        let handled = await handle(.willTransition, event: event, transition: transition) {
            await behavior.willTransition(to: traits, with: coordinator, in: self)
        }
        if !handled.superCalled {
            // Suppression cuts off the messages, not the traits: what is below still changes, silently.
            await walkTraits(to: traits, targets: defaultTargets, deliver: false, transition: transition, cause: event)
            await walkPresentationTraits(deliver: false, transition: transition, cause: event)
        }
    }

    /// Sends the trait transition to the given children not yet reached in this pass.
    private func walkTraits(to traits: TraitCollection, targets: some Sequence<Int>, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        for index in targets where !slots[index].traitWalked {
            slots[index].traitWalked = true
            await endpoints[index].deliverTraitTransition(
                to: effectiveTraits(forChildAt: index, parentTraits: traits), deliver: deliver, transition: transition, cause: cause)
        }
    }

    /// R18: the presentation controller gets its environment's traits — this controller's for
    /// current-context styles, the window's otherwise.
    private func walkPresentationTraits(deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        guard let presentation, !presentation.slot.traitWalked else { return }
        self.presentation?.slot.traitWalked = true
        let environmentTraits = presentation.inheritsPresenterTraits ? transitioningTraits : transition.windowTraits
        await presentation.endpoint.deliverTraitTransition(to: environmentTraits, deliver: deliver, transition: transition, cause: cause)
    }

    public func superWillTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator) async {
        guard let current = superStep(.willTransition) else { return }
        await walkTraits(to: traits, targets: defaultTargets, deliver: true, transition: coordinator.info, cause: current.cause)
        await walkPresentationTraits(deliver: true, transition: coordinator.info, cause: current.cause)
    }

    public func forwardWillTransition(toChild child: ControllerID, with coordinator: TransitionCoordinator) async {
        guard let index = index(of: child) else {
            misuse("forwardWillTransition: \(child) is not a child of \(id)")
            return
        }
        delivery?.forwarded.insert(index)
        await walkTraits(to: transitioningTraits, targets: [index], deliver: true, transition: coordinator.info, cause: delivery?.cause)
    }

    package func applyPendingTraits(cause: EventRef?) async {
        var next = cause
        var columnsChanged = false
        if let traits = pendingTraits {
            pendingTraits = nil
            let previous = traitCollection
            traitCollection = traits
            columnsChanged = ContainerRules.columnsMayChange(kind, from: previous.horizontalSizeClass, to: traits.horizontalSizeClass)
            let event = record(.traitCollectionDidChange(previous: previous), cause: cause)
            next = event
            hook(event) { behavior.traitCollectionDidChange(previous: previous, in: self) }
        }
        for index in slots.indices where slots[index].traitWalked {
            slots[index].traitWalked = false
            await endpoints[index].applyPendingTraits(cause: next)
        }
        if let presentation, presentation.slot.traitWalked {
            self.presentation?.slot.traitWalked = false
            await presentation.endpoint.applyPendingTraits(cause: next)
        }
        if columnsChanged { await resizeColumns(cause: next) }
    }

    /// Notes, on a container with columns, that a size transition reached it (`resizeColumns`);
    /// nothing for any other kind.
    @inline(__always)
    func noteSizeTransition() {
        if ContainerRules.hasColumns(kind) { setSizeTransitionPending(true) }
    }

    /// The layout that applies a size transition ends it (`noteSizeTransition`).
    private func endSizeTransition() {
        if extras.read(\.sizeTransitionPending) == true { setSizeTransitionPending(false) }
    }

    @inline(never)
    private func setSizeTransitionPending(_ pending: Bool) {
        extras.modify(default: ControllerExtras()) { $0.sizeTransitionPending = pending }
    }

    /// A container whose columns may have collapsed or expanded (a split view), once its new
    /// traits are applied: when no size transition reached it in this environment change (a
    /// trait-only change, or a split whose own size did not change), its columns get their new
    /// sizes as receipts and a layout pass. When one did, its `viewWillTransition` already sized
    /// the columns of the traits it moves to (§3.2), skipping those whose size stays (R4), and
    /// the layout pass that follows applies them: asked again here with the size it had, a
    /// column that collapsed got the old window's width (docs/decisions.md, "A split view that
    /// collapses or expands without a size change").
    private func resizeColumns(cause: EventRef?) async {
        guard extras.read(\.sizeTransitionPending) != true else { return }
        var resized: [(index: Int, size: Size)] = []
        for index in defaultTargets where slots[index].announced == nil {
            let answer = askSize(forChildAt: index, parentSize: size, cause: cause, transition: nil)
            if answer != slots[index].size { resized.append((index, answer)) }
        }
        await resize(resized, cause: cause)
    }

    /// R25's receipt sequence, in a transition of its own: `viewWillTransition` to each child
    /// whose size changes, then the layout pass that applies the sizes. Nothing when no size changes.
    private func resize(_ children: [(index: Int, size: Size)], cause: EventRef?) async {
        let changed = children.filter { $0.size != slots[$0.index].size }
        guard !changed.isEmpty else { return }
        await receipt(cause: cause, announce: { transition in
            for child in changed {
                slots[child.index].announced = child.size
                await endpoints[child.index].deliverViewWillTransition(to: child.size, transition: transition, cause: cause)
            }
        }, layOut: { await layout(frame: frame, cause: cause) })
    }

    /// `setOverrideTraitCollection(_:forChild:)`: changes the child's override (nil removes it)
    /// and, when that changes the child's effective traits, runs a trait transition on its subtree.
    package func setOverrideTraitCollection(_ traits: TraitCollection?, forChild child: ControllerID, transition: TransitionInfo, cause: EventRef?) async throws(RuntimeError) {
        guard let index = index(of: child) else { throw .notAChild(child, of: id) }
        traitOverrides[child] = traits
        // A child this container does not show (another tab, below a navigation controller's
        // top, a collapsed split's secondary) gets no transition, as hidden children get none:
        // it takes the traits, and `traitCollectionDidChange` if they changed, when it is shown.
        guard defaultTargets.contains(index) else { return }
        let childTraits = effectiveTraits(forChildAt: index, parentTraits: traitCollection)
        await endpoints[index].deliverTraitTransition(to: childTraits, deliver: true, transition: transition, cause: cause)
        await endpoints[index].applyPendingTraits(cause: cause)
    }

    // MARK: Preferred content size (R22–R27)

    /// Sets `preferredContentSize`; a different value goes to the container, one level up (R22).
    package func setPreferredContentSize(_ newSize: Size, cause: EventRef?) async {
        guard newSize != preferredContentSize else { return }
        preferredContentSize = newSize
        await container?.deliverPreferredContentSizeDidChange(forChild: id, preferredSize: newSize, cause: cause)
    }

    /// Tells the container that this controller's fitting size changed (R27).
    package func notifySystemLayoutFittingSizeDidChange(cause: EventRef?) async {
        await container?.deliverSystemLayoutFittingSizeDidChange(forChild: id, cause: cause)
    }

    package func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async {
        let event = record(.preferredContentSizeDidChange(child: child), cause: cause)
        await handle(.preferredContentSizeDidChange, event: event, transition: nil, recordsSuppression: false) {
            await behavior.preferredContentSizeDidChange(forChild: child, preferredSize: preferredSize, in: self)
        }
    }

    public func superPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size) async {
        guard let index = index(of: child) else {
            misuse("preferredContentSizeDidChange: \(child) is not a child of \(id)")
            return
        }
        let granted = grantPolicy.grantedSize(current: slots[index].size, requested: preferredSize)
        await resize(child: child, to: granted)
    }

    public func resize(child: ControllerID, to newSize: Size) async {
        guard let index = index(of: child) else {
            misuse("resize: \(child) is not a child of \(id)")
            return
        }
        guard !refuses(newSize, in: "resize \(child)") else { return }
        await resize([(index, newSize)], cause: delivery?.cause)
    }

    package func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async {
        let event = record(.systemLayoutFittingSizeDidChange(child: child), cause: cause)
        await handle(.systemLayoutFittingSizeDidChange, event: event, transition: nil, recordsSuppression: false) {
            await behavior.systemLayoutFittingSizeDidChange(forChild: child, in: self)
        }
    }

    public func note(_ text: String) {
        let cause = hookCause
        record(.note(text), cause: cause.event, transition: cause.transition)
    }

    // MARK: Actions and requests (SPEC §4.2)

    /// Runs a hook that has no super step as the handling of `event`, so that what it requests
    /// names it as the cause (no allocation: `RuntimeEnvironment.runHook`). UIKit's own hooks of
    /// this kind do nothing, so the default behaviour skips them, as before.
    private func hook(_ event: EventRef, _ body: () -> Void) {
        guard !usesDefaultBehavior else { return }
        environment.runHook(event, body)
    }

    public func request(_ request: BehaviorRequest) {
        enqueue(request, from: id)
    }

    package func perform(action: String, value: ActionValue?, cause: EventRef) async -> ActionOutcome {
        let behavior = behavior
        return await deliverAction(value: value, expected: behavior.valueType(forAction: action), event: cause) {
            await behavior.perform(action: action, value: value, in: self)
        }
    }

    // MARK: Appearance (R42)

    /// An appearance callback, forwarded to the visible children as UIKit's containers do.
    package func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        let event = record(.appearance(callback), cause: cause)
        hook(event) {
            switch callback {
            case .viewWillAppear: behavior.viewWillAppear(in: self)
            case .viewDidAppear: behavior.viewDidAppear(in: self)
            case .viewWillDisappear: behavior.viewWillDisappear(in: self)
            case .viewDidDisappear: behavior.viewDidDisappear(in: self)
            }
        }
        let visible = ContainerRules.forwardTargets(kind, childCount: slots.count, selected: selectedIndex, horizontal: traitCollection.horizontalSizeClass)
        for index in visible {
            await endpoints[index].deliverAppearance(callback, cause: event)
        }
    }

    // MARK: Structure changes (present, push, pop, select, showDetail)

    package func attachPresentation(_ presentationController: any ControllerEndpoint, inheritsPresenterTraits: Bool) {
        presentation = PresentationSlot(
            slot: ChildSlot(presentationController, recorder: recorder, size: size), endpoint: presentationController,
            inheritsPresenterTraits: inheritsPresenterTraits)
    }

    /// A new adaptive wrapper (R49) takes the place of the controller it wraps: same size and
    /// traits, the wrapped controller filling it.
    func adoptAsWrapper(of frame: Rect, traits: TraitCollection) {
        size = frame.size
        place(at: frame.origin)
        traitCollection = traits
        for index in slots.indices { slots[index].size = frame.size }
    }

    package func detachPresentation() {
        presentation = nil
    }

    /// Adds `child` at the end (a push onto a navigation stack, a split view's first detail);
    /// `showChild(at:cause:)` sizes it once it is about to appear.
    package func appendChild(_ child: any ControllerEndpoint) {
        slots.append(ChildSlot(child, recorder: recorder))
        endpoints.append(child)
    }

    /// Removes the last child (a pop); the root of a navigation stack stays.
    package func removeLastChild() {
        guard slots.count > 1 else { return }
        slots.removeLast()
        endpoints.removeLast()
        if childOrigins.count > slots.count { childOrigins.removeLast(childOrigins.count - slots.count) }
    }

    /// Replaces the child at `index` (a split view's secondary column).
    package func replaceChild(at index: Int, with child: any ControllerEndpoint) {
        guard slots.indices.contains(index) else { return }
        slots[index] = ChildSlot(child, recorder: recorder)
        endpoints[index] = child
        if index < childOrigins.count { childOrigins[index] = .zero }
    }

    package func select(index: Int, cause: EventRef?) async {
        guard slots.indices.contains(index) else { return }
        selectedSlot = Int32(clamping: index)
        await showChild(at: index, cause: cause)
    }

    /// A child becomes visible: sized by this container's layout (R2a: no query) and laid out,
    /// its traits brought up to date (with `traitCollectionDidChange` when they changed while it was away).
    package func showChild(at index: Int, cause: EventRef?) async {
        guard slots.indices.contains(index) else { return }
        slots[index].size = layoutSize(forChildAt: index, parentSize: size)
        placeChildren()
        await endpoints[index].refresh(frame: childFrame(at: index), traits: effectiveTraits(forChildAt: index, parentTraits: traitCollection), cause: cause)
    }

    /// Brings a controller that becomes visible to its container's size and traits: traits that
    /// changed while it was away arrive with `traitCollectionDidChange` (here and below), a new
    /// size with a layout. A controller appearing for the first time is laid out as at start.
    package func refresh(frame newFrame: Rect, traits: TraitCollection, cause: EventRef?) async {
        place(at: newFrame.origin)
        guard traitCollection != .unspecified else {
            await initialLayout(frame: newFrame, traits: traits, cause: cause)
            return
        }
        if traits != traitCollection {
            let previous = traitCollection
            traitCollection = traits
            let event = record(.traitCollectionDidChange(previous: previous), cause: cause)
            hook(event) { behavior.traitCollectionDidChange(previous: previous, in: self) }
            for index in defaultTargets {
                await endpoints[index].refresh(
                    frame: childFrame(at: index), traits: effectiveTraits(forChildAt: index, parentTraits: traits), cause: event)
            }
        }
        guard newFrame.size != size else { return }
        await initialLayout(frame: newFrame, traits: traitCollection, cause: cause)
    }
}

extension Controller {
    /// A controller on its own, whose children and presentation controller are whatever
    /// endpoints the caller gives — the test kit's probes. Not for building hierarchies: a
    /// `Window` does that.
    package static func standalone(
        _ description: ControllerDescription, children: [any ControllerEndpoint], presentationController: (any ControllerEndpoint)?,
        presentationInheritsTraits: Bool = false, environment: RuntimeEnvironment
    ) async -> Controller {
        let controller = Controller(description: description, children: children, environment: environment)
        if let presentationController {
            await controller.attachPresentation(presentationController, inheritsPresenterTraits: presentationInheritsTraits)
        }
        return controller
    }

}

/// A controller's behaviour, grant policy and presentation settings, boxed: they are read only
/// off the router's fast path, and most controllers of a large hierarchy have the defaults and
/// share one box, so a controller carries a pointer instead of some seventy bytes.
final class ControllerSettings: Sendable {
    let behavior: any ViewControllerBehavior
    /// `behavior`'s size hooks compiled for its type, made once a box.
    let sizeHooks: SizeHooks
    let grantPolicy: GrantPolicy
    let presentationDescription: PresentationControllerDescription
    let delegate: (any AdaptivePresentationDelegate)?
    let layout: ChildLayout
    /// The layout hooks `behavior`'s type is known to keep UIKit's (empty) implementation of,
    /// by `DefaultHook` bit: learned as the defaults run, then skipped. Only the controller's
    /// actor writes it; atomic because the settings are shared by reference.
    private let defaultHooks = Atomic<UInt8>(0)

    private init(
        behavior: any ViewControllerBehavior, grantPolicy: GrantPolicy,
        presentationDescription: PresentationControllerDescription, delegate: (any AdaptivePresentationDelegate)?,
        layout: ChildLayout
    ) {
        self.behavior = behavior
        self.sizeHooks = behavior._sizeHooks()
        self.grantPolicy = grantPolicy
        self.presentationDescription = presentationDescription
        self.delegate = delegate
        self.layout = layout
    }

    private static let defaults = ControllerSettings(
        behavior: DefaultBehavior(), grantPolicy: .none, presentationDescription: PresentationControllerDescription(), delegate: nil,
        layout: .overlay)

    /// `behavior`'s `viewWillTransitionBeforeSuper`, with what its coordinator is made of.
    @inline(__always)
    func viewWillTransitionBeforeSuper(
        to size: Size, transition: TransitionInfo, registrarNumber: Int, owner: ControllerID, in vc: isolated Controller
    ) -> SuperStep {
        sizeHooks.beforeSuper(size, transition, registrarNumber, owner, vc)
    }

    /// `behavior`'s `size(forChild:parentSize:in:)`, called on the behaviour where it is kept.
    @inline(__always)
    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated Controller) -> Size {
        sizeHooks.sizeForChild(child, parentSize, vc)
    }

    /// The `DefaultHook` bits of the hooks `behavior` is known to leave as the defaults.
    var learnedDefaultHooks: UInt8 {
        defaultHooks.load(ordering: .relaxed)
    }

    func learnDefault(_ which: DefaultHook) {
        defaultHooks.bitwiseOr(which.rawValue, ordering: .relaxed)
    }

    static func make(_ description: ControllerDescription) -> ControllerSettings {
        let presentation = description.presentationController
        let otherwiseDefault = description.grant == .none && description.adaptiveDelegate == nil
            && description.layout == .overlay
            && presentation.behavior is DefaultPresentationBehavior && presentation.grant == nil
            && presentation.overrideTraitCollection == nil && presentation.shouldPresentInFullscreen && !presentation.shouldRemovePresentersView
        if otherwiseDefault {
            if description.behavior is DefaultBehavior { return defaults }
            if let shared = sharedForStateless(description.behavior) { return shared }
        }
        return ControllerSettings(
            behavior: description.behavior, grantPolicy: description.grant,
            presentationDescription: presentation, delegate: description.adaptiveDelegate, layout: description.layout)
    }

    /// One box for every controller whose behaviour is of a type without stored properties (most
    /// Swift behaviours: what they keep is in `vc.state`), with the other settings the defaults:
    /// every value of such a type is the same, so a hierarchy of them shares one box, as default
    /// controllers share `defaults`, instead of a box and its cache line a controller.
    private static func sharedForStateless(_ behavior: some ViewControllerBehavior) -> ControllerSettings? {
        guard MemoryLayout.size(ofValue: behavior) == 0 else { return nil }
        let type = ObjectIdentifier(Swift.type(of: behavior))
        return statelessBoxes.withLock { boxes in
            if let box = boxes[type] { return box }
            let box = ControllerSettings(
                behavior: behavior, grantPolicy: .none, presentationDescription: PresentationControllerDescription(), delegate: nil,
                layout: .overlay)
            boxes[type] = box
            return box
        }
    }

    /// The shared boxes of `sharedForStateless`, by behaviour type: one a type, kept for the
    /// life of the process.
    private static let statelessBoxes = Mutex<[ObjectIdentifier: ControllerSettings]>([:])
}

/// The synchronous hooks a controller learns its behaviour leaves as UIKit's (empty) default, so
/// that a Swift behaviour that overrides only what it needs costs no more than the default
/// behaviour on the layout pass (SPEC §4.1). Learned from the default implementation itself
/// (`Controller.defaultHookRan`): Swift offers no other way to ask whether a type implements a
/// protocol requirement.
enum DefaultHook: UInt8 {
    case viewWillLayoutSubviews = 1
    case viewDidLayoutSubviews = 2
    /// `viewWillTransition` left as UIKit's (super only): the size walk forwards without asking.
    case viewWillTransition = 4
    /// `size(forChild:)` left as UIKit's (super only): the size walk answers with the container's rule.
    case sizeForChild = 8
    /// The async `viewWillTransition` left as the default, which runs the synchronous
    /// `viewWillTransitionBeforeSuper`: the synchronous walk may run that itself.
    case asyncViewWillTransition = 16

    /// Both layout hooks known to be the defaults: the layout pass then records its two
    /// callbacks as the default behaviour does (`recordLayoutPair`).
    static let bothLayoutHooks = viewWillLayoutSubviews.rawValue | viewDidLayoutSubviews.rawValue

    /// Either size-walk bit that lets the synchronous walk take `viewWillTransition`: the hook
    /// is UIKit's, or only its synchronous form is the behaviour's own.
    static let synchronousViewWillTransition = viewWillTransition.rawValue | asyncViewWillTransition.rawValue
}

/// What a controller's layout hooks are doing (`Controller.layoutHookState`), in one byte.
struct LayoutHookState: OptionSet {
    let rawValue: UInt8

    /// A layout hook of the behaviour is running: `setFrame(_:ofChild:)` is allowed.
    static let running = LayoutHookState(rawValue: 1)
    /// The behaviour set a child's frame in this pass (some slot is `framedByLayout`).
    static let framedChild = LayoutHookState(rawValue: 2)
}
