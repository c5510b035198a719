import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// Every controller call of TWP §8 (`Protocols/wire-protocol.md`), each declared once: where a
/// node serves it (an I/O thread for one that only reads or rewires a controller, the shared
/// pool for one that may walk a subtree: a transition, a layout pass, an appearance callback,
/// anything that may forward), what it goes to, its arguments and results in order, and what the
/// receiving node does. `RemoteController` (below) and `NodeHost` send them, `NodeHost.handle`
/// serves them; `CallTableTests` holds this table to §8's and to the golden vectors.
///
/// A new call is its code in `WireCallCode` and its declaration here (with its sender below, when
/// a controller's stand-in sends it): `served(_:)` does not compile until the code has one.
enum ControllerCalls {
    // MARK: 0x01–0x09: any controller (`ControllerEndpoint`)

    static let viewWillTransition = WireCall(
        .viewWillTransition, on: .sharedPool, to: .controller, .size, .transition, .cause, returns: .nothing
    ) { _, controller, size, transition, cause in
        await controller.deliverViewWillTransition(to: size, transition: transition, cause: cause)
    }

    static let traitTransition = WireCall(
        .traitTransition, on: .sharedPool, to: .controller, .traits, .bool.named("deliver"), .transition, .cause, returns: .nothing
    ) { _, controller, traits, deliver, transition, cause in
        await controller.deliverTraitTransition(to: traits, deliver: deliver, transition: transition, cause: cause)
    }

    static let applyPendingTraits = WireCall(.applyPendingTraits, on: .sharedPool, to: .controller, .cause, returns: .nothing) {
        _, controller, cause in await controller.applyPendingTraits(cause: cause)
    }

    static let layout = WireCall(.layout, on: .sharedPool, to: .controller, .rect.named("frame"), .cause, returns: .nothing) {
        _, controller, frame, cause in await controller.layout(frame: frame, cause: cause)
    }

    static let preferredContentSizeDidChange = WireCall(
        .preferredContentSizeDidChange, on: .sharedPool, to: .controller, .controllerID.named("child"), .size.named("preferred"),
        .cause, returns: .nothing
    ) { _, controller, child, preferred, cause in
        await controller.deliverPreferredContentSizeDidChange(forChild: child, preferredSize: preferred, cause: cause)
    }

    static let systemLayoutFittingSizeDidChange = WireCall(
        .systemLayoutFittingSizeDidChange, on: .sharedPool, to: .controller, .controllerID.named("child"), .cause, returns: .nothing
    ) { _, controller, child, cause in
        await controller.deliverSystemLayoutFittingSizeDidChange(forChild: child, cause: cause)
    }

    static let initialLayout = WireCall(
        .initialLayout, on: .sharedPool, to: .controller, .rectOrNone.named("frame"), .traits, .cause, returns: .nothing
    ) { _, controller, frame, traits, cause in
        await controller.initialLayout(frame: frame, traits: traits, cause: cause)
    }

    static let appearance = WireCall(
        .appearance, on: .sharedPool, to: .controller, .appearance.named("callback name"), .cause, returns: .nothing
    ) { _, controller, callback, cause in
        await controller.deliverAppearance(callback, cause: cause)
    }

    static let refresh = WireCall(
        .refresh, on: .sharedPool, to: .controller, .rect.named("frame"), .traits, .cause, returns: .nothing
    ) { _, controller, frame, traits, cause in
        await controller.refresh(frame: frame, traits: traits, cause: cause)
    }

    static let setContainer = WireCall(.setContainer, on: .ioThread, to: .controller, .addressOrNone, returns: .nothing) {
        host, controller, container in await controller.setContainer(container.map { host.endpoint(for: $0) })
    }

    /// SPEC §4.2: a user action for the behaviour of the target, a view controller or a
    /// presentation controller; the cause is the action's event, which the target's node did not record.
    static let performAction = WireCall(
        .performAction, on: .sharedPool, to: .controller, .text.named("action"), .actionValue.named("value"), .cause,
        returns: .actionOutcome
    ) { _, controller, action, value, cause throws(CallFault) in
        guard let cause else { throw CallFault("performAction: argument 3 must name the action's event, got none") }
        if let viewController = controller as? any ManagedController {
            return await viewController.perform(action: action, value: value, cause: cause)
        }
        guard let presentationController = controller as? any ManagedPresentationController else {
            throw CallFault("performAction: \(controller.id) has no behaviour")
        }
        return await presentationController.perform(action: action, value: value, cause: cause)
    }

