import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// What one node hosts and how it serves CALLs for it: the directory from controller ids to
/// local actors (controllers, presentation controllers, adaptive wrappers) and to stand-ins for
/// the controllers other nodes host; the routing of each CALL to what it addresses, which then
/// serves it as the call's declaration in `ControllerCalls` says.
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
    /// Whether a behaviour here can make requests for the conductor's window (TWP §8.6): only
    /// on another node than the conductor's, in a run whose scenario names a Swift behaviour.
    /// Decided once, so that a run without behaviours does not look for requests around every
    /// CALL.
    package nonisolated let sendsRequests: Bool
    /// Faults met by calls from this node (peer gone, undeliverable): the run ends with them.
    package private(set) var faults: [String] = []

    /// TWP/1: an address with an empty controller id (incarnation 0) is the node itself; the
    /// conductor's node passes what it receives there to its window.
    static let windowTarget = ""

    package init(
        nodeName: String, conductorNode: String, environment: RuntimeEnvironment, transport: NodeTransport,
        profile: AdaptationProfile, placement: [ControllerID: String], incarnation: UInt32 = 1, namesBehaviors: Bool = true
    ) {
        self.nodeName = nodeName
        self.conductorNode = conductorNode
        self.environment = environment
        self.transport = transport
        self.profile = profile
        self.placement = placement
        self.runNodes = Set(placement.values).union([nodeName, conductorNode])
        self.incarnation = incarnation
        self.sendsRequests = nodeName != conductorNode && namesBehaviors
        // The window, and so the transitions' numbers and the window's size and traits, live with
        // the conductor: a node elsewhere asks it for the transitions its controllers start.
        if nodeName != conductorNode {
            environment.takeTransitions(
                from: { [weak self] animated in await self?.windowTransition(animated: animated) },
                endingThem: { [weak self] transition, cause in await self?.endTransition(transition, cause: cause) })
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

    /// The controller at `address`: hosted here, or a stand-in for it.
    func endpoint(for address: WireAddress) -> any ControllerEndpoint {
        if address.node == nodeName, let found = local[ControllerID(address.controller)] { return found }
        return proxy(for: address)
    }

    // MARK: Calls out

    /// One CALL to the node hosting `address`; nil when it failed, the fault recorded under the
    /// target's name and kept for the end of the run.
    private func call(_ address: WireAddress, _ code: WireCallCode, _ arguments: [WireValue]) async -> [WireValue]? {
        await sendRequests()
        let result = await transport.call(peer: address.node, target: address, code: code, arguments: arguments)
        switch result {
        case let .ok(values):
            return values
        case let .fault(text):
            // TWP/1 §9.3 rule 5: the fault is the target's; the conductor's window (the empty
            // controller id) is named by its node, as a node's own receivers are (TTF/1 §3.1).
            let windowCall = address.controller == Self.windowTarget
            let target = windowCall ? "the window" : address.controller
            environment.recorder.record(.fault("\(code) to \(target) on node \(address.node) failed: \(text)"),
                                        controller: windowCall ? ControllerIDs.node(address.node) : ControllerID(address.controller), cause: nil)
            faults.append("\(code) to \(target) on node \(address.node): \(text)")
            return nil
        }
    }

    /// One CALL of `call`, its arguments written and its results read as the call declares them:
    /// nil when it failed (the fault is recorded), a failure when its results do not match.
    func call<Recipient, Arguments, Results>(
        _ address: WireAddress, _ call: WireCall<Recipient, Arguments, Results>, _ arguments: Arguments
    ) async -> Result<Results, UnreadableResults>? {
        guard let values = await self.call(address, call.code, call.encode(arguments)) else { return nil }
        var reader = CallReader(code: call.code, values: values, runNodes: runNodes)
        do throws(CallFault) {
            return .success(try call.results.decode(&reader))
        } catch {
            return .failure(UnreadableResults(count: values.count, fault: error))
        }
    }

    package func noteFault(_ text: String) {
        faults.append(text)
    }

    /// The conductor's window, as the calls to it address it (TWP/1 §8).
    private var conductorWindow: WireAddress {
        WireAddress(node: conductorNode, controller: Self.windowTarget, incarnation: 0)
    }

    /// An adaptive wrapper came or went on this node: the conductor's window must know.
    func wrapperChanged(_ wrapper: (any ManagedController)?, presented: ControllerID) async {
        if let wrapper { local[wrapper.id] = wrapper }
        if let window {
            await window.wrapperChanged(wrapper, presenting: presented)
            return
        }
        _ = await call(conductorWindow, ControllerCalls.wrapperChanged, (presented, wrapper.map { address(of: $0) }))
    }

    /// R62: a popover's source rect in window coordinates, from the window that knows every
    /// frame: here, or the conductor's.
    func popoverSourceRect(of presented: ControllerID) async -> Rect? {
        if let window { return await window.popoverSourceRect(of: presented) }
        guard case let .success(rect)? = await call(conductorWindow, ControllerCalls.popoverSourceRect, presented) else { return nil }
        return rect
    }

    /// SPEC §4.2 over the wire: the requests this node's behaviours made go to the conductor's
    /// window before anything else leaves this node — a CALL, or the RETURN of the call during
    /// which they were made — so the window queues them in the order one process would have
    /// made them, before the event that led to them is done. Nothing on the conductor's node:
    /// its behaviours queue in the window's own environment.
    func sendRequests() async {
        guard sendsRequests else { return }
        for queued in environment.takeRequests() {
            _ = await call(conductorWindow, ControllerCalls.behaviorRequest, (queued.requester, queued.request, queued.event))
        }
        // The same rule orders the blocks registered with a coordinator here (TWP/1.4 §8.7).
        for registered in environment.takeCoordinatorAnnouncements() {
            let owner = WireAddress(node: nodeName, controller: registered.owner.name, incarnation: incarnation)
            _ = await call(
                conductorWindow, ControllerCalls.coordinatorRegistration,
                (registered.transition, owner, registered.alongside, registered.completion))
        }
    }

    /// A transition from the conductor's window (TWP/1 `windowTransition`): its next number, its
    /// size and traits now. Nil when the call failed (the fault is recorded).
    func windowTransition(animated: Bool) async -> TransitionInfo? {
        switch await call(conductorWindow, ControllerCalls.windowTransition, animated) {
        case .success(let transition)?:
            return transition
        case .failure(let unreadable)?:
            noteFault("windowTransition from node \(conductorNode): \(unreadable.fault.description)")
            return nil
        case nil:
            return nil
        }
    }

    /// A transition this node started is over: the conductor's window runs its coordinator
    /// blocks, this node's (told to it first, `sendRequests`) among every node's (TWP/1.4 §8.7).
    func endTransition(_ transition: TransitionInfo, cause: EventRef?) async {
        _ = await call(conductorWindow, ControllerCalls.endTransition, (transition, cause))
    }

    // MARK: Calls in

    /// Where a CALL is served (`CallPlacement`), as its declaration in `ControllerCalls` says.
    package static func placement(for code: WireCallCode) -> CallPlacement {
        ControllerCalls.served(code).placement
    }

    /// Serves one CALL addressed to this node, as its declaration in `ControllerCalls` says.
    package func handle(_ message: WireMessage) async -> WireResult {
        guard case let .call(target, code, values) = message.body else { return .fault("not a CALL") }
        environment.recorder.enter(step: Int(message.header.step))
        guard target.node == nodeName else {
            return .fault("undeliverable: \(target.controller) is addressed to node \(target.node), this is node \(nodeName)")
        }
        let call = ControllerCalls.served(code)
        var reader = CallReader(code: code, values: values, runNodes: runNodes)
        do throws(CallFault) {
            try reader.checkNoMoreThan(call.arguments.count)
            let results = try await call.serve(self, &reader, try recipient(of: target, for: call))
            await sendRequests()
            return .ok(results)
        } catch {
            await sendRequests()
            return .fault(error.description)
        }
    }

    /// What `target` names, when it can take `call`: the window for the node's own address, one
    /// of this node's controllers otherwise.
    private func recipient(of target: WireAddress, for call: ServedCall) throws(CallFault) -> ServedRecipient {
        if target.controller == Self.windowTarget {
            guard let window else { throw CallFault("undeliverable: no window on node \(nodeName)") }
            guard call.goesToWindow else { throw CallFault("undeliverable: \(call.code) does not go to the window") }
            return .window(window)
        }
        guard target.incarnation == incarnation else {
            throw CallFault("undeliverable: stale incarnation \(target.incarnation) of \(target.controller) (now \(incarnation))")
        }
        guard let endpoint = local[ControllerID(target.controller)] else {
            throw CallFault("undeliverable: no controller \(target.controller) on node \(nodeName)")
        }
        guard !call.goesToWindow else { throw CallFault("\(call.code) goes to the window, not to \(endpoint.id)") }
        return .controller(endpoint)
    }
}

/// Results of a CALL that do not match its declaration (TWP §8: a caller checks them).
struct UnreadableResults: Error {
    /// How many values the RETURN carried.
    let count: Int
    let fault: CallFault
}
