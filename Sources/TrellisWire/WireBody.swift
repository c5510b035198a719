/// The second frame of a message, decoded: one case per command, with that command's fields.
public enum WireBody: Hashable, Sendable {
    /// HELLO: the sender's node name, the run id it knows (empty before SETUP) and its capability bits.
    /// `endpoint` (optional, trailing): where the sender's ROUTER listens, for a conductor that
    /// did not choose it.
    case hello(node: String, runID: String, capabilities: UInt32, endpoint: String = "")
    /// SETUP: the run id, the name the node plays, the scenario as JSON text, and the heartbeat
    /// interval and peer-gone timeout in milliseconds.
    /// `peers` (optional, trailing): every node of the run and where it listens, so that workers
    /// can open their DEALERs to each other.
    /// `behaviors` (optional, trailing, since 1.3): the Swift behaviours the node's controllers
    /// need; a node that lacks one refuses the SETUP (ERROR 8). `implementations` (optional,
    /// trailing, since 1.6): the type each of `behaviors` is in the conductor's runner, in their
    /// order; a node whose runner registers one of them with another type refuses (ERROR 8).
    case setup(
        runID: String, node: String, scenarioJSON: String, heartbeatIntervalMilliseconds: UInt32,
        peerGoneTimeoutMilliseconds: UInt32, peers: [WirePeer] = [], behaviors: [WireBehavior] = [], implementations: [String] = [])
    /// READY: the node that is ready.
    case ready(node: String)
    /// CALL: the controller addressed, the operation and its arguments.
    case call(target: WireAddress, code: WireCallCode, arguments: [WireValue])
    /// RETURN: the outcome of the CALL with the same correlation id.
    case `return`(WireResult)
    /// HEARTBEAT: no fields.
    case heartbeat
    /// GOODBYE: no fields.
    case goodbye
    /// GOODBYE-ACK: no fields.
    case goodbyeAck
    /// ERROR: an error code (`WireErrorCode` names the known ones) and a readable text.
    case error(code: UInt16, text: String)
    /// TRACE-REQUEST: no fields.
    case traceRequest
    /// TRACE-DATA: whether this is the last part, and JSON Lines (whole lines, each ending in LF).
    case traceData(last: Bool, jsonLines: String)
    /// TRACE-DATA in the compact form (since 1.2, §7.8): whether this is the last part, and a
    /// whole TCF/1 capture (`Protocols/compact-trace-format.md`), readable without the parts before.
    case compactTraceData(last: Bool, capture: [UInt8])

    /// The command whose body this is.
    public var command: WireCommand {
        switch self {
        case .hello: .hello
        case .setup: .setup
        case .ready: .ready
        case .call: .call
        case .return: .return
        case .heartbeat: .heartbeat
        case .goodbye: .goodbye
        case .goodbyeAck: .goodbyeAck
        case .error: .error
        case .traceRequest: .traceRequest
        case .traceData, .compactTraceData: .traceData
        }
    }
}