    /// SPEC §7 over nodes: the conductor's window, ending a transition, runs in its place the
    /// next alongside (completion false) or completion block the target's behaviour registered
    /// with that transition's coordinator on this node (TWP/1.4 §8.7).
    static let coordinatorBlock = WireCall(
        .coordinatorBlock, on: .sharedPool, to: .controller, .transition, .bool.named("completion"), .cause, returns: .nothing
    ) { host, controller, transition, completion, cause throws(CallFault) in
        guard host.environment.runRegisteredBlock(transition, owner: controller.id, completion: completion, cause: cause) else {
            throw CallFault("coordinatorBlock: \(controller.id) registered no \(completion ? "completion" : "alongside") block for transition \(transition.id)")
        }
    }

    // MARK: 0x20–0x2C: view controllers (`ManagedController`)

    static let snapshot = WireCall(.snapshot, on: .ioThread, to: .viewController, returns: snapshotResults) {
        _, controller in await controller.snapshot()
    }

    /// TWP §8: without the frame (a 1.0 node, or one that does not track origins), its size at (0,0).
    static let snapshotResults = CallResults<ControllerSnapshot>(
        spellings: ["size size", "traits traits", "size preferredContentSize", "rect frame"],
        encode: { [.size($0.size), .traits($0.traitCollection), .size($0.preferredContentSize), .rect($0.frame)] },
        decode: { reader throws(CallFault) in
            let (size, traits, preferred) = (try reader.size(), try reader.traits(), try reader.size())
            guard case let .rect(frame)? = reader.trailing() else {
                return ControllerSnapshot(size: size, traitCollection: traits, preferredContentSize: preferred)
            }
            return ControllerSnapshot(size: size, traitCollection: traits, preferredContentSize: preferred, frame: frame)
        })

    static let setPreferredContentSize = WireCall(
        .setPreferredContentSize, on: .sharedPool, to: .viewController, .size, .cause, returns: .nothing
    ) { _, controller, size, cause in
        await controller.setPreferredContentSize(size, cause: cause)
    }

    static let notifySystemLayoutFittingSizeDidChange = WireCall(
        .notifySystemLayoutFittingSizeDidChange, on: .sharedPool, to: .viewController, .cause, returns: .nothing
    ) { _, controller, cause in
        await controller.notifySystemLayoutFittingSizeDidChange(cause: cause)
    }

    static let setOverrideTraits = WireCall(
        .setOverrideTraits, on: .sharedPool, to: .viewController, .traitsOrNone, .controllerID.named("child"), .transition, .cause,
        returns: .nothing
    ) { _, container, traits, child, transition, cause throws(CallFault) in
        do throws(RuntimeError) {
            try await container.setOverrideTraitCollection(traits, forChild: child, transition: transition, cause: cause)
        } catch {
            throw CallFault(error.description)
        }
    }

    static let attachPresentation = WireCall(
        .attachPresentation, on: .ioThread, to: .viewController, .address.named("pc"), .bool.named("inheritsPresenterTraits"),
        returns: .nothing
    ) { host, controller, pc, inherits in
        await controller.attachPresentation(host.endpoint(for: pc), inheritsPresenterTraits: inherits)
    }

    static let detachPresentation = WireCall(.detachPresentation, on: .ioThread, to: .viewController, returns: .nothing) {
        _, controller in await controller.detachPresentation()
    }

    static let appendChild = WireCall(.appendChild, on: .ioThread, to: .viewController, .address, returns: .nothing) {
        host, controller, child in await controller.appendChild(host.endpoint(for: child))
    }

    static let removeLastChild = WireCall(.removeLastChild, on: .ioThread, to: .viewController, returns: .nothing) {
        _, controller in await controller.removeLastChild()
    }

    static let replaceChild = WireCall(
        .replaceChild, on: .ioThread, to: .viewController, .int.named("index"), .address, returns: .nothing
    ) { host, controller, index, child in
        await controller.replaceChild(at: index, with: host.endpoint(for: child))
    }

