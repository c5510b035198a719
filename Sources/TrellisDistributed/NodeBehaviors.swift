import TrellisRuntime
import TrellisScenario
import TrellisWire

/// The Swift behaviours of a distributed run (SPEC §4.1, TWP/1 §7.2): the ones a node's SETUP
/// names, and the refusal of a node whose runner lacks some. Every node runs the conductor's own
/// program, so they all know the same names; a node of another program says which it lacks.
package enum NodeBehaviors {
    /// The SETUP form of a registered name.
    package static func wire(_ name: BehaviorName) -> WireBehavior {
        WireBehavior(wireKind(name.kind), name.name)
    }

    package static func wireKind(_ kind: BehaviorKind) -> WireBehaviorKind {
        switch kind {
        case .viewController: .viewController
        case .presentationController: .presentationController
        case .adaptiveDelegate: .adaptiveDelegate
        }
    }

    package static func registryKind(_ kind: WireBehaviorKind) -> BehaviorKind {
        switch kind {
        case .viewController: .viewController
        case .presentationController: .presentationController
        case .adaptiveDelegate: .adaptiveDelegate
        }
    }

    /// What `node`'s SETUP names (TWP/1 §7.2): the behaviours of the controllers it hosts, their
    /// presentation controllers' and adaptive delegates' (made on the presented controller's
    /// node), each once, sorted by kind then name.
    package static func needed(by node: String, in scenario: Scenario, placement: Placement) -> [WireBehavior] {
        let names = scenario.controllers.filter { placement.nodeOf[$0.id] == node }.flatMap(\.behaviorNames)
        return Set(names).sorted().map(wire)
    }

    /// Every behaviour the scenario's JSON text names, read before it is decoded (the
    /// decoder's own reading, `ScenarioDecoder.behaviorNames(inJSON:)`): a node checks the names
    /// its controllers need (SETUP's) and the file's others alike.
    package static func named(inScenarioJSON text: String) -> [WireBehavior] {
        ScenarioDecoder.behaviorNames(inJSON: text).map(wire)
    }

    /// The behaviours a SETUP names that `registry` does not register, sorted; a kind octet this
    /// version does not define is one of them.
    package static func missing(_ named: [WireBehavior], in registry: BehaviorRegistry) -> [WireBehavior] {
        Set(named.filter { behavior in
            guard let kind = behavior.knownKind else { return true }
            return !registry.contains(behavior.name, as: registryKind(kind))
        }).sorted()
    }

    /// The types of `named`'s behaviours in the conductor's runner (SETUP's `implementations`,
    /// TWP/1 §7.2), in their order: empty strings for names it does not register.
    package static func implementations(of named: [WireBehavior], in registry: BehaviorRegistry) -> [String] {
        named.map { behavior in
            behavior.knownKind.flatMap { registry.implementation(of: behavior.name, as: registryKind($0)) } ?? ""
        }
    }

    /// The behaviours a SETUP names whose type in the conductor's runner (`type`, not empty)
    /// differs from the one `registry` registers: a node of another runner, whatever names it
    /// shares (SPEC §4.1). Each with the node's type.
    package static func foreign(_ named: [(WireBehavior, type: String)], in registry: BehaviorRegistry) -> [(behavior: WireBehavior, theirs: String, ours: String)] {
        named.compactMap { behavior, theirs in
            guard !theirs.isEmpty, let kind = behavior.knownKind,
                  let ours = registry.implementation(of: behavior.name, as: registryKind(kind)), ours != theirs else { return nil }
            return (behavior, theirs, ours)
        }
    }

    /// ERROR 8's text for a node of another runner: which behaviours differ, and how (the
    /// first `listedNames`).
    package static func foreignRefusal(node: String, foreign: [(behavior: WireBehavior, theirs: String, ours: String)]) -> String {
        let differences = foreign.map { "\($0.behavior) is \($0.ours) here, \($0.theirs) in the conductor's runner" }
        return "node \(node) was started from another runner than the conductor's (a hand-started node must be the same runner): \(listed(differences))"
    }

    /// At most this many names are listed in ERROR 8's text, so that it always encodes (a
    /// SETUP may name up to 65,535 behaviours; the text's length is a u16).
    package static let listedNames = 20

    /// ERROR 8's text (TWP/1 §9.1 rule 4): the node, the behaviours it lacks (the first
    /// `listedNames`, then how many more), and what it knows (as many).
    package static func refusal(node: String, missing: [WireBehavior], registry: BehaviorRegistry) -> String {
        let lacked = listed(missing.map(\.description))
        let known = registry.names.map { wire($0).description }
        let knows = known.isEmpty
            ? "it registers no Swift behaviours (the plain trellis, or a runner without them)"
            : "it knows \(listed(known))"
        return "node \(node) does not know the \(missing.count == 1 ? "behaviour" : "behaviours") \(lacked): \(knows)"
    }

    private static func listed(_ names: [String]) -> String {
        let shown = names.prefix(listedNames).joined(separator: ", ")
        return names.count > listedNames ? shown + " … \(names.count - listedNames) more" : shown
    }
}
