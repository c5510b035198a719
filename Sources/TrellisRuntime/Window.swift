import TrellisModel
import TrellisTrace

/// Something that happens to a window, processed one at a time in arrival order (UIKit's
/// main-thread rule), so a run's trace is deterministic. It is also what a scenario step names
/// (`ScenarioStep.event`): a new step is a case here (with its header text and what the window
/// does with it) and its file syntax in `Sources/TrellisScenario/ScenarioSteps.swift`.
public enum WindowEvent: Sendable, Equatable {
    /// The window is resized (R1).
    case resizeWindow(Size)
    /// The window's traits change, merged into the current ones (R13).
    case setTraits(TraitCollection)
    /// One environment change carrying a new size, new traits or both at once, as a rotation
    /// does (R14).
    case transition(size: Size?, traits: TraitCollection?)
    /// A controller sets its `preferredContentSize` (R22).
    case setPreferredContentSize(ControllerID, Size)
    /// A container sets or (with nil) removes the trait override of one child (R17).
    case setTraitOverride(container: ControllerID, child: ControllerID, traits: TraitCollection?)
    /// A controller's fitting size changed (R27).
    case systemLayoutFittingSizeDidChange(ControllerID)
    /// `from.present(presented, animated:)`, with the step's style if it names one (§3.5).
    case present(ControllerID, from: ControllerID, animated: Bool, style: ModalPresentationStyle?)
    /// `controller.dismiss(animated:)` (§3.6).
    case dismiss(ControllerID, animated: Bool)
    /// `from.show(shown, sender:)` (R55).
    case show(ControllerID, from: ControllerID)
    /// `from.showDetailViewController(shown, sender:)` (R56, R57).
    case showDetail(ControllerID, from: ControllerID)
    /// A navigation controller pushes a controller.
    case push(ControllerID, onto: ControllerID)
    /// A navigation controller pops its top controller.
    case pop(ControllerID)
    /// A tab bar controller selects a child.
    case select(tab: ControllerID, index: Int)
    /// A named user action, with an optional value, for the behaviour of a controller or of a
    /// presentation controller (`pc:P`) (SPEC §4.2): a tap, a gesture, the keyboard, a timer.
    case action(String, on: ControllerID, value: ActionValue?)
    /// A storyboard segue performed (SPEC §11): its id, and what it does to which fresh copy of
    /// its destination.
    case performSegue(String, SegueAction)

    /// One environment change (R1, R13, R14), as the step that says it: a new size alone is
    /// `resizeWindow`, new traits alone `setTraits`, anything else `transition`.
    public static func environmentChange(size: Size?, traits: TraitCollection?) -> WindowEvent {
        switch (size, traits) {
        case let (size?, nil): return .resizeWindow(size)
        case let (nil, traits?): return .setTraits(traits)
        case let (size, traits): return .transition(size: size, traits: traits)
        }
    }
}

extension WindowEvent {
    /// What is wrong with a value the event carries, nil when nothing is: a size that is no
    /// view's size (`BehaviorGeometry`: not a number, infinite or negative), traits that are not
    /// (`TraitCollection.problem`: a display scale out of range) or an action value that is not
    /// JSON (RFC 8259: a number is finite). A scenario file can carry none of them; Swift code
    /// can (the test kit, a window used directly), and the window refuses the event then.
    public var valueProblem: String? {
        switch self {
        case let .resizeWindow(size):
            return Self.windowProblem(size: size, traits: nil)
        case let .transition(size, traits):
            return Self.windowProblem(size: size, traits: traits)
        case let .setTraits(traits):
            return Self.windowProblem(size: nil, traits: traits)
        case let .setTraitOverride(_, child, traits?):
            return traits.problem.map { "\(child)'s override traits: \($0)" }
        case let .setPreferredContentSize(id, size):
            return BehaviorGeometry.problem(with: size).map { "\(id)'s preferred content size \(size): \($0)" }
        case let .action(name, _, value?):
            return value.isJSON ? nil : "action \(name): its value must be JSON — a number cannot be infinite or NaN (RFC 8259)"
        case .setTraitOverride(_, _, nil), .systemLayoutFittingSizeDidChange, .present, .dismiss, .show, .showDetail,
             .push, .pop, .select, .action(_, _, nil), .performSegue:
            return nil
        }
    }

    /// What is wrong with a window's size or traits (either may be left out), nil when nothing is:
    /// for an event that changes them and for a window described (`HierarchyDescription.validate`).
    public static func windowProblem(size: Size?, traits: TraitCollection?) -> String? {
        size.flatMap { size in BehaviorGeometry.problem(with: size).map { "the window's size \(size): \($0)" } }
            ?? traits?.problem.map { "the window's traits: \($0)" }
    }
}

