import TrellisModel
import TrellisTrace

/// Which events of a trace to keep: by controller (alone, or with everything its events
/// caused), message kind, step range, transition and node. Empty criteria keep everything.
public struct TraceFilter: Sendable {
    public var controllers: Set<ControllerID> = []
    /// Controllers whose events and all their effects are kept.
    public var subtrees: Set<ControllerID> = []
    /// Message names (`viewWillTransition`) or categories (`delivery`, `query`…).
    public var kinds: Set<String> = []
    public var steps: ClosedRange<Int>?
    public var transitions: Set<Int> = []
    public var nodes: Set<String> = []

    public init() {}

    public var isEmpty: Bool {
        controllers.isEmpty && subtrees.isEmpty && kinds.isEmpty && steps == nil && transitions.isEmpty && nodes.isEmpty
    }

    /// The positions (in `tree.events`) of the events kept.
    public func keep(in tree: CausalTree) -> Set<Int> {
        // Each event walked once, however many of the chosen controller's events a chain holds.
        let inSubtrees = subtrees.isEmpty ? [] : tree.subtrees(of: tree.events.indices.filter { subtrees.contains(tree.events[$0].controller) })
        var kept = Set<Int>()
        for (position, event) in tree.events.enumerated() {
            if case .step = event.message { continue }
            let byController = (controllers.isEmpty && subtrees.isEmpty)
                || controllers.contains(event.controller) || inSubtrees.contains(position)
            guard byController else { continue }
            if !kinds.isEmpty, !kinds.contains(event.message.name), !kinds.contains(event.message.kind) { continue }
            if let steps, !steps.contains(event.step) { continue }
            if !transitions.isEmpty, !(event.transition.map(transitions.contains) ?? false) { continue }
            if !nodes.isEmpty, !nodes.contains(event.id.node) { continue }
            kept.insert(position)
        }
        return kept
    }
}
