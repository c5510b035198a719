import TrellisTransport
import TrellisModel
import TrellisScenario

/// Which node hosts each controller of a scenario (SPEC §5 `placement`).
package struct Placement: Sendable, Equatable {
    /// The node that conducts the run: the root's.
    package var conductor: String
    package var nodeOf: [ControllerID: String]

    /// Every node that hosts something, the conductor first, then by name.
    package var nodes: [String] {
        [conductor] + Set(nodeOf.values).subtracting([conductor]).sorted()
    }

    /// The conductor's node when the root is not placed.
    package static let defaultConductor = "main"

    /// Explicit placements first; an unplaced controller lives with its parent; one outside the
    /// tree (presented, pushed or shown later) with the controller its first such step names;
    /// anything else with the conductor.
    package init(_ scenario: Scenario) {
        conductor = scenario.placement[scenario.root] ?? Self.defaultConductor
        var parentOf: [ControllerID: ControllerID] = [:]
        for spec in scenario.controllers {
            for child in spec.children { parentOf[child] = spec.id }
        }
        var companion: [ControllerID: ControllerID] = [:]
        for case let .event(event) in scenario.steps {
            if let (introduced, by) = event.introduced, companion[introduced] == nil { companion[introduced] = by }
        }
        // Walk up (parent, else companion) until a known node, iteratively: a deep tree must
        // not exhaust the stack; a loop of companions ends with the conductor.
        var resolved: [ControllerID: String] = [:]
        for spec in scenario.controllers {
            if let explicit = scenario.placement[spec.id] { resolved[spec.id] = explicit }
        }
        resolved[scenario.root] = conductor
        for spec in scenario.controllers where resolved[spec.id] == nil {
            var chain: [ControllerID] = []
            var seen = Set<ControllerID>()
            var current: ControllerID? = spec.id
            var found = conductor
            while let id = current, seen.insert(id).inserted {
                if let known = resolved[id] {
                    found = known
                    break
                }
                chain.append(id)
                current = parentOf[id] ?? companion[id]
            }
            for id in chain { resolved[id] = found }
        }
        nodeOf = resolved
    }
}