extension WindowEvent: CustomStringConvertible {
    /// As a scenario step's header names it (`== step N: <this>`: `resizeWindow 568x320`,
    /// `present P from R animated`); the golden traces keep these words.
    public var description: String {
        switch self {
        case let .resizeWindow(size): return "resizeWindow \(size)"
        case let .setTraits(traits): return "setTraits \(traits.specifiedDescription)"
        case let .transition(size, traits):
            return "transition" + (size.map { " \($0)" } ?? "") + (traits.map { " \($0.specifiedDescription)" } ?? "")
        case let .present(presented, from, animated, style):
            return "present \(presented) from \(from)" + (style.map { " style: \($0.rawValue)" } ?? "") + (animated ? " animated" : "")
        case let .dismiss(id, animated): return "dismiss \(id)" + (animated ? " animated" : "")
        case let .show(id, from): return "show \(id) from \(from)"
        case let .showDetail(id, from): return "showDetail \(id) from \(from)"
        case let .push(id, onto): return "push \(id) onto \(onto)"
        case let .pop(id): return "pop \(id)"
        case let .select(tab, index): return "select \(tab) index \(index)"
        case let .setPreferredContentSize(id, size): return "setPreferredContentSize \(id) \(size)"
        case let .setTraitOverride(container, child, traits):
            return "setTraitOverride \(container) child \(child) " + (traits.map(\.specifiedDescription) ?? "removed")
        case let .systemLayoutFittingSizeDidChange(id): return "systemLayoutFittingSizeDidChange \(id)"
        case let .action(name, target, value): return "action \(name) on \(target)" + (value.map { " value \($0)" } ?? "")
        case let .performSegue(segue, action): return "performSegue \(segue): \(action)"
        }
    }
}