    static let select = WireCall(.select, on: .sharedPool, to: .viewController, .int.named("index"), .cause, returns: .nothing) {
        _, controller, index, cause in await controller.select(index: index, cause: cause)
    }

    static let showChild = WireCall(.showChild, on: .sharedPool, to: .viewController, .int.named("index"), .cause, returns: .nothing) {
        _, controller, index, cause in await controller.showChild(at: index, cause: cause)
    }

    static let childFrame = WireCall(
        .childFrame, on: .ioThread, to: .viewController, .controllerID.named("child"), returns: .one(.rectOrNone)
    ) { _, controller, child in
        await controller.frame(ofChild: child)
    }

    static let layOutAgain = WireCall(.layOutAgain, on: .sharedPool, to: .viewController, .cause, returns: .nothing) {
        _, controller, cause in await controller.layOutAgain(cause: cause)
    }

    // MARK: 0x40–0x46: presentation controllers (`ManagedPresentationController`)

    /// The presentation controller is made on the node hosting the presented controller, which
    /// asks the conductor's window for a popover's source and tells it of adaptive wrappers.
    static let makePresentationController = WireCall(
        .makePresentationController, on: .ioThread, to: .viewController, .style.named("style"), .size.named("containerSize"),
        .traits, .size.named("windowSize"), .cause, returns: .one(.address.named("pc"))
    ) { host, controller, style, containerSize, traits, windowSize, _ in
        let node = host
        let presented = controller.id
        let pc = await controller.makePresentationController(
            style: style, containerSize: containerSize, traits: traits, windowSize: windowSize, profile: host.profile,
            popoverSource: { await node.popoverSourceRect(of: presented) },
            wrapperChanged: { wrapper, presented in await node.wrapperChanged(wrapper, presented: presented) })
        return host.address(of: pc)
    }

    static let adaptForPresentation = WireCall(
        .adaptForPresentation, on: .sharedPool, to: .presentationController, .cause, returns: .nothing
    ) { _, pc, cause in
        await pc.adaptForPresentation(cause: cause)
    }

    static let prepareDisplayed = WireCall(.prepareDisplayed, on: .sharedPool, to: .presentationController, returns: .nothing) {
        _, pc in await pc.prepareDisplayed()
    }

    static let presentationCallback = WireCall(
        .presentationCallback, on: .sharedPool, to: .presentationController, .presentationCallback.named("callback name"),
        .bool.named("value"), .cause, .transitionTail, returns: .nothing
    ) { _, pc, callback, value, cause, transition in
        await pc.transitionCallback(callback, value: value, transition: transition, cause: cause)
    }

    static let initialPresentationLayout = WireCall(
        .initialPresentationLayout, on: .sharedPool, to: .presentationController, .cause, returns: .nothing
    ) { _, pc, cause in
        await pc.initialPresentationLayout(cause: cause)
    }

    static let presentationState = WireCall(
        .presentationState, on: .ioThread, to: .presentationController, returns: presentationStateResults
    ) { _, pc in
        await pc.presentationState()
    }

    static let presentationStateResults = CallResults<PresentationState>(
        spellings: [
            "bool removesPresenterViews", "string displayedID", "string style", "bool coversContext",
            "rect containerViewBounds", "rect presentedViewFrame",
        ],
        encode: { state in
            [
                .bool(state.removesPresenterViews), .string(state.displayedID.name), .string(state.style.rawValue),
                .bool(state.coversContext), .rect(state.containerViewBounds), .rect(state.presentedViewFrame),
            ]
        },
        decode: { reader throws(CallFault) in
            PresentationState(
                removesPresenterViews: try reader.bool(), displayedID: ControllerID(try reader.string()), style: try reader.style(),
                coversContext: try reader.bool(), containerViewBounds: try reader.rect(), presentedViewFrame: try reader.rect())
        })

    static let displayedAppearance = WireCall(
        .displayedAppearance, on: .sharedPool, to: .presentationController, .appearance.named("callback name"), .cause,
        returns: .nothing
    ) { _, pc, callback, cause in
        await pc.deliverDisplayedAppearance(callback, cause: cause)
    }

