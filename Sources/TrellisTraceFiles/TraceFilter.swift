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

    /// Whether the filter chooses by step and nothing else.
    var choosesOnlySteps: Bool {
        steps != nil && controllers.isEmpty && subtrees.isEmpty && kinds.isEmpty && transitions.isEmpty && nodes.isEmpty
    }

    /// Whether the header of step `step` is shown, given the steps that have an event kept: every
    /// header without a filter; with one, the headers of the steps kept events are in, and with
    /// only `--step`, every header in its range — a step that made no event is still a step.
    public func keepsHeader(ofStep step: Int, stepsWithKeptEvents: Set<Int>) -> Bool {
        if isEmpty { return true }
        if let steps, !steps.contains(step) { return false }
        return choosesOnlySteps || stepsWithKeptEvents.contains(step)
    }

    /// What `--kind` accepts: a message name (the word after the receiver) or a kind.
    public static let knownKinds: Set<String> = TraceMessage.eventNames.union(TraceMessage.eventKinds)

    /// Why `kinds` cannot be a filter's, naming the first that is neither a message name nor a
    /// kind and listing the kinds; nil when every one is known. Depends on no trace: a misspelt
    /// kind is a usage error, not an empty result.
    public static func unknownKindProblem(_ kinds: [String]) -> String? {
        guard let unknown = kinds.first(where: { !knownKinds.contains($0) }) else { return nil }
        let caseless = knownKinds.first { $0.lowercased() == unknown.lowercased() }
        return "--kind \"\(unknown)\" is neither a kind nor a message name"
            + (caseless.map { " (did you mean \($0)?)" } ?? "")
            + "; the kinds: \(TraceMessage.eventKinds.sorted().joined(separator: ", ")); or a message name, the word after the receiver in a line (viewWillTransition, sizeForChild, viewDidAppear…)"
    }

    /// Why the filter would keep nothing because it names what `events` do not have: a controller
    /// (`--controller`, `--subtree`), a step range, a transition or a node absent from the trace,
    /// the first such, with what the trace has; nil when each is there. A value that matches
    /// nothing is taken for a mistake (a misspelt controller, a step past the last) rather than
    /// printed as an empty result that looks like an answer.
    public func absenceProblem(in events: [TraceEvent]) -> String? {
        let named = controllers.union(subtrees)
        if !named.isEmpty {
            let present = Set(events.map(\.controller))
            if let missing = named.sorted().first(where: { !present.contains($0) }) {
                return "no controller \(missing) in the trace (its controllers: \(Self.listed(present.map(\.name).sorted())))"
            }
        }
        if let steps {
            let present = Set(events.map(\.step))
            // The trace's steps against the range (a range typed as 100-9223372036854775807 is
            // not walked, nor counted: its count would not fit in an Int).
            if !present.contains(where: steps.contains) {
                let asked = steps.lowerBound == steps.upperBound ? "step \(steps.lowerBound)" : "step in \(steps.lowerBound)-\(steps.upperBound)"
                return "no \(asked) in the trace (its steps: \(Self.ranges(present)); 0 is the initial layout, and an expect step has no events)"
            }
        }
        if !transitions.isEmpty {
            let present = Set(events.compactMap(\.transition))
            if let missing = transitions.sorted().first(where: { !present.contains($0) }) {
                return "no transition \(missing) in the trace (its transitions: \(present.isEmpty ? "none" : Self.ranges(present)))"
            }
        }
        if !nodes.isEmpty {
            let present = Set(events.map(\.id.node))
            if let missing = nodes.sorted().first(where: { !present.contains($0) }) {
                return "no node \(missing) in the trace (its nodes: \(Self.listed(present.sorted())))"
            }
        }
        return nil
    }

    /// Up to twelve names, then how many more.
    private static func listed(_ names: [String]) -> String {
        guard names.count > 12 else { return names.joined(separator: ", ") }
        return names.prefix(12).joined(separator: ", ") + " and \(names.count - 12) more"
    }

    /// Numbers as runs: `0-3, 5, 7-9`.
    private static func ranges(_ numbers: Set<Int>) -> String {
        var runs: [String] = []
        var start: Int?
        var last = 0
        for number in numbers.sorted() {
            if start != nil, number == last + 1 {
                last = number
                continue
            }
            if let first = start { runs.append(first == last ? "\(first)" : "\(first)-\(last)") }
            start = number
            last = number
        }
        if let first = start { runs.append(first == last ? "\(first)" : "\(first)-\(last)") }
        return runs.joined(separator: ", ")
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
