import TrellisTrace



/// Merging the events of several nodes into one trace by causality (TTF/1 §4.7): by Lamport
/// clock, ties broken by node name then sequence number. Every message carries its sender's
/// clock and a RETURN its callee's, so a run's one logical thread comes out in the order it ran.
public enum TraceMerge {
    public static func merge(_ perNode: [[TraceEvent]]) -> [TraceEvent] {
        // One node's events, as a trace file of an in-process run holds them, are in this order
        // already (a node's clock rises with its sequence numbers): kept, not sorted again.
        if perNode.count == 1, isMerged(perNode[0]) { return perNode[0] }
        return perNode.flatMap { $0 }.sorted(by: precedes)
    }

    /// Whether `a` comes before `b` in a merged trace.
    static func precedes(_ a: TraceEvent, _ b: TraceEvent) -> Bool {
        if a.lamport != b.lamport { return a.lamport < b.lamport }
        if a.id.node != b.id.node { return a.id.node < b.id.node }
        return a.id.sequence < b.id.sequence
    }

    /// Whether `events` are in merged order.
    static func isMerged(_ events: [TraceEvent]) -> Bool {
        events.indices.dropFirst().allSatisfy { !precedes(events[$0], events[$0 - 1]) }
    }
}