    /// SPEC §4.2: the target presentation controller's behaviour set its presented view's frame.
    static let setPresentedViewFrame = WireCall(
        .setPresentedViewFrame, on: .sharedPool, to: .presentationController, .rect.named("frame"), .cause, returns: .nothing
    ) { _, pc, frame, cause in
        await pc.setPresentedViewFrame(frame, cause: cause)
    }

    // MARK: 0x60–0x63: the conductor's window

    static let wrapperChanged = WireCall(
        .wrapperChanged, on: .sharedPool, to: .window, .controllerID.named("presented id"), .addressOrNone.named("wrapper"),
        returns: .nothing
    ) { host, window, presented, wrapper in
        await window.wrapperChanged(wrapper.map { host.proxy(for: $0) }, presenting: presented)
    }

    static let popoverSourceRect = WireCall(
        .popoverSourceRect, on: .sharedPool, to: .window, .controllerID.named("presented id"), returns: .one(.rectOrNone)
    ) { _, window, presented in
        await window.popoverSourceRect(of: presented)
    }

    /// The window's environment numbers its transitions and knows where the window is.
    static let windowTransition = WireCall(
        .windowTransition, on: .sharedPool, to: .window, .bool.named("animated"), returns: .one(.transition)
    ) { host, _, animated in
        host.environment.beginTransition(animated: animated)
    }

    /// SPEC §4.2: a request a behaviour on the sending node made, queued by the window behind the
    /// ones made before it; the cause is the request's event on the sending node.
    static let behaviorRequest = WireCall(
        .behaviorRequest, on: .sharedPool, to: .window, .controllerID.named("requester"), .request.named("request"), .cause,
        returns: .nothing
    ) { host, _, requester, request, event throws(CallFault) in
        guard let event else { throw CallFault("behaviorRequest: argument 3 must name the request's event, got none") }
        host.environment.enqueueRequest(QueuedRequest(requester: requester, request: request, event: event))
    }

    /// SPEC §7 over nodes: a behaviour on the sending node registered blocks with the
    /// coordinator of a transition of the conductor's window, which keeps them in their place in
    /// the order and runs them with `coordinatorBlock` when the transition ends (TWP/1.4 §8.7).
    static let coordinatorRegistration = WireCall(
        .coordinatorRegistration, on: .sharedPool, to: .window, .int.named("transition"), .address.named("owner"),
        .bool.named("alongside"), .bool.named("completion"), returns: .nothing
    ) { host, _, transition, owner, alongside, completion in
        let announcement = CoordinatorAnnouncement(
            transition: transition, owner: ControllerID(owner.controller), alongside: alongside, completion: completion)
        host.environment.registerBlocksElsewhere(announcement) { [host] completion, info, cause in
            await host.proxy(for: owner).runCoordinatorBlock(info, completion: completion, cause: cause)
        }
    }

    /// SPEC §7 over nodes: a transition the sending node started with `windowTransition` (a
    /// receipt) is over; the window runs its coordinator blocks as it does its own (TWP/1.4 §8.7).
    static let endTransition = WireCall(.endTransition, on: .sharedPool, to: .window, .transition, .cause, returns: .nothing) {
        host, _, transition, cause in await host.environment.runCoordinatorBlocks(of: transition, cause: cause)
    }

    // MARK: The table

    /// The call of `code`, as a node serves it.
    static func served(_ code: WireCallCode) -> ServedCall {
        table[Int(code.rawValue)] ?? erased(code)
    }

    /// Each code's served call at its octet, built once: serving a CALL looks it up.
    private static let table: [ServedCall?] = {
        var table = [ServedCall?](repeating: nil, count: 256)
        for code in WireCallCode.allCases { table[Int(code.rawValue)] = erased(code) }
        return table
    }()

