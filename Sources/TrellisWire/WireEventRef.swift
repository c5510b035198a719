/// A trace event's identity on the wire: the node that recorded it and its per-node sequence number.
public struct WireEventRef: Hashable, Sendable, CustomStringConvertible {
    /// The node that recorded the event.
    public var node: String
    /// The event's sequence number on that node (1 for its first event).
    public var sequence: UInt64

    /// An event reference from its node and sequence number.
    public init(node: String, sequence: UInt64) {
        self.node = node
        self.sequence = sequence
    }

    /// `node#sequence`, as the trace tools name events.
    public var description: String { "\(node)#\(sequence)" }
}
