import Foundation

/// Which sockets a node's I/O thread speaks ZeroMQ's wire protocol through. libzmq hands every
/// message to its own I/O thread in each process (two wake-ups a direction); `TrellisZMTP` lets
/// the thread that waits for a message read it from the kernel (issue 27 item 6). Chosen once,
/// at start (`NodeIOConfiguration.effectiveSocketLayer`).
package enum NodeSocketLayer: String, Sendable, Equatable, CaseIterable {
    /// libzmq's sockets: CURVE, its ZAP handler and socket monitors.
    case libzmq
    /// `TrellisZMTP`'s own sockets: ZMTP 3.1 with the NULL mechanism only, so never with CURVE.
    case zmtp

    /// `TRELLIS_SOCKET_LAYER` (`libzmq` or `zmtp`), read once per process; unset or unreadable:
    /// zmtp, which goes round a CALL in about half libzmq's time (docs/decisions.md "zmtp3");
    /// `libzmq` opts back. A variable, not a flag, so that every node a run spawns inherits it,
    /// and a test suite runs over either layer unchanged. A node with CURVE keys uses libzmq
    /// whatever this says (`NodeIOConfiguration.effectiveSocketLayer`).
    package static let environmentDefault: NodeSocketLayer = {
        guard let text = getenv("TRELLIS_SOCKET_LAYER") else { return .zmtp }
        return NodeSocketLayer(rawValue: String(cString: text)) ?? .zmtp
    }()

    /// Why `TRELLIS_SOCKET_LAYER` names no layer, for the command line to refuse (exit 2)
    /// before a node starts on the default unasked; nil when it is unset, empty or a layer.
    package static var environmentMistake: String? {
        guard let text = getenv("TRELLIS_SOCKET_LAYER") else { return nil }
        let value = String(cString: text)
        guard !value.isEmpty, NodeSocketLayer(rawValue: value) == nil else { return nil }
        return "TRELLIS_SOCKET_LAYER is \"\(value)\": expected libzmq or zmtp (unset: zmtp)"
    }
}