    private static func erased(_ code: WireCallCode) -> ServedCall {
        switch code {
        case .viewWillTransition: viewWillTransition.served
        case .traitTransition: traitTransition.served
        case .applyPendingTraits: applyPendingTraits.served
        case .layout: layout.served
        case .preferredContentSizeDidChange: preferredContentSizeDidChange.served
        case .systemLayoutFittingSizeDidChange: systemLayoutFittingSizeDidChange.served
        case .initialLayout: initialLayout.served
        case .appearance: appearance.served
        case .refresh: refresh.served
        case .performAction: performAction.served
        case .coordinatorBlock: coordinatorBlock.served
        case .snapshot: snapshot.served
        case .setPreferredContentSize: setPreferredContentSize.served
        case .notifySystemLayoutFittingSizeDidChange: notifySystemLayoutFittingSizeDidChange.served
        case .setOverrideTraits: setOverrideTraits.served
        case .setContainer: setContainer.served
        case .attachPresentation: attachPresentation.served
        case .detachPresentation: detachPresentation.served
        case .appendChild: appendChild.served
        case .removeLastChild: removeLastChild.served
        case .replaceChild: replaceChild.served
        case .select: select.served
        case .showChild: showChild.served
        case .childFrame: childFrame.served
        case .layOutAgain: layOutAgain.served
        case .makePresentationController: makePresentationController.served
        case .adaptForPresentation: adaptForPresentation.served
        case .prepareDisplayed: prepareDisplayed.served
        case .presentationCallback: presentationCallback.served
        case .initialPresentationLayout: initialPresentationLayout.served
        case .presentationState: presentationState.served
        case .displayedAppearance: displayedAppearance.served
        case .setPresentedViewFrame: setPresentedViewFrame.served
        case .wrapperChanged: wrapperChanged.served
        case .popoverSourceRect: popoverSourceRect.served
        case .windowTransition: windowTransition.served
        case .behaviorRequest: behaviorRequest.served
        case .coordinatorRegistration: coordinatorRegistration.served
        case .endTransition: endTransition.served
        }
    }
}

// MARK: Senders

/// A stand-in's messages, each one CALL of the table above.
extension RemoteController {
    package func deliverViewWillTransition(to size: Size, transition: TransitionInfo, cause: EventRef?) async {
        await send(ControllerCalls.viewWillTransition, (size, transition, cause))
    }

    package func deliverTraitTransition(to traits: TraitCollection, deliver: Bool, transition: TransitionInfo, cause: EventRef?) async {
        await send(ControllerCalls.traitTransition, (traits, deliver, transition, cause))
    }

    package func applyPendingTraits(cause: EventRef?) async {
        await send(ControllerCalls.applyPendingTraits, cause)
    }

    package func layout(frame: Rect, cause: EventRef?) async {
        await send(ControllerCalls.layout, (frame, cause))
    }

