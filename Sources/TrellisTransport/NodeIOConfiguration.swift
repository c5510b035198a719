import TrellisWire

/// How a node's sockets are set up.
package struct NodeIOConfiguration: Sendable {
    /// This node's name: the routing id of every DEALER it opens.
    package var nodeName: String
    /// Where its ROUTER listens (`ipc://…`, `tcp://127.0.0.1:*`).
    package var bindEndpoint: String
    /// How often a heartbeat goes to every peer.
    package var heartbeatIntervalMilliseconds = 250
    /// A peer silent this long is gone (SPEC §7: at most 2 s by default).
    package var peerTimeoutMilliseconds = 2_000
    /// Explicit high-water marks: past them a send waits (backpressure), nothing is dropped.
    package var highWaterMark: Int32 = 100_000
    /// Bounded linger: sockets never block shutdown for longer than this.
    package var lingerMilliseconds: Int32 = 1_000
    /// Larger messages are refused by libzmq before they reach Trellis.
    package var maximumMessageSize = Int64(WireLimits.maxMessageBytes)
    /// CURVE security; nil for none.
    package var curve: CurveConfiguration?
    /// Without CURVE, watch the inbox's handshakes for a client that uses CURVE (a mechanism
    /// mismatch), until `NodeTransport.stopWatchingInbox`: a conductor names that mistake while
    /// it starts its run rather than wait for a greeting that cannot come (issue 27).
    package var watchesPlainInbox = false
    /// Several messages pending for one peer leave as one BATCH (TWP/1 §7.9). Only what is
    /// already queued is packed, so batching never delays a message.
    package var batching = true
    /// The sockets asked for (`TRELLIS_SOCKET_LAYER`, else `TrellisZMTP`'s); see
    /// `effectiveSocketLayer`.
    package var socketLayer = NodeSocketLayer.environmentDefault

    /// The sockets the I/O thread uses: ZMTP speaks only the NULL mechanism, so a node with
    /// CURVE keys stays on libzmq whatever was asked (the variable is set for a whole process
    /// tree, which may mix runs with and without CURVE).
    package var effectiveSocketLayer: NodeSocketLayer {
        curve == nil ? socketLayer : .libzmq
    }

    package init(nodeName: String, bindEndpoint: String) {
        self.nodeName = nodeName
        self.bindEndpoint = bindEndpoint
    }
}

/// CURVE keys of a node and the public keys it accepts (SPEC §7, security).
package struct CurveConfiguration: Sendable {
    package var publicKey: String
    package var secretKey: String
    /// The peers allowed to connect: Z85 public key → the node name that key speaks for. Anyone
    /// else gets nothing in, and a key's holder is heard under its own node's name only.
    package var allowedPeers: [String: String]

    package init(publicKey: String, secretKey: String, allowedPeers: [String: String]) {
        self.publicKey = publicKey
        self.secretKey = secretKey
        self.allowedPeers = allowedPeers
    }
}
