/// The command octet of a header (byte 4): which body layout the second frame holds.
public enum WireCommand: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// A node introduces itself to a peer: node name, run id, capabilities.
    case hello = 0x01
    /// The conductor configures a node: run id, node name, scenario, heartbeat settings.
    case setup = 0x02
    /// A node has built its controllers and is ready for calls (answers SETUP).
    case ready = 0x03
    /// One node asks a controller that another node hosts to do something.
    case call = 0x10
    /// The completion of a CALL: its results, or a fault.
    case `return` = 0x11
    /// A sign of life; nothing else was sent to that peer for one interval.
    case heartbeat = 0x20
    /// The sender will send nothing more on this stream (but GOODBYE-ACK).
    case goodbye = 0x30
    /// Everything before the peer's GOODBYE was processed.
    case goodbyeAck = 0x31
    /// A received message could not be accepted.
    case error = 0x40
    /// The conductor asks a node for its trace.
    case traceRequest = 0x50
    /// A part of a node's trace as JSON Lines (answers TRACE-REQUEST).
    case traceData = 0x51
    /// Several messages of one stream in one ZeroMQ message (`WireBatch`); not a body of its own.
    case batch = 0x60

    /// The name the protocol document uses: `HELLO`, `GOODBYE-ACK`.
    public var description: String {
        switch self {
        case .hello: "HELLO"
        case .setup: "SETUP"
        case .ready: "READY"
        case .call: "CALL"
        case .return: "RETURN"
        case .heartbeat: "HEARTBEAT"
        case .goodbye: "GOODBYE"
        case .goodbyeAck: "GOODBYE-ACK"
        case .error: "ERROR"
        case .traceRequest: "TRACE-REQUEST"
        case .traceData: "TRACE-DATA"
        case .batch: "BATCH"
        }
    }
}
