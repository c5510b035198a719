/// The events of a trace as a forest by causality: each event under the event that caused it
/// (its `cause`), roots being step headers and whatever has no cause in the trace.
public struct CausalTree: Sendable {
    public let events: [TraceEvent]
    private let index: [EventRef: Int]
    private let children: [Int: [Int]]
    public let roots: [Int]

    public init(_ events: [TraceEvent]) {
        self.events = events
        var index: [EventRef: Int] = [:]
        // Sized once: growing it step by step rehashed the events again at every doubling.
        index.reserveCapacity(events.count)
        for (position, event) in events.enumerated() { index[event.id] = position }
        var children: [Int: [Int]] = [:]
        var roots: [Int] = []
        for (position, event) in events.enumerated() {
            if let cause = event.cause, let parent = index[cause], parent != position {
                children[parent, default: []].append(position)
            } else {
                roots.append(position)
            }
        }
        self.index = index
        self.children = children
        self.roots = roots
    }

    public func position(of id: EventRef) -> Int? { index[id] }

    public func children(of position: Int) -> [Int] { children[position] ?? [] }

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
        var result: [(Int, Int)] = []
        var stack: [(Int, Int)] = children(of: position).reversed().map { ($0, 1) }
        var seen = Set([position])
        while let (current, depth) = stack.popLast() {
            guard seen.insert(current).inserted else { continue }
            result.append((current, depth))
            stack.append(contentsOf: children(of: current).reversed().map { ($0, depth + 1) })
        }
        return result
    }

    /// The whole forest as indented lines (`indentation(depth:)`), each event rendered by `text`
    /// (its canonical line by default).
    public func indentedLines(
        including keep: (Int) -> Bool = { _ in true }, text: (TraceEvent) -> String = { $0.canonicalLine }
    ) -> [String] {
        var lines: [String] = []
        for root in roots {
            if keep(root) { lines.append(text(events[root])) }
            for (position, depth) in effects(of: root) where keep(position) {
                lines.append(Self.indentation(depth: depth) + text(events[position]))
            }
        }
        return lines
    }

    /// Levels indented with spaces; deeper ones say their depth instead, so that printing a
    /// chain of N causes takes space in proportion to N, not N².
    public static let maximumIndentation = 64

    /// What precedes a line `depth` levels down a tree: two spaces a level, and below
    /// `maximumIndentation` levels that many and then `[depth N] `.
    public static func indentation(depth: Int) -> String {
        guard depth > maximumIndentation else { return String(repeating: "  ", count: max(depth, 0)) }
        return String(repeating: "  ", count: maximumIndentation) + "[depth \(depth)] "
    }
}