    package func deliverPreferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, cause: EventRef?) async {
        await send(ControllerCalls.preferredContentSizeDidChange, (child, preferredSize, cause))
    }

    package func deliverSystemLayoutFittingSizeDidChange(forChild child: ControllerID, cause: EventRef?) async {
        await send(ControllerCalls.systemLayoutFittingSizeDidChange, (child, cause))
    }

    package func initialLayout(frame: Rect?, traits: TraitCollection, cause: EventRef?) async {
        await send(ControllerCalls.initialLayout, (frame, traits, cause))
    }

    package func deliverAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        await send(ControllerCalls.appearance, (callback, cause))
    }

    package func refresh(frame: Rect, traits: TraitCollection, cause: EventRef?) async {
        await send(ControllerCalls.refresh, (frame, traits, cause))
    }

    package func setContainer(_ container: (any ControllerEndpoint)?) async {
        await send(ControllerCalls.setContainer, await address(of: container))
    }

    package func snapshot() async -> ControllerSnapshot {
        await read(ControllerCalls.snapshot, ()) ?? ControllerSnapshot(size: .zero, traitCollection: .unspecified, preferredContentSize: .zero)
    }

    package func frame(ofChild child: ControllerID) async -> Rect? {
        // Results that do not match are no frame, as a child it does not have.
        guard case let .success(frame)? = await host.call(address, ControllerCalls.childFrame, child) else { return nil }
        return frame
    }

    package func setPreferredContentSize(_ newSize: Size, cause: EventRef?) async {
        await send(ControllerCalls.setPreferredContentSize, (newSize, cause))
    }

    package func notifySystemLayoutFittingSizeDidChange(cause: EventRef?) async {
        await send(ControllerCalls.notifySystemLayoutFittingSizeDidChange, cause)
    }

    package func setOverrideTraitCollection(
        _ traits: TraitCollection?, forChild child: ControllerID, transition: TransitionInfo, cause: EventRef?
    ) async throws(RuntimeError) {
        await send(ControllerCalls.setOverrideTraits, (traits, child, transition, cause))
    }

    package func attachPresentation(_ presentationController: any ControllerEndpoint, inheritsPresenterTraits: Bool) async {
        await send(ControllerCalls.attachPresentation, (await host.address(of: presentationController), inheritsPresenterTraits))
    }

    package func detachPresentation() async {
        await send(ControllerCalls.detachPresentation, ())
    }

    package func appendChild(_ child: any ControllerEndpoint) async {
        await send(ControllerCalls.appendChild, await host.address(of: child))
    }

    package func removeLastChild() async {
        await send(ControllerCalls.removeLastChild, ())
    }

    package func replaceChild(at index: Int, with child: any ControllerEndpoint) async {
        await send(ControllerCalls.replaceChild, (index, await host.address(of: child)))
    }

    package func select(index: Int, cause: EventRef?) async {
        await send(ControllerCalls.select, (index, cause))
    }

    package func showChild(at index: Int, cause: EventRef?) async {
        await send(ControllerCalls.showChild, (index, cause))
    }

    package func layOutAgain(cause: EventRef?) async {
        await send(ControllerCalls.layOutAgain, cause)
    }

    /// The presentation controller is created on the node hosting this controller; the
    /// `wrapperChanged` closure stays here: that node tells the conductor's window itself.
    package func makePresentationController(
        style: ModalPresentationStyle, containerSize: Size, traits: TraitCollection, windowSize: Size,
        profile: AdaptationProfile, popoverSource: @escaping @Sendable () async -> Rect?,
        wrapperChanged: @escaping @Sendable (_ wrapper: (any ManagedController)?, _ presented: ControllerID) async -> Void
    ) async -> any ManagedPresentationController {
        let arguments = (style, containerSize, traits, windowSize, EventRef?.none)
        guard case let .success(pc)? = await host.call(address, ControllerCalls.makePresentationController, arguments) else {
            let name = ControllerID.presentationController(of: id).name
            return await host.proxy(for: WireAddress(node: address.node, controller: name, incarnation: address.incarnation))
        }
        return await host.proxy(for: pc)
    }

    package func adaptForPresentation(cause: EventRef?) async {
        await send(ControllerCalls.adaptForPresentation, cause)
    }

    package func prepareDisplayed() async {
        await send(ControllerCalls.prepareDisplayed, ())
    }

    /// The transition travels as the call's optional tail (TWP/1.4), so that a presentation
    /// controller on another node hands its `WillBegin` hooks the coordinator; none is left off.
    package func transitionCallback(_ callback: PresentationCallback, value: Bool, transition: TransitionInfo?, cause: EventRef?) async {
        await send(ControllerCalls.presentationCallback, (callback, value, cause, transition))
    }

    /// Runs the next alongside or completion block this controller's behaviour registered on its node.
    package func runCoordinatorBlock(_ transition: TransitionInfo, completion: Bool, cause: EventRef?) async {
        await send(ControllerCalls.coordinatorBlock, (transition, completion, cause))
    }

    /// A call that failed was recorded as a fault, which ends the run: nothing more is said of
    /// the action then (it counts as handled).
    package func perform(action: String, value: ActionValue?, cause: EventRef) async -> ActionOutcome {
        await read(ControllerCalls.performAction, (action, value, cause)) ?? .handled
    }

    package func setPresentedViewFrame(_ frame: Rect, cause: EventRef?) async {
        await send(ControllerCalls.setPresentedViewFrame, (frame, cause))
    }

    package func initialPresentationLayout(cause: EventRef?) async {
        await send(ControllerCalls.initialPresentationLayout, cause)
    }

    package func presentationState() async -> PresentationState {
        await read(ControllerCalls.presentationState, ()) ?? PresentationState(
            removesPresenterViews: false, displayedID: id, style: .fullScreen, coversContext: false,
            containerViewBounds: .zero, presentedViewFrame: .zero)
    }

    package func deliverDisplayedAppearance(_ callback: AppearanceCallback, cause: EventRef?) async {
        await send(ControllerCalls.displayedAppearance, (callback, cause))
    }
}
