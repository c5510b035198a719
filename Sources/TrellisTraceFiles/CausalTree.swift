import TrellisTrace

/// The events of a trace as a forest by causality: each event under the event that caused it
/// (its `cause`), roots being step headers and whatever has no cause in the trace.
///
/// Everything here is linear in the trace's size, however deep its cause chains: building the
/// tree, walking it, the subtree of any set of events and each event's last effect. A damaged
/// trace whose causes form a cycle is not a forest; `cycle` names an event of the cycle, and
/// the events of a cycle (and whatever they caused) are reached from no root. An event that is
/// its own cause is such a cycle (it stays a root, so that the rest can be printed), and an id
/// that two events have (`repeated`) is damage as well.
public struct CausalTree: Sendable {
    public let events: [TraceEvent]
    private let index: [EventRef: Int]
    /// The children of event `p` are `childList[childStart[p]..<childStart[p + 1]]`, in trace order.
    private let childStart: [Int]
    private let childList: [Int]
    public let roots: [Int]
    /// An event on a cycle of causes (damaged input), or nil when the causes form a forest.
    public let cycle: Int?
    /// An event whose id an earlier event of the trace has (damaged input), or nil.
    public let repeated: Int?
    /// The events whose cause the trace does not have (each a root), and the first of them: a
    /// trace merged from the files of a run that lost a node lacks that node's events; an edited
    /// one may name an event that never was.
    public let absentCauses: (count: Int, first: Int?)

    public init(_ events: [TraceEvent]) {
        self.events = events
        var index: [EventRef: Int] = [:]
        // Sized once: growing it step by step rehashed the events again at every doubling.
        index.reserveCapacity(events.count)
        var repeated: Int?
        for (position, event) in events.enumerated() where index.updateValue(position, forKey: event.id) != nil {
            repeated = repeated ?? position
        }
        var parents = [Int](repeating: -1, count: events.count)
        var counts = [Int](repeating: 0, count: events.count + 1)
        var roots: [Int] = []
        var ownCause: Int?
        var absentCauses: (count: Int, first: Int?) = (0, nil)
        for (position, event) in events.enumerated() {
            if let cause = event.cause, let parent = index[cause], parent != position {
                parents[position] = parent
                counts[parent + 1] += 1
            } else {
                if event.cause == event.id { ownCause = ownCause ?? position }
                if event.cause != nil, event.cause != event.id {
                    absentCauses = (absentCauses.count + 1, absentCauses.first ?? position)
                }
                roots.append(position)
            }
        }
        for position in events.indices { counts[position + 1] += counts[position] }
        var next = counts
        var childList = [Int](repeating: 0, count: counts[events.count])
        for (position, parent) in parents.enumerated() where parent >= 0 {
            childList[next[parent]] = position
            next[parent] += 1
        }
        self.index = index
        self.childStart = counts
        self.childList = childList
        self.roots = roots
        self.cycle = ownCause ?? Self.cycleMember(parents: parents, roots: roots, childStart: counts, childList: childList)
        self.repeated = repeated
        self.absentCauses = absentCauses
    }

    /// An event on a cycle of causes: every event reached from no root has a parent, so walking
    /// up from one of them must come back to an event already walked.
    private static func cycleMember(parents: [Int], roots: [Int], childStart: [Int], childList: [Int]) -> Int? {
        var reached = [Bool](repeating: false, count: parents.count)
        var stack = roots
        var count = 0
        while let position = stack.popLast() {
            reached[position] = true
            count += 1
            stack.append(contentsOf: childList[childStart[position]..<childStart[position + 1]])
        }
        guard count < parents.count, let start = reached.firstIndex(of: false) else { return nil }
        var walked = Set<Int>()
        var current = start
        while walked.insert(current).inserted, parents[current] >= 0 { current = parents[current] }
        return current
    }

    public func position(of id: EventRef) -> Int? { index[id] }

    public func children(of position: Int) -> [Int] { Array(childList[childStart[position]..<childStart[position + 1]]) }

    /// The causes of an event, from its root down to its direct cause.
    public func causes(of position: Int) -> [Int] {
        var chain: [Int] = []
        var seen = Set([position])
        var current = position
        while let cause = events[current].cause, let parent = index[cause], seen.insert(parent).inserted {
            chain.append(parent)
            current = parent
        }
        return chain.reversed()
    }

    /// Everything an event caused, depth-first in trace order, with depths below it (from 1).
    public func effects(of position: Int) -> [(position: Int, depth: Int)] {
        var result: [(position: Int, depth: Int)] = []
        var stack: [(Int, Int)] = [(position, 0)]
        var seen = Set([position])
        while let (current, depth) = stack.popLast() {
            if depth > 0 { result.append((current, depth)) }
            for child in childList[childStart[current]..<childStart[current + 1]].reversed() where seen.insert(child).inserted {
                stack.append((child, depth + 1))
            }
        }
        return result
    }

    /// The events at `positions` and everything they caused, each once.
    public func subtrees(of positions: some Sequence<Int>) -> Set<Int> {
        var reached = Set<Int>()
        var stack = Array(positions)
        while let current = stack.popLast() {
            guard reached.insert(current).inserted else { continue }
            stack.append(contentsOf: childList[childStart[current]..<childStart[current + 1]])
        }
        return reached
    }

    /// For each event, the largest Lamport clock among it and everything it caused.
    public func lastEffectClocks() -> [UInt64] {
        var last = events.map(\.lamport)
        var order: [Int] = []
        order.reserveCapacity(events.count)
        var stack = roots
        while let current = stack.popLast() {
            order.append(current)
            stack.append(contentsOf: childList[childStart[current]..<childStart[current + 1]])
        }
        // Children come after their parent in `order`: backwards, each is final before its parent.
        for current in order.reversed() {
            for child in childList[childStart[current]..<childStart[current + 1]] where last[child] > last[current] {
                last[current] = last[child]
            }
        }
        return last
    }

    /// Levels of indentation written out in full; deeper events print their depth as a number.
    public static let indentLimit = 32

    /// The indentation of an event `depth` levels down: two spaces a level up to `indentLimit`,
    /// then the full indent of the limit followed by `[depth] `, so a deep chain's output stays
    /// linear in its length.
    public static func indent(_ depth: Int) -> String {
        guard depth > indentLimit else { return String(repeating: "  ", count: max(0, depth)) }
        return String(repeating: "  ", count: indentLimit) + "[\(depth)] "
    }

    /// The whole forest as indented canonical lines (two spaces a level, see `indent`).
    public func indentedLines(
        including keep: (Int) -> Bool = { _ in true }, text: (TraceEvent) -> String = { $0.canonicalLine }
    ) -> [String] {
        var lines: [String] = []
        for root in roots {
            if keep(root) { lines.append(text(events[root])) }
            for (position, depth) in effects(of: root) where keep(position) {
                lines.append(Self.indent(depth) + text(events[position]))
            }
        }
        return lines
    }
}
