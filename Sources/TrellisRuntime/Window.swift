import TrellisModel
import TrellisTrace

/// Something that happens to a window, processed one at a time in arrival order (UIKit's
/// main-thread rule), so a run's trace is deterministic.
public enum WindowEvent: Sendable, Equatable {
    /// One environment change (R1, R14): a new window size, new window traits (merged into the
    /// current ones), or both at once as a rotation does.
    case environmentChange(size: Size?, traits: TraitCollection?)
    /// A controller sets its `preferredContentSize` (R22).
    case setPreferredContentSize(ControllerID, Size)
    /// A container sets or (with nil) removes the trait override of one child (R17).
    case setTraitOverride(container: ControllerID, child: ControllerID, traits: TraitCollection?)
    /// A controller's fitting size changed (R27).
    case systemLayoutFittingSizeDidChange(ControllerID)
}

/// A window and its controller hierarchy: the entry point of every environment change and the
/// serial queue of its events. Different windows run concurrently.
public actor Window {
    public nonisolated let environment: RuntimeEnvironment
    public nonisolated let rootID: ControllerID
    let root: Controller
    let controllers: [ControllerID: Controller]
    public private(set) var size: Size
    public private(set) var traits: TraitCollection
    private var started = false

    /// A queued event and who waits for it.
    private struct Envelope: Sendable {
        var event: WindowEvent
        var header: (number: Int, description: String)?
        var done: CheckedContinuation<Result<Void, RuntimeError>, Never>
    }

    private var mailbox: SerialMailbox<Envelope>?

    /// Builds every controller of `hierarchy` as an actor and wires them; nothing runs yet.
    public init(_ hierarchy: HierarchyDescription, environment: RuntimeEnvironment = RuntimeEnvironment()) async throws(RuntimeError) {
        let byID = try hierarchy.validate()
        self.environment = environment
        self.rootID = hierarchy.root
        self.size = hierarchy.windowSize
        self.traits = hierarchy.windowTraits
        let built = await Self.buildControllers(byID, order: hierarchy.controllers.map(\.id), environment: environment)
        self.controllers = built
        // validate() proved the root present, so the fallback is never taken.
        self.root = built[hierarchy.root] ?? Controller(description: ControllerDescription(hierarchy.root), children: [], environment: environment)
    }

    /// Creates the controllers children-first (a parent is created with its children's
    /// endpoints), iteratively so that a deep hierarchy cannot exhaust the stack.
    private static func buildControllers(
        _ byID: [ControllerID: ControllerDescription], order: [ControllerID], environment: RuntimeEnvironment
    ) async -> [ControllerID: Controller] {
        var built: [ControllerID: Controller] = [:]
        for top in order where built[top] == nil {
            var stack: [(id: ControllerID, childrenPushed: Bool)] = [(top, false)]
            while let (id, childrenPushed) = stack.popLast() {
                if built[id] != nil { continue }
                // validate() proved every child id described.
                guard let description = byID[id] else { continue }
                if !childrenPushed {
                    stack.append((id, true))
                    for child in description.children.reversed() where built[child] == nil {
                        stack.append((child, false))
                    }
                    continue
                }
                let children = description.children.compactMap { built[$0] }
                let controller = Controller(description: description, children: children, environment: environment)
                for child in children {
                    await child.setContainer(controller)
                }
                built[id] = controller
            }
        }
        return built
    }

    /// The controller named `id`, for inspection.
    public func controller(_ id: ControllerID) throws(RuntimeError) -> Controller {
        guard let controller = controllers[id] else { throw .unknownController(id) }
        return controller
    }

    /// Lays the hierarchy out at the window's size and traits: the initial layout, recorded
    /// before any step. Called once; later calls do nothing.
    public func start() async {
        guard !started else { return }
        started = true
        let window = self
        mailbox = SerialMailbox { envelope in
            await window.process(envelope)
        }
        await root.initialLayout(size: size, traits: traits, cause: nil)
    }

    /// Queues `event` behind the window's earlier events and waits until it and everything it
    /// caused has been handled. `header` records a step header first.
    public func perform(_ event: WindowEvent, header: (number: Int, description: String)? = nil) async throws(RuntimeError) {
        await start()
        guard let mailbox else { throw .windowClosed }
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<Void, RuntimeError>, Never>) in
            if !mailbox.send(Envelope(event: event, header: header, done: done)) {
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
        var cause: EventRef?
        if let header = envelope.header {
            cause = environment.recorder.beginStep(header.number, description: header.description)
        }
        do {
            try await handle(envelope.event, cause: cause)
            envelope.done.resume(returning: .success(()))
        } catch {
            environment.recorder.record(.error(error.description), controller: rootID, cause: cause)
            envelope.done.resume(returning: .failure(error))
        }
    }

    private func handle(_ event: WindowEvent, cause: EventRef?) async throws(RuntimeError) {
        switch event {
        case let .environmentChange(newSize, traitChange):
            await changeEnvironment(size: newSize ?? size, traits: traits.overlaid(with: traitChange ?? .unspecified), cause: cause)
        case let .setPreferredContentSize(id, preferred):
            try await controller(id).setPreferredContentSize(preferred, cause: cause)
        case let .setTraitOverride(containerID, child, override):
            let container = try controller(containerID)
            let transition = environment.beginTransition(animated: false, duration: 0, windowTraits: traits)
            try await container.setOverrideTraitCollection(override, forChild: child, transition: transition, cause: cause)
            environment.finishTransition(transition, cause: cause)
        case let .systemLayoutFittingSizeDidChange(id):
            try await controller(id).notifySystemLayoutFittingSizeDidChange(cause: cause)
        }
    }

    /// R14: willTransition to every controller whose traits change, then viewWillTransition if the
    /// size changes, then traitCollectionDidChange once the new traits apply; then the layout
    /// pass applies the new sizes (R10) and the coordinators' blocks run.
    private func changeEnvironment(size newSize: Size, traits newTraits: TraitCollection, cause: EventRef?) async {
        let traitsChange = newTraits != traits
        let sizeChange = newSize != size
        guard traitsChange || sizeChange else { return }
        let transition = environment.beginTransition(
            animated: true, duration: RuntimeEnvironment.defaultTransitionDuration, windowTraits: newTraits)
        if traitsChange {
            await root.deliverTraitTransition(to: newTraits, deliver: true, transition: transition, cause: cause)
        }
        if sizeChange {
            await root.deliverViewWillTransition(to: newSize, transition: transition, cause: cause)
        }
        if traitsChange {
            traits = newTraits
            await root.applyPendingTraits(cause: cause)
        }
        if sizeChange {
            size = newSize
            await root.layout(cause: cause)
        }
        environment.finishTransition(transition, cause: cause)
    }
}
