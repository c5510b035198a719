import TrellisModel

/// Builds the controllers a node hosts from their descriptions.
public enum ControllerFactory {
    /// Creates the controllers children-first (a parent is created with its children's
    /// endpoints), iteratively so that a deep hierarchy cannot exhaust the stack. A controller
    /// for which `remote` gives a stand-in is not built here: the stand-in takes its place, and
    /// its own children are built by the node that hosts it.
    package static func build(
        _ byID: [ControllerID: ControllerDescription], order: [ControllerID], environment: RuntimeEnvironment,
        remote: @Sendable (ControllerID) -> (any ManagedController)? = { _ in nil }
    ) async -> [ControllerID: any ManagedController] {
        await buildTable(byID, order: order, environment: environment, remote: remote).dictionary
    }

    /// The same, kept by the names' positions in the environment's recorder (a window's table).
    package static func buildTable(
        _ byID: [ControllerID: ControllerDescription], order: [ControllerID], environment: RuntimeEnvironment,
        remote: @Sendable (ControllerID) -> (any ManagedController)? = { _ in nil }
    ) async -> WindowControllers {
        // Sized once: grown by doubling, each outgrown table (up to 16 MB at 100k) was left
        // in the heap, resident, beside the window's controllers.
        var built = WindowControllers(recorder: environment.recorder, capacity: order.count)
        var standIns = Set<ControllerID>()
        // Each controller interns its name: the recorder's tables sized once for all of them.
        environment.recorder.reserveNames(order.count)
        for top in order where built[top] == nil {
            var stack: [(id: ControllerID, childrenPushed: Bool)] = [(top, false)]
            while let (id, childrenPushed) = stack.popLast() {
                if built[id] != nil { continue }
                if let standIn = remote(id) {
                    built[id] = standIn
                    standIns.insert(id)
                    continue
                }
                // The caller validated the hierarchy: every child id is described.
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
                // A stand-in's container is set by the node that hosts it.
                for child in description.children where !standIns.contains(child) {
                    await built[child]?.setContainer(controller)
                }
                built[id] = controller
            }
        }
        return built
    }
}
