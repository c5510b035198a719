import TrellisModel
import TrellisTrace

/// A presentation controller as an actor (`pc:P`): it sits between a presenter and the
/// controller it presents, sizes that controller for its style (R3, R7), adapts it to compact
/// environments (R48–R52) and answers its preferred-size requests (R24).
public actor PresentationController: ManagedPresentationController, PresentationControllerContext, BehaviorHost {
    public nonisolated let id: ControllerID
    public nonisolated let presentedID: ControllerID
    public let presentationStyle: ModalPresentationStyle
    /// `.none` while not adapted.
    public private(set) var adaptiveStyle: ModalPresentationStyle = .none
    let description: PresentationControllerDescription
    let delegate: (any AdaptivePresentationDelegate)?
    let profile: AdaptationProfile
    let environment: RuntimeEnvironment
    /// The presented controller itself, kept while an adaptive wrapper displays it.
    let presented: any ControllerEndpoint
    /// What the container shows: the presented controller, or its wrapper while adapted.
    var displayed: ChildSlot
    /// Where its frame puts what it shows, in the container view's coordinates (R63).
    var displayedOrigin: Point = .zero
    /// The controller `displayed` stands for.
    var displayedEndpoint: any ControllerEndpoint
    /// The navigation controller wrapping the presented controller while adapted (R49).
    public private(set) var wrapper: Controller?
    /// The id of the navigation controller wrapping the presented controller while adapted (R49).
    public var wrapperID: ControllerID? { wrapper?.id }
    public private(set) var size: Size
    var pendingSize: Size?
    /// Its traits: the presented controller's environment.
    public private(set) var traitCollection: TraitCollection
    var pendingTraits: TraitCollection?
    var windowSize: Size
    var presentedPreferredSize: Size
    /// The size `size(forPresented:)` last gave what it displays (R7), before R63's frame; at
    /// presentation, its answer taken without a query (R2a).
    public private(set) var presentedViewSize: Size = .zero
    /// Whether a size transition told what it displays `presentedViewSize` (R7): only then can
    /// its frame disagree with it (R63's warning). Nothing is told at presentation (R2a).
    var presentedViewSizeTold = false
    /// A size the presentation controller itself gives what it displays in the next layout pass
    /// (a grant, a style change): unlike R7's announcement, it sets the frame's size.
    var resizingDisplayed: Size?
    /// Whether the presented view was placed at its frame in the container layout under way (R63).
    var placedInLayout = false
    /// Its own `size(forPresented:)` calls made while its frame is asked, recorded after the
    /// frame query they are nested in (R2a); nil when no frame is being asked.
    var queriesInFrame: [(parent: Size, answer: Size)]?
    /// The container view's bounds at the last layout pass: a change lays the container out.
    var laidOutContainer: Rect?
    /// Where a popover presentation points from, in window coordinates, asked at each layout.
    let popoverSource: @Sendable () async -> Rect?
    public private(set) var popoverSourceRect: Rect?
    public var state = BehaviorState()
    var delivery: Delivery?
    /// The transition in which the adaptive style last changed, and the last one that brought a
    /// size: a style change without a size transition resizes the presented controller itself.
    var adaptedInTransition: Int?
    var lastSizeTransition: Int?
    /// Tells the window when the adaptive wrapper comes or goes, so its structure stays true.
    let wrapperChanged: @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void

    /// The window's executor (`WindowExecutor`), shared with its controllers.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { environment.executor.unownedExecutor }

    package init(
        presented: any ControllerEndpoint, style: ModalPresentationStyle, description: PresentationControllerDescription,
        delegate: (any AdaptivePresentationDelegate)?, profile: AdaptationProfile, containerSize: Size, traits: TraitCollection,
        windowSize: Size, preferredContentSize: Size, environment: RuntimeEnvironment,
        popoverSource: @escaping @Sendable () async -> Rect? = { nil },
        wrapperChanged: @escaping @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void
    ) {
        self.popoverSource = popoverSource
        self.id = ControllerID.presentationController(of: presented.id)
        self.presentedID = presented.id
        self.presented = presented
        self.presentationStyle = style
        self.description = description
        self.delegate = delegate
        self.profile = profile
        self.size = containerSize
        self.traitCollection = traits
        self.windowSize = windowSize
        self.presentedPreferredSize = preferredContentSize
        self.environment = environment
        self.displayed = ChildSlot(presented, recorder: environment.recorder)
        self.displayedEndpoint = presented
        self.wrapperChanged = wrapperChanged
    }

    public var displayedID: ControllerID { displayedEndpoint.id }
    public var style: ModalPresentationStyle { adaptiveStyle == .none ? presentationStyle : adaptiveStyle }
    /// The presented view's (or wrapper's) frame in the container view's coordinates (R60, R63).
    public var presentedViewFrame: Rect { Rect(origin: displayedOrigin, size: displayed.size) }

    public var containerViewBounds: Rect {
        PresentationRules.containerBounds(
            style: style, customPresentsInFullscreen: description.shouldPresentInFullscreen, windowSize: windowSize, contextSize: size)
    }

    /// A custom presentation while adapted to another style is sized and placed by that style's
    /// built-in rules, not by its behaviour (UIKit hands an adapted presentation to the adaptive
    /// style's own presentation logic; decisions.md).
    private var behaviourPlacesPresented: Bool {
        !(presentationStyle == .custom && adaptiveStyle != .none)
    }

    /// Whether the presenter's views are removed while this presentation is shown (R41).
    public var removesPresenterViews: Bool {
        PresentationRules.removesPresenterViews(style, customRemovesPresentersView: description.shouldRemovePresentersView)
    }

    @discardableResult
    func record(_ message: TraceMessage, cause: EventRef?, transition: Int? = nil) -> EventRef {
        environment.recorder.record(message, controller: id, cause: cause, transition: transition)
    }

    private var transitioningTraits: TraitCollection { pendingTraits ?? traitCollection }

    private func presentedTraits(_ environmentTraits: TraitCollection) -> TraitCollection {
        environmentTraits.overlaid(with: description.overrideTraitCollection ?? .unspecified)
    }

    /// R8: a presentation controller forwards only to what it displays.
    func suppressedTargets(_ handled: Delivery) -> [ControllerID] {
        [displayedEndpoint.id]
    }

    public func note(_ text: String) {
        let cause = hookCause
        record(.note(text), cause: cause.event, transition: cause.transition)
    }

    // MARK: Presentation and dismissal callbacks

    /// The coordinator handed to `presentationTransitionWillBegin` / `dismissalTransitionWillBegin`.
    public private(set) var transitionCoordinator: TransitionCoordinator?

    package func transitionCallback(_ callback: PresentationCallback, value: Bool, transition: TransitionInfo?, cause: EventRef?) {
        let event = record(.presentationTransition(callback, value: value), cause: cause)
        let behavior = description.behavior
        transitionCoordinator = transition.map { environment.coordinator(for: $0, owner: id) }
        handleNow(.transitionCallback, event: event) {
            switch callback {
            case .presentationTransitionWillBegin: behavior.presentationTransitionWillBegin(in: self)
            case .presentationTransitionDidEnd: behavior.presentationTransitionDidEnd(completed: value, in: self)
            case .dismissalTransitionWillBegin: behavior.dismissalTransitionWillBegin(in: self)
            case .dismissalTransitionDidEnd: behavior.dismissalTransitionDidEnd(completed: value, in: self)
            }
        }
        transitionCoordinator = nil
    }

    // The super steps of the hooks whose UIKit implementation does nothing: each only checks it
    // is called from its own hook (a misplaced call is an error in the trace).
    public func superPresentationTransitionWillBegin() { _ = superStep(.transitionCallback) }
    public func superPresentationTransitionDidEnd(completed: Bool) { _ = superStep(.transitionCallback) }
    public func superDismissalTransitionWillBegin() { _ = superStep(.transitionCallback) }
    public func superDismissalTransitionDidEnd(completed: Bool) { _ = superStep(.transitionCallback) }
    public func superContainerViewDidLayoutSubviews() { _ = superStep(.containerViewDidLayoutSubviews) }

    // MARK: Actions and requests (SPEC §4.2)

    public func request(_ request: BehaviorRequest) {
        enqueue(request, from: id)
    }

    package func perform(action: String, value: ActionValue?, cause: EventRef) async -> ActionOutcome {
        let behavior = description.behavior
        return await deliverAction(value: value, expected: behavior.valueType(forAction: action), event: cause) {
            await behavior.perform(action: action, value: value, in: self)
        }
    }

    /// Gives the presented view (or its wrapper) `frame` now, as UIKit code setting
    /// `presentedView.frame` does: recorded as the frame the container view shows, and what it
    /// displays is laid out when its size changes. It holds, autoresized with the container view,
    /// until this presentation controller's own code places it again (§4.2, R63).
    package func setPresentedViewFrame(_ frame: Rect, cause: EventRef?) async {
        let event = record(.frameOfPresentedView(frame), cause: cause)
        let resized = frame.size != displayed.size
        let moved = frame.origin != displayedOrigin
        displayedOrigin = frame.origin
        displayed.size = frame.size
        if style == .custom, presentedViewSizeTold, frame.size != presentedViewSize {
            record(.warning(PresentationRules.frameWarning(displayedEndpoint.id, frame: frame, told: presentedViewSize, source: .setByBehavior)), cause: event)
        }
        // Moved only, the view takes its new origin and lays nothing out (a frame's origin is not
        // its bounds): the layout call records its callbacks only for a new size (R10).
        if resized || moved { await displayedEndpoint.layout(frame: presentedViewFrame, cause: event) }
    }

    /// R51: adaptation when presenting into an environment that is already compact.
    package func adaptForPresentation(cause: EventRef?) async {
        await adapt(to: traitCollection, cause: cause, atPresentation: true)
    }

    /// Gives what it displays its traits, silently, before it appears.
    package func prepareDisplayed() async {
        await displayedEndpoint.initialLayout(frame: nil, traits: presentedTraits(traitCollection), cause: nil)
    }

    /// Sizes and lays out what it displays, the first time: the transition gives it the frame
    /// R62 answers, its final frame (R63), and asks no size (R2a). Its `size(forPresented:)`
    /// answer, taken without a query, is what a frame rule sizes that frame with.
    package func initialPresentationLayout(cause: EventRef?) async {
        presentedViewSize = layoutSize(parentSize: size)
        presentedViewSizeTold = false
        displayed.size = presentedViewSize
        let event = await layOutContainerView(cause: cause, presenting: true)
        await displayedEndpoint.initialLayout(frame: presentedViewFrame, traits: presentedTraits(traitCollection), cause: event)
    }

    /// The container view's layout callbacks (R63): its bounds change first (what it displays is
    /// autoresized with them), then `containerViewWillLayoutSubviews` (a built-in style's super,
    /// or a custom behaviour's own code, places the presented view at its frame again), then
    /// `containerViewDidLayoutSubviews`; returns the first's event. At presentation the
    /// transition gives the presented view its frame if that hook did not.
    private func layOutContainerView(cause: EventRef?, presenting: Bool) async -> EventRef {
        let previous = laidOutContainer
        laidOutContainer = containerViewBounds
        if let previous, !presenting {
            let resized = PresentationRules.autoresizedFrame(presentedViewFrame, from: previous.size, to: containerViewBounds.size)
            displayedOrigin = resized.origin
            displayed.size = resized.size
        }
        popoverSourceRect = style == .popover ? await popoverSource() : nil  // only a popover in effect is placed by its source
        // The container view covers its context (the window, or the context controller): its
        // frame there is its bounds.
        let event = record(.layout(.containerViewWillLayoutSubviews, frame: laidOutContainer), cause: cause)
        placedInLayout = false
        handleNow(.containerViewWillLayoutSubviews, event: event) {
            description.behavior.containerViewWillLayoutSubviews(in: self)
        }
        if presenting, !placedInLayout { placePresentedView(cause: event) }
        warnIfFrameDisagrees(placed: placedInLayout, cause: event)
        let didEvent = record(.layout(.containerViewDidLayoutSubviews), cause: cause)
        handleNow(.containerViewDidLayoutSubviews, event: didEvent) {
            description.behavior.containerViewDidLayoutSubviews(in: self)
        }
        return event
    }

    /// R63: UIKit's built-in presentation controllers place the presented view again; a custom
    /// one's default leaves it where it is, autoresized with the container view.
    public func superContainerViewWillLayoutSubviews() {
        guard PresentationRules.reappliesFrameOnLayout(style) else { return }
        placePresentedView(cause: delivery?.cause)
    }

    public func applyFrameOfPresentedViewInContainerView() {
        guard delivery?.message == .containerViewWillLayoutSubviews else {
            let cause = hookCause
            record(.error("applyFrameOfPresentedViewInContainerView called outside containerViewWillLayoutSubviews (elsewhere, setPresentedViewFrame)"),
                   cause: cause.event, transition: cause.transition)
            return
        }
        placePresentedView(cause: delivery?.cause)
    }

    /// Asks `frameOfPresentedViewInContainerView` (the query event, R63) and places what it
    /// displays there; the behaviour's own size queries made meanwhile are recorded under it (R2a).
    private func placePresentedView(cause: EventRef?) {
        let outer = queriesInFrame
        queriesInFrame = []
        let frame = frameOfPresentedViewInContainerView()
        let nested = queriesInFrame ?? []
        queriesInFrame = outer
        let event = record(.frameOfPresentedView(frame), cause: cause)
        for query in nested {
            record(.sizeForChild(child: displayedEndpoint.id, parent: query.parent, answer: query.answer), cause: event)
        }
        displayedOrigin = frame.origin
        displayed.size = frame.size
        placedInLayout = true
    }

    /// R63: a custom presentation whose presented view's frame — placed by its frame, or kept and
    /// autoresized — does not match the size its `sizeForChild` told the presented controller.
    private func warnIfFrameDisagrees(placed: Bool, cause: EventRef?) {
        guard style == .custom, presentedViewSizeTold, displayed.size != presentedViewSize else { return }
        let text = PresentationRules.frameWarning(
            displayedEndpoint.id, frame: presentedViewFrame, told: presentedViewSize, source: placed ? .query : .autoresized)
        record(.warning(text), cause: cause)
    }

    public func sizeForPresented(parentSize: Size) -> Size {
        guard !refuses(parentSize, in: "sizeForPresented: the parent size") else { return displayed.size }
        let answer = layoutSize(parentSize: parentSize)
        if queriesInFrame != nil {
            queriesInFrame?.append((parentSize, answer))
        } else {
            // Caused by the hook asking (SPEC §4.2).
            let cause = hookCause
            record(.sizeForChild(child: displayedEndpoint.id, parent: parentSize, answer: answer), cause: cause.event, transition: cause.transition)
        }
        return answer
    }

    public func frameOfPresentedViewInContainerView() -> Rect {
        guard behaviourPlacesPresented else { return superFrameOfPresentedViewInContainerView() }
        let frame = description.behavior.frameOfPresentedViewInContainerView(in: self)
        // Not a frame: an error line, and the default's frame (`BehaviorGeometry`).
        return refuses(frame, in: "frameOfPresentedViewInContainerView answered") ? superFrameOfPresentedViewInContainerView() : frame
    }

    public func superFrameOfPresentedViewInContainerView() -> Rect {
        PresentationRules.frameOfPresentedView(
            style: style, container: containerViewBounds, presentedSize: presentedViewSize, popoverSource: popoverSourceRect)
    }

    package func presentationState() -> PresentationState {
        PresentationState(
            removesPresenterViews: removesPresenterViews, displayedID: displayedEndpoint.id, style: style,
            coversContext: PresentationRules.isContextStyle(style, customPresentsInFullscreen: description.shouldPresentInFullscreen),
            containerViewBounds: containerViewBounds, presentedViewFrame: presentedViewFrame)
    }

    package func deliverDisplayedAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        await displayedEndpoint.deliverAppearance(callback, cause: cause)
    }

    // MARK: Size transitions (R6, R7)

    package func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async {
        let event = record(.viewWillTransition(to: size), cause: cause, transition: transition.id)
        pendingSize = size
        windowSize = transition.windowSize
        lastSizeTransition = transition.id
        let coordinator = environment.coordinator(for: transition, owner: id)
        await handle(.viewWillTransition, event: event, transition: transition) {
            await description.behavior.viewWillTransition(to: size, with: coordinator, in: self)
        }
    }

    public func superViewWillTransition(to size: Size, with coordinator: TransitionCoordinator) async {
        guard let current = superStep(.viewWillTransition), !refuses(size, in: "superViewWillTransition") else { return }
        let answer = askSize(parentSize: size, cause: current.cause, transition: current.transition?.id)
        presentedViewSize = answer
        presentedViewSizeTold = true
        // R4 applies to this edge too: it is decided by SFC.
        guard answer != displayed.size else { return }
        displayed.announced = answer
        await displayedEndpoint.deliverViewWillTransition(to: answer, transition: coordinator.info, cause: current.cause)
    }

    private func askSize(parentSize: Size, cause: EventRef?, transition: Int?) -> Size {
        let answer = layoutSize(parentSize: parentSize)
        record(.sizeForChild(child: displayedEndpoint.id, parent: parentSize, answer: answer), cause: cause, transition: transition)
        return answer
    }

    /// What `size(forPresented:)` answers (the adapted style's size while adapted), unrecorded.
    private func layoutSize(parentSize: Size) -> Size {
        guard behaviourPlacesPresented else { return superSize(forPresentedWithParentSize: parentSize) }
        let answer = description.behavior.size(forPresented: displayedEndpoint.id, parentSize: parentSize, in: self)
        // Not a size: an error line, and the default's answer (`BehaviorGeometry`).
        return refuses(answer, in: "size(forPresented: \(displayedEndpoint.id)) answered") ? superSize(forPresentedWithParentSize: parentSize) : answer
    }

    public func superSize(forPresentedWithParentSize parentSize: Size) -> Size {
        PresentationRules.presentedSize(
            style: style, windowSize: windowSize, containerSize: parentSize,
            preferredContentSize: presentedPreferredSize, traits: transitioningTraits)
    }

    /// The layout pass (R10, R63): `frame` is the presenter's bounds. The container view is laid
    /// out when its bounds or the presented size changed — a form sheet that keeps its size is
    /// still re-centred on rotation — and what it displays is laid out when it was announced a
    /// size or its frame's size changed. An announcement does not move the presented view: its
    /// frame is autoresized with the container view unless the layout places it again (R63).
    package func layout(frame: Rect, cause: EventRef?) async {
        size = frame.size
        pendingSize = nil
        let announced = displayed.announced
        displayed.announced = nil
        let resized = resizingDisplayed
        resizingDisplayed = nil
        let sizeBefore = displayed.size
        if let announced { presentedViewSize = announced }
        guard announced.map({ $0 != sizeBefore }) ?? false || laidOutContainer != containerViewBounds else {
            if announced != nil { await displayedEndpoint.layout(frame: presentedViewFrame, cause: cause) }
            return
        }
        if let resized { displayed.size = resized }
        let event = await layOutContainerView(cause: cause, presenting: false)
        if announced != nil || displayed.size != sizeBefore {
            await displayedEndpoint.layout(frame: presentedViewFrame, cause: event)
        }
    }

    package func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async {
        traitCollection = traits
        if let frame { self.size = frame.size }
    }

    package func refresh(frame: Rect, traits: TraitCollection, cause: EventRef?) async {}

    package func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {}

    /// A presentation controller's place is fixed by its presenter; nothing to change.
    package func setContainer(_ container: (any ControllerEndpoint)?) async {}

    // MARK: Trait transitions (R13, R18, R48–R52)

    package func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        displayed.traitWalked = false
        windowSize = transition.windowSize
        guard traits != traitCollection else {
            // Nothing changes here or in what it shows, but what that presents may (R18).
            pendingTraits = nil
            await walkDisplayed(environmentTraits: traits, deliver: deliver, transition: transition, cause: cause)
            return
        }
        pendingTraits = traits
        guard deliver else {
            await walkDisplayed(environmentTraits: traits, deliver: false, transition: transition, cause: cause)
            return
        }
        let event = record(.willTransition(to: traits), cause: cause, transition: transition.id)
        let coordinator = environment.coordinator(for: transition, owner: id)
        let handled = await handle(.willTransition, event: event, transition: transition) {
            await description.behavior.willTransition(to: traits, with: coordinator, in: self)
        }
        if !handled.superCalled {
            // Neither forwards nor adapts; the traits below still change, silently.
            await walkDisplayed(environmentTraits: traits, deliver: false, transition: transition, cause: event)
        }
    }

    public func superWillTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator) async {
        guard let current = superStep(.willTransition) else { return }
        // R48: a change of size class makes the presentation controller ask for its adaptive style.
        if PresentationRules.asksAgainForAdaptiveStyle(from: traitCollection, to: traits, profile: profile) {
            let before = style
            await adapt(to: traits, cause: current.cause, atPresentation: false)
            if style != before { adaptedInTransition = coordinator.info.id }
        }
        await walkDisplayed(environmentTraits: traits, deliver: true, transition: coordinator.info, cause: current.cause)
    }

    private func walkDisplayed(environmentTraits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        guard !displayed.traitWalked else { return }
        displayed.traitWalked = true
        await displayedEndpoint.deliverTraitTransition(
            to: presentedTraits(environmentTraits), deliver: deliver, transition: transition, cause: cause)
    }

    /// Asks the delegate (or the profile's table) for the adaptive style and switches to it,
    /// installing or removing the navigation wrapper (R49, R52).
    private func adapt(to traits: TraitCollection, cause: EventRef?, atPresentation: Bool) async {
        guard PresentationRules.asksForAdaptiveStyle(presentationStyle, hasDelegate: delegate != nil) else { return }
        // At presentation, a regular environment has nothing to adapt and nothing to ask (R51).
        if atPresentation, !PresentationRules.isCompactForAdaptation(traits, profile: profile) { return }
        let answer = PresentationRules.adaptiveStyle(
            for: presentationStyle, traits: traits, profile: profile, answer: delegate?.adaptivePresentationStyle(for: self, traitCollection: traits))
        let adapted = answer == presentationStyle ? .none : answer
        record(.adaptivePresentationStyle(answer), cause: cause)
        let wantsWrapper = adapted != .none && delegate?.viewControllerForAdaptivePresentationStyle(adapted, in: self) == .navigationController
        if wantsWrapper, wrapper == nil {
            await installWrapper(cause: cause)
        } else if !wantsWrapper, wrapper != nil {
            await removeWrapper()
        }
        record(.willPresentWithAdaptiveStyle(adapted), cause: cause)
        adaptiveStyle = adapted
    }

    private func installWrapper(cause: EventRef?) async {
        let wrapperID = ControllerID.adaptiveWrapper(of: presentedID)
        let navigation = Controller(
            description: ControllerDescription(wrapperID, kind: .navigation, children: [presentedID]),
            children: [presented], environment: environment)
        await navigation.adoptAsWrapper(of: presentedViewFrame, traits: traitCollection)
        await presented.setContainer(navigation)
        await navigation.setContainer(self)
        wrapper = navigation
        displayed = ChildSlot(navigation, recorder: environment.recorder, size: displayed.size)
        displayedEndpoint = navigation
        await wrapperChanged(navigation, presentedID)
    }

    private func removeWrapper() async {
        guard let navigation = wrapper else { return }
        let size = await navigation.childFrames[presentedID]?.size ?? displayed.size
        await presented.setContainer(self)
        wrapper = nil
        displayed = ChildSlot(presented, recorder: environment.recorder, size: size)
        // While wrapped, the presented controller's preferred-size changes went to the wrapper:
        // back in its own presentation, its current preferred size counts again.
        if let managed = presented as? any ManagedController {
            presentedPreferredSize = await managed.snapshot().preferredContentSize
        }
        displayedEndpoint = presented
        await wrapperChanged(nil, presentedID)
    }

    package func applyPendingTraits(cause: EventRef?) async {
        var next = cause
        if let traits = pendingTraits {
            pendingTraits = nil
            let previous = traitCollection
            traitCollection = traits
            next = record(.traitCollectionDidChange(previous: previous), cause: cause)
        }
        if displayed.traitWalked {
            displayed.traitWalked = false
            await displayedEndpoint.applyPendingTraits(cause: next)
        }
        // The style changed in a trait-only transition: nothing else will resize the presented
        // controller for its new style, so do it now, as a receipt and a layout (R52, §3.5).
        if let adapted = adaptedInTransition, adapted != lastSizeTransition {
            adaptedInTransition = nil
            let answer = askSize(parentSize: size, cause: next, transition: adapted)
            await resizeDisplayed(to: answer, cause: next)
        }
        adaptedInTransition = nil
    }

    // MARK: Preferred content size (R22–R26)

    package func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async {
        let event = record(.preferredContentSizeDidChange(child: child), cause: cause)
        if child == presentedID { presentedPreferredSize = preferredSize }
        await handle(.preferredContentSizeDidChange, event: event, transition: nil, recordsSuppression: false) {
            await description.behavior.preferredContentSizeDidChange(forChild: child, preferredSize: preferredSize, in: self)
        }
    }

    public func superPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size) async {
        let policy = description.grant
            ?? PresentationRules.defaultGrant(style: style, windowSize: windowSize, traits: traitCollection)
        let granted = policy.grantedSize(current: displayed.size, requested: preferredSize)
        await resizeDisplayed(to: granted, cause: delivery?.cause)
    }

    /// R25: a `viewWillTransition` receipt to what it displays, then a layout pass — nothing
    /// when the size does not change.
    private func resizeDisplayed(to newSize: Size, cause: EventRef?) async {
        guard newSize != displayed.size else { return }
        await receipt(cause: cause, announce: { transition in
            displayed.announced = newSize
            resizingDisplayed = newSize
            await displayedEndpoint.deliverViewWillTransition(to: newSize, transition: transition, cause: cause)
        }, layOut: { await layout(frame: Rect(size), cause: cause) })
    }

    package func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async {
        record(.systemLayoutFittingSizeDidChange(child: child), cause: cause)
    }
}
