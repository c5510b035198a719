import TrellisTrace



/// Merging the events of several nodes into one trace by causality (TTF/1 §4.7): by Lamport
/// clock, ties broken by node name then sequence number. Every message carries its sender's
/// clock and a RETURN its callee's, so a run's one logical thread comes out in the order it ran.
public enum TraceMerge {
    public static func merge(_ perNode: [[TraceEvent]]) -> [TraceEvent] {
        perNode.flatMap { $0 }.sorted { a, b in
            if a.lamport != b.lamport { return a.lamport < b.lamport }
            if a.id.node != b.id.node { return a.id.node < b.id.node }
            return a.id.sequence < b.id.sequence
        }
    }
}