/// A window and its controller hierarchy: the entry point of every environment change and the
/// serial queue of its events. Different windows run concurrently.
public actor Window {
    /// What the window's controllers share: the recorder, the coordinator, the clock.
    public nonisolated let environment: RuntimeEnvironment
    /// The id of its root controller.
    public nonisolated let rootID: ControllerID
    /// Which UIKit generation's presentation defaults and adaptation apply.
    public nonisolated let profile: AdaptationProfile
    let root: any ManagedController
    /// Every controller of the window, local or (with a transport) a stand-in for a remote one.
    var controllers: WindowControllers
    var presentationControllers: [ControllerID: any ManagedPresentationController] = [:]
    /// Presenters whose views a covering presentation removed (R41): they have disappeared, and
    /// reappear when it is dismissed. Appearance callbacks stay paired through chains.
    var coveredPresenters = Set<ControllerID>()
    /// Who presents whom, who is whose parent: the source of every presentation decision.
    public private(set) var structure: HierarchyStructure
    /// Which copies a scenario's segues made, for a segue performed after going back.
    private let segueCopies: SegueCopyLineage
    /// Its size in points.
    public private(set) var size: Size
    /// Its traits (its screen's).
    public private(set) var traits: TraitCollection
    private var started = false

    /// A queued event and who waits for it.
    private struct Envelope: Sendable {
        var event: WindowEvent
        /// The scenario step it is, whose header goes first.
        var step: Int?
        var done: CheckedContinuation<Result<Void, RuntimeError>, Never>
    }

    private var mailbox: SerialMailbox<Envelope>?

    /// The executor this window's controllers run on (`WindowExecutor`): handing an event to the
    /// root needs no switch either.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { environment.executor.unownedExecutor }

    /// Builds every controller of `hierarchy` as an actor and wires them; nothing runs yet.
    public init(_ hierarchy: HierarchyDescription, environment: RuntimeEnvironment = RuntimeEnvironment()) async throws(RuntimeError) {
        try await self.init(hierarchy, environment: environment, remote: { _ in nil })
    }

    /// The same, with a transport: `remote` gives a stand-in for each controller that lives on
    /// another node (nil: here).
    package init(
        _ hierarchy: HierarchyDescription, environment: RuntimeEnvironment,
        remote: @Sendable (ControllerID) -> (any ManagedController)?
    ) async throws(RuntimeError) {
        let byID = try hierarchy.validate()
        self.environment = environment
        self.rootID = hierarchy.root
        self.profile = hierarchy.profile
        self.size = hierarchy.windowSize
        self.traits = hierarchy.windowTraits
        environment.setWindow(size: hierarchy.windowSize, traits: hierarchy.windowTraits)
        let built = await ControllerFactory.buildTable(
            byID, order: hierarchy.controllers.map(\.id), environment: environment, remote: remote)
        self.controllers = built
        // Made once the controllers have interned their names: the structure finds its nodes
        // through the recorder's index of them, as `controllers` does.
        self.structure = hierarchy.structure(names: environment.recorder)
        self.segueCopies = SegueCopyLineage(copiedFrom: hierarchy.copiedFrom, order: hierarchy.controllers.lazy.map(\.id))
        // validate() proved the root present, so the fallback is never taken.
        self.root = built[hierarchy.root] ?? Controller(description: ControllerDescription(hierarchy.root), children: [], environment: environment)
    }

    deinit {
        environment.releaseContainers()
    }

    /// The controller named `id`, for inspection (a controller of this node).
    public func controller(_ id: ControllerID) throws(RuntimeError) -> Controller {
        guard let controller = controllers[id] as? Controller else { throw .unknownController(id) }
        return controller
    }

    /// Every controller of the window as the window drives it (stand-ins included), for a
    /// transport that serves them to other nodes.
    package var managedControllers: [ControllerID: any ManagedController] { controllers.dictionary }

    /// The controller named `id` as the window drives it (a stand-in included), nil when there
    /// is none: one look-up, where `managedControllers` builds a dictionary of them all.
    package func managedController(_ id: ControllerID) -> (any ManagedController)? { controllers[id] }

    private func managed(_ id: ControllerID) throws(RuntimeError) -> any ManagedController {
        guard let controller = controllers[id] else { throw .unknownController(id) }
        return controller
    }

    /// The presentation controller presenting `presented`, if it is presented here, for inspection.
    public func presentationController(presenting presented: ControllerID) -> PresentationController? {
        presentationControllers[presented] as? PresentationController
    }

    /// Lays the hierarchy out at the window's size and traits: the initial layout, recorded
    /// before any step. Called once; later calls do nothing.
    public func start() async {
        guard !started else { return }
        started = true
        // Weak: the window owns its mailbox; a strong capture would keep both alive forever.
        // Whoever waits in `perform` holds the window, so a queued event is always handled.
        mailbox = SerialMailbox { [weak self] envelope in
            await self?.process(envelope)
        }
        await root.initialLayout(frame: Rect(size), traits: traits, cause: nil)
        await carryOutRequests()
    }

    /// Queues `event` behind the window's earlier events and waits until it and everything it
    /// caused has been handled. `step` records the header `== step N: <event>` first. An event
    /// carrying a value that is not one (`WindowEvent.valueProblem`) is refused before anything
    /// happens (`RuntimeError.invalidValue`).
    public func perform(_ event: WindowEvent, step: Int? = nil) async throws(RuntimeError) {
        if let problem = event.valueProblem { throw .invalidValue(problem) }
        await start()
        guard let mailbox else { throw .windowClosed }
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, RuntimeError>, Never>) in
            if !mailbox.send(Envelope(event: event, step: step, done: done)) {
                done.resume(returning: .failure(.windowClosed))
            }
        }
        try result.get()
    }

    /// True when no event is queued or running: nothing more will arrive by itself.
    public var isQuiescent: Bool {
        mailbox?.isQuiescent ?? true
    }

    private func process(_ envelope: Envelope) async {
        let event = await performedAsShown(envelope.event)
        var cause: EventRef?
        if let step = envelope.step {
            cause = environment.recorder.beginStep(step, description: event.description)
        }
        do {
            try await handle(event, cause: cause)
            await carryOutRequests()
            envelope.done.resume(returning: .success(()))
        } catch {
            environment.recorder.record(.error(error.description), controller: rootID, cause: cause)
            await carryOutRequests()
            envelope.done.resume(returning: .failure(error))
        }
    }

    private func handle(_ event: WindowEvent, cause: EventRef?) async throws(RuntimeError) {
        switch event {
        case let .resizeWindow(newSize):
            await changeEnvironment(size: newSize, traits: traits, cause: cause)
        case let .setTraits(traitChange):
            await changeEnvironment(size: size, traits: traits.overlaid(with: traitChange), cause: cause)
        case let .transition(newSize, traitChange):
            await changeEnvironment(size: newSize ?? size, traits: traits.overlaid(with: traitChange ?? .unspecified), cause: cause)
        case let .setPreferredContentSize(id, preferred):
            try await managed(id).setPreferredContentSize(preferred, cause: cause)
        case let .setTraitOverride(containerID, child, override):
            let container = try managed(containerID)
            let transition = environment.beginTransition(animated: false)
            try await container.setOverrideTraitCollection(override, forChild: child, transition: transition, cause: cause)
            await environment.finishTransition(transition, cause: cause)
        case let .systemLayoutFittingSizeDidChange(id):
            try await managed(id).notifySystemLayoutFittingSizeDidChange(cause: cause)
        case let .present(presented, from, animated, style):
            try await present(presented, from: from, animated: animated, style: style, cause: cause)
        case let .dismiss(id, animated):
            try await dismiss(from: id, animated: animated, cause: cause)
        case let .show(shown, from):
            try await show(shown, from: from, detail: false, cause: cause)
        case let .showDetail(shown, from):
            try await show(shown, from: from, detail: true, cause: cause)
        case let .push(pushed, onto):
            try await push(pushed, onto: onto, cause: cause)
        case let .pop(navigation):
            try await pop(navigation, cause: cause)
        case let .select(tab, index):
            try await select(tab: tab, index: index, cause: cause)
        case let .action(name, target, value):
            try await act(name, on: target, value: value, cause: cause)
        case let .performSegue(_, action):
            try await perform(action, cause: cause)
        }
    }

    /// Which of `splits` are collapsed now (a compact horizontal size class, SPEC §3.2), asked of
    /// each split view controller (one `snapshot` a split; none for a hierarchy without splits):
    /// what `HierarchyStructure.isInWindow` needs to leave out a collapsed split's secondary.
    private func collapsed(_ splits: some Sequence<ControllerID>) async -> Set<ControllerID> {
        var collapsed: Set<ControllerID> = []
        for split in splits {
            guard let controller = try? managed(split),
                  ContainerRules.isCollapsed(.split, horizontal: await controller.snapshot().traitCollection.horizontalSizeClass) else { continue }
            collapsed.insert(split)
        }
        return collapsed
    }

    // MARK: Segues (SPEC §11)

    /// A `performSegue` from a copy no container shows now performed from the latest earlier
    /// copy that is shown (`SegueCopyLineage`), before its step header says what it does; a
    /// popover's anchor view likewise.
    private func performedAsShown(_ event: WindowEvent) async -> WindowEvent {
        guard case let .performSegue(segue, action) = event else { return event }
        let collapsed = await collapsed(structure.splits)
        if let copy = action.introduced?.controller, let view = structure[copy]?.popoverSourceView,
           let shown = segueCopies.shownInstead(of: view, in: structure, collapsedSplits: collapsed) {
            structure.update(copy) { $0.popoverSourceView = shown }
        }
        guard let shown = segueCopies.shownInstead(of: action.source, in: structure, collapsedSplits: collapsed) else { return event }
        return .performSegue(segue, action.from(shown))
    }

    /// Carries out a segue as the call UIKit's segue makes on its source: the copy it presents or
    /// shows follows the same rules as the scenario's own steps.
    private func perform(_ action: SegueAction, cause: EventRef?) async throws(RuntimeError) {
        switch action {
        case let .present(copy, from): try await present(copy, from: from, animated: true, style: nil, cause: cause)
        case let .show(copy, from): try await show(copy, from: from, detail: false, cause: cause)
        case let .showDetail(copy, from): try await show(copy, from: from, detail: true, cause: cause)
        case let .unwind(from):
            _ = try node(from)
            guard let presenter = structure.unwindPresenter(from: from) else {
                _ = record(.warning("unwind: \(from) is not inside a presented controller: nothing to dismiss (an unwind is simulated as a dismissal, SPEC §11: a navigation stack goes back with a pop step)"), on: from, cause: cause)
                return
            }
            try await dismiss(from: presenter, animated: true, cause: cause)
        }
    }

    // MARK: Actions and behaviours' requests (§4.2)

    /// Delivers a user action to the behaviour of `target` (a controller, or `pc:P`): a target
    /// not in the window now is a warning, as is an action its behaviour does not handle; an id
    /// the window does not know at all is refused, as every event naming one is (a scenario
    /// file's validation refuses it before the run).
    private func act(_ name: String, on target: ControllerID, value: ActionValue?, cause: EventRef?) async throws(RuntimeError) {
        let perform: (EventRef) async -> ActionOutcome
        if let presented = BehaviorRequests.presentedID(ofPresentationController: target) {
            _ = try managed(presented)
            guard let presentationController = presentationControllers[presented] else {
                _ = record(.warning("action \(name): \(target) is not in the window (\(presented) is not presented)"), on: rootID, cause: cause)
                return
            }
            perform = { await presentationController.perform(action: name, value: value, cause: $0) }
        } else {
            let controller = try managed(target)
            guard structure.isInHierarchy(target) else {
                _ = record(.warning("action \(name): \(target) is not in the window"), on: rootID, cause: cause)
                return
            }
            perform = { await controller.perform(action: name, value: value, cause: $0) }
        }
        let event = record(.action(name: name, value: value?.description ?? ""), on: target, cause: cause)
        if let message = await perform(event).message(action: name, on: target) {
            _ = record(message, on: target, cause: event)
        }
    }

    /// Carries out what behaviours requested while the last event was handled, in the order they
    /// asked, each as the step it stands for (so under the same rules); what carrying one out
    /// requests joins the end of the queue. A failure is recorded and the next one goes on.
    private func carryOutRequests() async {
        var carried = 0
        while let queued = environment.requests.next() {
            carried += 1
            guard carried <= BehaviorRequests.limitPerEvent else {
                let left = environment.requests.removeAll() + 1
                _ = record(.error("more than \(BehaviorRequests.limitPerEvent) behaviour requests in one event: \(left) left undone"),
                           on: queued.requester, cause: queued.event)
                return
            }
            do {
                switch BehaviorRequests.outcome(of: queued.request, from: queued.requester, in: structure) {
                case let .event(event):
                    try await handle(event, cause: queued.event)
                case let .presentedViewFrame(presented, frame):
                    await presentationControllers[presented]?.setPresentedViewFrame(frame, cause: queued.event)
                case let .layOutAgain(controller):
                    try await managed(controller).layOutAgain(cause: queued.event)
                case let .refused(warning):
                    _ = record(.warning(warning), on: queued.requester, cause: queued.event)
                }
            } catch {
                // Under the root, as the same event from a scenario step would be (SPEC §4.2:
                // requests follow the rules of the scenario's own steps).
                _ = record(.error(error.description), on: rootID, cause: queued.event)
            }
        }
    }

    /// R14: willTransition to every controller whose traits change, then viewWillTransition if the
    /// size changes, then traitCollectionDidChange once the new traits apply; then the layout
    /// pass applies the new sizes (R10) and the coordinators' blocks run.
    private func changeEnvironment(size newSize: Size, traits newTraits: TraitCollection, cause: EventRef?) async {
        let traitsChange = newTraits != traits
        let sizeChange = newSize != size
        guard traitsChange || sizeChange else { return }
        let transition = environment.beginTransition(animated: true, windowSize: newSize, windowTraits: newTraits)
        if traitsChange {
            await root.deliverTraitTransition(to: newTraits, deliver: true, transition: transition, cause: cause)
        }
        if sizeChange {
            await root.deliverViewWillTransition(to: newSize, transition: transition, cause: cause)
        }
        traits = newTraits
        size = newSize
        environment.setWindow(size: newSize, traits: newTraits)
        if traitsChange {
            await root.applyPendingTraits(cause: cause)
        }
        if sizeChange {
            await root.layout(frame: Rect(newSize), cause: cause)
        }
        await environment.finishTransition(transition, cause: cause)
    }

    // MARK: Presentation (§3.5)

    private func record(_ message: TraceMessage, on controller: ControllerID, cause: EventRef?) -> EventRef {
        environment.recorder.record(message, controller: controller, cause: cause)
    }

    private func node(_ id: ControllerID) throws(RuntimeError) -> HierarchyStructure.Node {
        guard let node = structure[id] else { throw .unknownController(id) }
        return node
    }

    private func present(
        _ presentedID: ControllerID, from receiverID: ControllerID, animated: Bool, style requested: ModalPresentationStyle?,
        cause: EventRef?
    ) async throws(RuntimeError) {
        let presented = try managed(presentedID)
        let presentedNode = try node(presentedID)
        _ = try node(receiverID)
        // R31: refused with an error, state unchanged.
        let collapsedAbove = await collapsed(structure.ancestry(of: receiverID).filter { structure[$0]?.kind == .split })
        if let refusal = PresentationRules.presentationRefusal(of: presentedNode, on: receiverID, in: structure, collapsedSplits: collapsedAbove) {
            _ = record(.error(refusal), on: receiverID, cause: cause)
            return
        }
        let style = PresentationRules.resolvedStyle(requested ?? presentedNode.modalPresentationStyle, profile: profile)
        if let refusal = PresentationRules.styleRefusal(of: presentedID, style: style)
            ?? PresentationRules.popoverSourceRefusal(of: presentedNode, style: style, windowTraits: traits) {
            _ = record(.error(refusal), on: receiverID, cause: cause)
            return
        }
        let contextStyle = PresentationRules.isContextStyle(style, customPresentsInFullscreen: presentedNode.customPresentsInFullscreen)
        let presenterID = contextStyle ? structure.presentationContext(from: receiverID) : structure.fullScreenPresenter(from: receiverID)
        // R30: a controller presents at most one controller at a time.
        if let warning = PresentationRules.alreadyPresentingWarning(presenting: presentedID, on: presenterID, from: receiverID, in: structure) {
            _ = record(.warning(warning), on: presenterID, cause: cause)
            return
        }
        // R39: the context may impose its transition style.
        var transitionStyle = presentedNode.modalTransitionStyle
        if contextStyle, let context = structure[presenterID], context.providesPresentationContextTransitionStyle {
            transitionStyle = context.modalTransitionStyle
        }
        let presenter = try managed(presenterID)
        let event = record(.present(presentedID, style: style, transitionStyle: transitionStyle), on: presenterID, cause: cause)
        let presenterState = await presenter.snapshot()
        let presentationController = await presented.makePresentationController(
            style: style, containerSize: presenterState.size,
            traits: contextStyle ? presenterState.traitCollection : traits, windowSize: size, profile: profile,
            popoverSource: { [weak self] in await self?.popoverSourceRect(of: presentedID) },
            // Weak: the window owns the presentation controller that keeps this closure.
            wrapperChanged: { [weak self] wrapper, presentedID in await self?.wrapperChanged(wrapper, presenting: presentedID) })
        // R28/R29: the links are set when the presentation is accepted, before the transition ends.
        presentationControllers[presentedID] = presentationController
        structure.update(presenterID) { $0.presented = presentedID }
        structure.update(presentedID) { $0.presenting = presenterID }
        await presented.setContainer(presentationController)
        await presenter.attachPresentation(presentationController, inheritsPresenterTraits: contextStyle)
        await presentationController.adaptForPresentation(cause: event)
        await presentationController.prepareDisplayed()

        // R42: appearance order; styles that keep the presenter visible leave it alone.
        let transition = environment.beginTransition(animated: animated)
        let covering = await presentationController.presentationState().removesPresenterViews
        if covering { coveredPresenters.insert(presenterID) }
        if covering { await presenter.deliverAppearance(.viewWillDisappear, cause: event) }
        await presentationController.deliverDisplayedAppearance(.viewWillAppear, cause: event)
        await presentationController.transitionCallback(.presentationTransitionWillBegin, value: animated, transition: transition, cause: event)
        await presentationController.initialPresentationLayout(cause: event)
        await presentationController.transitionCallback(.presentationTransitionDidEnd, value: true, transition: nil, cause: event)
        await presentationController.deliverDisplayedAppearance(.viewDidAppear, cause: event)
        if covering { await presenter.deliverAppearance(.viewDidDisappear, cause: event) }
        await environment.finishTransition(transition, cause: event)
        _ = record(.completion(action: "present", presentedID), on: receiverID, cause: event)
    }

    /// Keeps the structure and the controller table true when an adaptive wrapper comes or goes
    /// (called by presentation controllers, and by a transport for one on another node).
    package func wrapperChanged(_ wrapper: (any ManagedController)?, presenting presentedID: ControllerID) {
        let wrapperID = ControllerID.adaptiveWrapper(of: presentedID)
        if let wrapper {
            controllers[wrapperID] = wrapper
            structure.insert(HierarchyStructure.Node(id: wrapperID, kind: .navigation, children: [presentedID]))
            structure.update(presentedID) { $0.parent = wrapperID }
        } else {
            controllers[wrapperID] = nil
            structure.remove(wrapperID)
            structure.update(presentedID) { $0.parent = nil }
        }
    }

    // MARK: Dismissal (§3.6)

    private func dismiss(from receiverID: ControllerID, animated: Bool, cause: EventRef?) async throws(RuntimeError) {
        _ = try node(receiverID)
        guard let (presenterID, removed) = structure.dismissal(from: receiverID) else {
            _ = record(.warning("dismiss: \(receiverID) has nothing to dismiss"), on: receiverID, cause: cause)
            return
        }
        let presenter = try managed(presenterID)
        let event = record(.dismiss(removed[0]), on: presenterID, cause: cause)
        var chain: [(id: ControllerID, pc: any ManagedPresentationController)] = []
        for id in removed {
            guard let pc = presentationControllers[id] else { continue }
            chain.append((id, pc))
        }
        let topFirst = Array(chain.reversed())
        // R45: only the top-most of the dismissed chain is animated.
        let animatedTop = structure.topOfPresentationChain(from: presenterID)
        let transition = environment.beginTransition(animated: animated)
        for link in topFirst {
            await link.pc.transitionCallback(
                .dismissalTransitionWillBegin, value: animated && link.id == animatedTop, transition: transition, cause: event)
        }
        // Only what is on screen disappears: a controller covered by a presentation above it
        // already did, and the presenter reappears only if it had been covered.
        let visible = topFirst.filter { !coveredPresenters.contains($0.id) }
        // A presenter in a tab not selected now (or under another covering presentation)
        // reappears when it is shown again, not here.
        let revealsPresenter = coveredPresenters.contains(presenterID)
            && structure.isOnScreen(presenterID, coveredPresenters: coveredPresenters.subtracting([presenterID]))
        for link in visible { await link.pc.deliverDisplayedAppearance(.viewWillDisappear, cause: event) }
        if revealsPresenter {
            await presenter.deliverAppearance(.viewWillAppear, cause: event)
            await presenter.deliverAppearance(.viewDidAppear, cause: event)
        }
        for link in visible { await link.pc.deliverDisplayedAppearance(.viewDidDisappear, cause: event) }
        for link in topFirst {
            await link.pc.transitionCallback(.dismissalTransitionDidEnd, value: true, transition: nil, cause: event)
        }
        for link in chain {
            // Each removed controller's own presenter lets go of it: the dismissing presenter,
            // a removed controller, or a controller inside one (a current-context presentation).
            if let linkPresenter = structure[link.id]?.presenting {
                try await managed(linkPresenter).detachPresentation()
                structure.update(linkPresenter) { $0.presented = nil }
                coveredPresenters.remove(linkPresenter)
            }
            let wrapperID = ControllerID.adaptiveWrapper(of: link.id)
            if controllers[wrapperID] != nil { wrapperChanged(nil, presenting: link.id) }
            try await managed(link.id).setContainer(nil)
            structure.update(link.id) { $0.presenting = nil }
            coveredPresenters.remove(link.id)
            presentationControllers[link.id] = nil
        }
        await environment.finishTransition(transition, cause: event)
        _ = record(.completion(action: "dismiss", removed[0]), on: receiverID, cause: event)
    }

    // MARK: show, showDetail, push, pop, select (§3.2, §3.8)

    private func show(_ shownID: ControllerID, from receiverID: ControllerID, detail: Bool, cause: EventRef?) async throws(RuntimeError) {
        _ = try node(shownID)
        _ = try node(receiverID)
        let event = record(.show(shownID, detail: detail), on: receiverID, cause: cause)
        if detail {
            // R56/R57: the handler's columns, as its traits are now, decide (ContainerRules).
            let handler = structure.showDetailHandler(from: receiverID)
            var horizontal = SizeClass.unspecified
            if let handler { horizontal = try await managed(handler).snapshot().traitCollection.horizontalSizeClass }
            switch ContainerRules.showDetailOutcome(handler: handler, horizontal: horizontal, in: structure) {
            case let .replaceSecondary(of: splitID): try await replaceDetail(of: splitID, with: shownID, cause: event)
            case let .push(onto: navigation): try await push(shownID, onto: navigation, cause: event)
            case let .present(from: presenter): try await present(shownID, from: presenter, animated: true, style: nil, cause: event)
            }
            return
        }
        if let navigation = structure.showHandler(from: receiverID) {
            try await push(shownID, onto: navigation, cause: event)
            return
        }
        // R55/R56: nobody handles it, so the window's root presents it modally.
        try await present(shownID, from: rootID, animated: true, style: nil, cause: event)
    }

    /// Why `child` cannot join a container; nil when it can.
    private func adoptionRefusal(_ child: ControllerID, container: ControllerID) throws(RuntimeError) -> String? {
        let node = try node(child)
        if child == container || structure.ancestry(of: container).contains(child) {
            return "\(child) cannot be added to \(container): it would contain itself"
        }
        if let parent = node.parent { return "\(child) is already a child of \(parent)" }
        if let presenting = node.presenting { return "\(child) is presented by \(presenting)" }
        if child == rootID { return "\(child) is the window's root" }
        return nil
    }

    private func push(_ pushedID: ControllerID, onto navigationID: ControllerID, cause: EventRef?) async throws(RuntimeError) {
        let navigation = try managed(navigationID)
        let pushed = try managed(pushedID)
        if let refusal = try adoptionRefusal(pushedID, container: navigationID) {
            _ = record(.error("push: " + refusal), on: navigationID, cause: cause)
            return
        }
        let event = record(.push(pushedID), on: navigationID, cause: cause)
        let previousTop = structure[navigationID]?.children.last
        // R42: only on screen (an unselected tab's navigation controller pushes silently).
        let onScreen = structure.isOnScreen(navigationID, coveredPresenters: coveredPresenters)
        let hidden = try previousTop.flatMap { id throws(RuntimeError) in try shown(id, inContainerOnScreen: onScreen) }
        structure.update(navigationID) { $0.children.append(pushedID) }
        structure.update(pushedID) { $0.parent = navigationID }
        await pushed.setContainer(navigation)
        // UINavigationController's order: the old top's `viewDidDisappear` before the new top's
        // `viewDidAppear` (docs/decisions.md, "Containers' appearance order").
        await hidden?.deliverAppearance(.viewWillDisappear, cause: event)
        await navigation.appendChild(pushed)
        await pushed.initialLayout(frame: nil, traits: await navigation.snapshot().traitCollection, cause: event)
        if onScreen { await pushed.deliverAppearance(.viewWillAppear, cause: event) }
        await navigation.showChild(at: (structure[navigationID]?.children.count ?? 1) - 1, cause: event)
        await hidden?.deliverAppearance(.viewDidDisappear, cause: event)
        if onScreen { await pushed.deliverAppearance(.viewDidAppear, cause: event) }
    }

    /// `id`, the child leaving or joining the screen in a container that is on screen or not
    /// (`onScreen`), if it is on screen with it: not when the container is off screen, nor when
    /// `id` is a presenter a covering presentation removed (R41), which already disappeared and
    /// reappears when that is dismissed. Appearance callbacks stay paired.
    private func shown(_ id: ControllerID, inContainerOnScreen onScreen: Bool) throws(RuntimeError) -> (any ManagedController)? {
        let controller = try managed(id)
        return onScreen && !coveredPresenters.contains(id) ? controller : nil
    }

    private func pop(_ navigationID: ControllerID, cause: EventRef?) async throws(RuntimeError) {
        let navigation = try managed(navigationID)
        let stack = try node(navigationID).children
        guard stack.count > 1, let top = stack.last else {
            _ = record(.warning("pop: \(navigationID) has no controller above its root to pop"), on: navigationID, cause: cause)
            return
        }
        let revealed = stack[stack.count - 2]
        let event = record(.pop(top), on: navigationID, cause: cause)
        let popped = try managed(top)
        let onScreen = structure.isOnScreen(navigationID, coveredPresenters: coveredPresenters)
        let hidden = try shown(top, inContainerOnScreen: onScreen)
        let appearing = try shown(revealed, inContainerOnScreen: onScreen)
        // UINavigationController's order, as for a push (docs/decisions.md, "Containers' appearance order").
        await hidden?.deliverAppearance(.viewWillDisappear, cause: event)
        await appearing?.deliverAppearance(.viewWillAppear, cause: event)
        await navigation.removeLastChild()
        structure.update(navigationID) { $0.children.removeLast() }
        structure.update(top) { $0.parent = nil }
        await popped.setContainer(nil)
        await navigation.showChild(at: stack.count - 2, cause: event)
        await hidden?.deliverAppearance(.viewDidDisappear, cause: event)
        await appearing?.deliverAppearance(.viewDidAppear, cause: event)
    }

    private func select(tab tabID: ControllerID, index: Int, cause: EventRef?) async throws(RuntimeError) {
        let tab = try managed(tabID)
        let node = try node(tabID)
        guard node.children.indices.contains(index) else {
            throw .invalidSelection(tabID, index: index, childCount: node.children.count)
        }
        let event = record(.select(node.children[index], index: index), on: tabID, cause: cause)
        guard index != node.selectedIndex else { return }
        let onScreen = structure.isOnScreen(tabID, coveredPresenters: coveredPresenters)
        let hidden = try shown(node.children[node.selectedIndex], inContainerOnScreen: onScreen)
        let appearing = try shown(node.children[index], inContainerOnScreen: onScreen)
        // UITabBarController's order: the new child's `viewWillAppear` first, its `viewDidAppear`
        // last (docs/decisions.md, "Containers' appearance order").
        await appearing?.deliverAppearance(.viewWillAppear, cause: event)
        await hidden?.deliverAppearance(.viewWillDisappear, cause: event)
        structure.update(tabID) { $0.selectedIndex = index }
        await tab.select(index: index, cause: event)
        await hidden?.deliverAppearance(.viewDidDisappear, cause: event)
        await appearing?.deliverAppearance(.viewDidAppear, cause: event)
    }

    private func replaceDetail(of splitID: ControllerID, with detailID: ControllerID, cause: EventRef?) async throws(RuntimeError) {
        let split = try managed(splitID)
        let detail = try managed(detailID)
        if let refusal = try adoptionRefusal(detailID, container: splitID) {
            _ = record(.error("showDetail: " + refusal), on: splitID, cause: cause)
            return
        }
        let event = record(.replaceDetail(detailID), on: splitID, cause: cause)
        let secondary = ContainerRules.splitSecondaryIndex
        let columns = try node(splitID).children
        let old = columns.count > secondary ? columns[secondary] : nil
        let onScreen = structure.isOnScreen(splitID, coveredPresenters: coveredPresenters)
        let hidden = try old.flatMap { id throws(RuntimeError) in try shown(id, inContainerOnScreen: onScreen) }
        await hidden?.deliverAppearance(.viewWillDisappear, cause: event)
        await detail.setContainer(split)
        if old != nil {
            await split.replaceChild(at: secondary, with: detail)
        } else {
            await split.appendChild(detail)
        }
        structure.update(splitID) { node in
            if node.children.count > secondary { node.children[secondary] = detailID } else { node.children.append(detailID) }
        }
        structure.update(detailID) { $0.parent = splitID }
        if let old {
            structure.update(old) { $0.parent = nil }
            try await managed(old).setContainer(nil)
        }
        await detail.initialLayout(frame: nil, traits: await split.snapshot().traitCollection, cause: event)
        if onScreen { await detail.deliverAppearance(.viewWillAppear, cause: event) }
        await split.showChild(at: secondary, cause: event)
        if onScreen { await detail.deliverAppearance(.viewDidAppear, cause: event) }
        await hidden?.deliverAppearance(.viewDidDisappear, cause: event)
    }
}
