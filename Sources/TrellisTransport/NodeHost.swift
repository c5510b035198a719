import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// What one node hosts and how it serves CALLs for it: the directory from controller ids to
/// local actors (controllers, presentation controllers, adaptive wrappers) and to stand-ins for
/// the controllers other nodes host, and the execution of each call code.
package actor NodeHost {
    package nonisolated let nodeName: String
    package nonisolated let conductorNode: String
    package let environment: RuntimeEnvironment
    let transport: NodeTransport
    let profile: AdaptationProfile
    /// Every controller's node, from the scenario's placement.
    package let placement: [ControllerID: String]
    /// The nodes of the run (the placement's, this one and the conductor): the only nodes a
    /// CALL's cause may name.
    let runNodes: Set<String>
    /// Incarnation of this node's controllers: a restarted node gets a new one, so messages meant
    /// for its predecessor are refused.
    package nonisolated let incarnation: UInt32
    private var local: [ControllerID: any ControllerEndpoint] = [:]
    private var proxies: [ControllerID: RemoteController] = [:]
    private var window: Window?
    /// Faults met by calls from this node (peer gone, undeliverable): the run ends with them.
    package private(set) var faults: [String] = []

    /// TWP/1: an address with an empty controller id (incarnation 0) is the node itself; the
    /// conductor's node passes what it receives there to its window.
    static let windowTarget = ""

    package init(
        nodeName: String, conductorNode: String, environment: RuntimeEnvironment, transport: NodeTransport,
        profile: AdaptationProfile, placement: [ControllerID: String], incarnation: UInt32 = 1
    ) {
        self.nodeName = nodeName
        self.conductorNode = conductorNode
        self.environment = environment
        self.transport = transport
        self.profile = profile
        self.placement = placement
        self.runNodes = Set(placement.values).union([nodeName, conductorNode])
        self.incarnation = incarnation
        // The window, and so the transitions' numbers and the window's size and traits, live with
        // the conductor: a node elsewhere asks it for the transitions its controllers start.
        if nodeName != conductorNode {
            environment.takeTransitions { [weak self] animated in await self?.windowTransition(animated: animated) }
        }
    }

    // MARK: Directory

    /// The stand-in for a controller hosted elsewhere (created once, then shared).
    package func proxy(for address: WireAddress) -> RemoteController {
        let id = ControllerID(address.controller)
        if let existing = proxies[id], existing.address == address { return existing }
        let proxy = RemoteController(address: address, host: self)
        proxies[id] = proxy
        return proxy
    }

    /// The stand-in for a controller the placement puts on another node; nil when it is here.
    package func proxy(forPlaced id: ControllerID) -> RemoteController? {
        guard let node = placement[id], node != nodeName else { return nil }
        return proxy(for: WireAddress(node: node, controller: id.name, incarnation: 1))
    }

    package func register(_ endpoints: [ControllerID: any ManagedController]) {
        for (id, endpoint) in endpoints where !(endpoint is RemoteController) {
            local[id] = endpoint
        }
    }

    package func attach(window: Window) {
        self.window = window
    }

    /// The address under which other nodes reach `endpoint`. A local endpoint handed to another
    /// node (a presentation controller, a wrapper) joins the directory, replacing whatever had its
    /// id before: a controller presented again gets a new presentation controller, and calls to
    /// `pc:P` must reach that one, not the one its dismissal left behind.
    func address(of endpoint: any ControllerEndpoint) -> WireAddress {
        if let remote = endpoint as? RemoteController { return remote.address }
        local[endpoint.id] = endpoint
        return WireAddress(node: nodeName, controller: endpoint.id.name, incarnation: incarnation)
    }

    private func endpoint(for address: WireAddress) -> any ControllerEndpoint {
        if address.node == nodeName, let found = local[ControllerID(address.controller)] { return found }
        return proxy(for: address)
    }

    // MARK: Calls out

    /// One CALL to the node hosting `address`; nil when it failed, the fault recorded under the
    /// target's name and kept for the end of the run.
    func call(_ address: WireAddress, _ code: WireCallCode, _ arguments: [WireValue]) async -> [WireValue]? {
        let result = await transport.call(peer: address.node, target: address, code: code, arguments: arguments)
        switch result {
        case let .ok(values):
            return values
        case let .fault(text):
            environment.recorder.record(.fault("\(code) to \(address.controller) on node \(address.node) failed: \(text)"),
                                        controller: ControllerID(address.controller), cause: nil)
            faults.append("\(code) to \(address.controller) on node \(address.node): \(text)")
            return nil
        }
    }

    package func noteFault(_ text: String) {
        faults.append(text)
    }

    /// An adaptive wrapper came or went on this node: the conductor's window must know.
    func wrapperChanged(_ wrapper: (any ManagedController)?, presented: ControllerID) async {
        if let wrapper { local[wrapper.id] = wrapper }
        if let window {
            await window.wrapperChanged(wrapper, presenting: presented)
            return
        }
        let target = WireAddress(node: conductorNode, controller: Self.windowTarget, incarnation: 0)
        let wrapperValue: WireValue = wrapper.map { .address(address(of: $0)) } ?? .none
        _ = await call(target, .wrapperChanged, [.string(presented.name), wrapperValue])
    }

    /// R62: a popover's source rect in window coordinates, from the window that knows every
    /// frame: here, or the conductor's.
    func popoverSourceRect(of presented: ControllerID) async -> Rect? {
        if let window { return await window.popoverSourceRect(of: presented) }
        let target = WireAddress(node: conductorNode, controller: Self.windowTarget, incarnation: 0)
        guard let values = await call(target, .popoverSourceRect, [.string(presented.name)]),
              case let .rect(rect)? = values.first else { return nil }
        return rect
    }

    /// A transition from the conductor's window (TWP/1 `windowTransition`): its next number, its
    /// size and traits now. Nil when the call failed (the fault is recorded).
    func windowTransition(animated: Bool) async -> TransitionInfo? {
        let target = WireAddress(node: conductorNode, controller: Self.windowTarget, incarnation: 0)
        guard let values = await call(target, .windowTransition, [.bool(animated)]) else { return nil }
        var results = CallArguments(code: .windowTransition, values: values, runNodes: runNodes)
        do {
            return try results.transition()
        } catch {
            noteFault("windowTransition from node \(conductorNode): \(error.description)")
            return nil
        }
    }

    // MARK: Calls in

    /// Where a CALL is served: one that reads or rewires a controller on the I/O thread that
    /// received it, one that may walk a subtree (a transition, a layout pass, an appearance
    /// callback, anything that may forward) on the shared pool (`CallPlacement`).
    package static func placement(for code: WireCallCode) -> CallPlacement {
        switch code {
        case .snapshot, .childFrame, .setContainer, .attachPresentation, .detachPresentation, .appendChild, .removeLastChild,
             .replaceChild, .makePresentationController, .presentationState:
            .ioThread
        case .viewWillTransition, .traitTransition, .applyPendingTraits, .layout, .preferredContentSizeDidChange,
             .systemLayoutFittingSizeDidChange, .initialLayout, .appearance, .refresh, .setPreferredContentSize,
             .notifySystemLayoutFittingSizeDidChange, .setOverrideTraits, .select, .showChild, .adaptForPresentation,
             .prepareDisplayed, .presentationCallback, .initialPresentationLayout, .displayedAppearance, .wrapperChanged,
             .popoverSourceRect, .windowTransition:
            .sharedPool
        }
    }

    /// Serves one CALL addressed to this node.
    package func handle(_ message: WireMessage) async -> WireResult {
        guard case let .call(target, code, values) = message.body else { return .fault("not a CALL") }
        environment.recorder.enter(step: Int(message.header.step))
        guard target.node == nodeName else {
            return .fault("undeliverable: \(target.controller) is addressed to node \(target.node), this is node \(nodeName)")
        }
        var arguments = CallArguments(code: code, values: values, runNodes: runNodes)
        do {
            try arguments.checkNoExtraArguments()
            if target.controller == Self.windowTarget {
                return try await handleWindowCall(code, &arguments)
            }
            guard target.incarnation == incarnation else {
                return .fault("undeliverable: stale incarnation \(target.incarnation) of \(target.controller) (now \(incarnation))")
            }
            guard let endpoint = local[ControllerID(target.controller)] else {
                return .fault("undeliverable: no controller \(target.controller) on node \(nodeName)")
            }
            return try await perform(code, &arguments, on: endpoint)
        } catch {
            return .fault(error.description)
        }
    }

    private func handleWindowCall(_ code: WireCallCode, _ arguments: inout CallArguments) async throws(CallArgumentError) -> WireResult {
        guard let window else { return .fault("undeliverable: no window on node \(nodeName)") }
        if code == .popoverSourceRect {
            let presented = ControllerID(try arguments.string())
            return .ok([await window.popoverSourceRect(of: presented).map(WireValue.rect) ?? .none])
        }
        if code == .windowTransition {
            // The window's environment numbers its transitions and knows where the window is.
            return .ok([WireMarshalling.value(environment.beginTransition(animated: try arguments.bool()))])
        }
        guard code == .wrapperChanged else { return .fault("undeliverable: \(code) does not go to the window") }
        let presented = ControllerID(try arguments.string())
        let wrapper = try arguments.optionalAddress().map { proxy(for: $0) }
        await window.wrapperChanged(wrapper, presenting: presented)
        return .ok([])
    }

    private func managed(_ endpoint: any ControllerEndpoint, _ code: WireCallCode) throws(CallArgumentError) -> any ManagedController {
        guard let controller = endpoint as? any ManagedController else {
            throw CallArgumentError(description: "\(code): \(endpoint.id) is not a view controller")
        }
        return controller
    }

    private func presentation(_ endpoint: any ControllerEndpoint, _ code: WireCallCode) throws(CallArgumentError) -> any ManagedPresentationController {
        guard let controller = endpoint as? any ManagedPresentationController else {
            throw CallArgumentError(description: "\(code): \(endpoint.id) is not a presentation controller")
        }
        return controller
    }

    private func perform(_ code: WireCallCode, _ a: inout CallArguments, on endpoint: any ControllerEndpoint) async throws(CallArgumentError) -> WireResult {
        switch code {
        case .viewWillTransition:
            let (size, transition, cause) = (try a.size(), try a.transition(), try a.cause())
            await endpoint.deliverViewWillTransition(to: size, transition: transition, cause: cause)
        case .traitTransition:
            let (traits, deliver, transition, cause) = (try a.traits(), try a.bool(), try a.transition(), try a.cause())
            await endpoint.deliverTraitTransition(to: traits, deliver: deliver, transition: transition, cause: cause)
        case .applyPendingTraits:
            await endpoint.applyPendingTraits(cause: try a.cause())
        case .layout:
            let (frame, cause) = (try a.rect(), try a.cause())
            await endpoint.layout(frame: frame, cause: cause)
        case .preferredContentSizeDidChange:
            let (child, size, cause) = (ControllerID(try a.string()), try a.size(), try a.cause())
            await endpoint.deliverPreferredContentSizeDidChange(forChild: child, preferredSize: size, cause: cause)
        case .systemLayoutFittingSizeDidChange:
            let (child, cause) = (ControllerID(try a.string()), try a.cause())
            await endpoint.deliverSystemLayoutFittingSizeDidChange(forChild: child, cause: cause)
        case .initialLayout:
            let (frame, traits, cause) = (try a.optionalRect(), try a.traits(), try a.cause())
            await endpoint.initialLayout(frame: frame, traits: traits, cause: cause)
        case .appearance:
            let (callback, cause) = (try a.appearance(), try a.cause())
            await endpoint.deliverAppearance(callback, cause: cause)
        case .refresh:
            let (frame, traits, cause) = (try a.rect(), try a.traits(), try a.cause())
            await endpoint.refresh(frame: frame, traits: traits, cause: cause)
        case .setContainer:
            let container = try a.optionalAddress().map { self.endpoint(for: $0) }
            await endpoint.setContainer(container)
        case .childFrame:
            let child = ControllerID(try a.string())
            return .ok([try await managed(endpoint, code).frame(ofChild: child).map(WireValue.rect) ?? .none])
        case .snapshot:
            let state = try await managed(endpoint, code).snapshot()
            return .ok([.size(state.size), .traits(state.traitCollection), .size(state.preferredContentSize), .rect(state.frame)])
        case .setPreferredContentSize:
            let (size, cause) = (try a.size(), try a.cause())
            try await managed(endpoint, code).setPreferredContentSize(size, cause: cause)
        case .notifySystemLayoutFittingSizeDidChange:
            try await managed(endpoint, code).notifySystemLayoutFittingSizeDidChange(cause: try a.cause())
        case .setOverrideTraits:
            let (traits, child, transition, cause) = (try a.optionalTraits(), ControllerID(try a.string()), try a.transition(), try a.cause())
            let container = try managed(endpoint, code)
            do throws(RuntimeError) {
                try await container.setOverrideTraitCollection(traits, forChild: child, transition: transition, cause: cause)
            } catch {
                return .fault(error.description)
            }
        case .attachPresentation:
            let (pc, inherits) = (try a.address(), try a.bool())
            try await managed(endpoint, code).attachPresentation(self.endpoint(for: pc), inheritsPresenterTraits: inherits)
        case .detachPresentation:
            try await managed(endpoint, code).detachPresentation()
        case .appendChild:
            let child = self.endpoint(for: try a.address())
            try await managed(endpoint, code).appendChild(child)
        case .removeLastChild:
            try await managed(endpoint, code).removeLastChild()
        case .replaceChild:
            let (index, child) = (try a.int(), self.endpoint(for: try a.address()))
            try await managed(endpoint, code).replaceChild(at: index, with: child)
        case .select:
            let (index, cause) = (try a.int(), try a.cause())
            try await managed(endpoint, code).select(index: index, cause: cause)
        case .showChild:
            let (index, cause) = (try a.int(), try a.cause())
            try await managed(endpoint, code).showChild(at: index, cause: cause)
        case .makePresentationController:
            let (style, container, traits, window) = (try a.style(), try a.size(), try a.traits(), try a.size())
            let host = self
            let pc = try await managed(endpoint, code).makePresentationController(
                style: style, containerSize: container, traits: traits, windowSize: window, profile: profile,
                popoverSource: { await host.popoverSourceRect(of: endpoint.id) },
                wrapperChanged: { wrapper, presented in await host.wrapperChanged(wrapper, presented: presented) })
            return .ok([.address(address(of: pc))])
        case .adaptForPresentation:
            try await presentation(endpoint, code).adaptForPresentation(cause: try a.cause())
        case .prepareDisplayed:
            try await presentation(endpoint, code).prepareDisplayed()
        case .presentationCallback:
            let (callback, value, cause) = (try a.presentationCallback(), try a.bool(), try a.cause())
            try await presentation(endpoint, code).transitionCallback(callback, value: value, cause: cause)
        case .initialPresentationLayout:
            try await presentation(endpoint, code).initialPresentationLayout(cause: try a.cause())
        case .presentationState:
            let state = try await presentation(endpoint, code).presentationState()
            return .ok([
                .bool(state.removesPresenterViews), .string(state.displayedID.name), .string(state.style.rawValue),
                .bool(state.coversContext), .rect(state.containerViewBounds), .rect(state.presentedViewFrame),
            ])
        case .displayedAppearance:
            let (callback, cause) = (try a.appearance(), try a.cause())
            try await presentation(endpoint, code).deliverDisplayedAppearance(callback, cause: cause)
        case .wrapperChanged, .popoverSourceRect, .windowTransition:
            return .fault("\(code) goes to the window, not to \(endpoint.id)")
        }
        return .ok([])
    }
}
