import TrellisWire

/// How a node's sockets are set up.
public struct NodeIOConfiguration: Sendable {
    /// This node's name: the routing id of every DEALER it opens.
    public var nodeName: String
    /// Where its ROUTER listens (`ipc://…`, `tcp://127.0.0.1:*`).
    public var bindEndpoint: String
    /// How often a heartbeat goes to every peer.
    public var heartbeatIntervalMilliseconds = 250
    /// A peer silent this long is gone (SPEC §7: at most 2 s by default).
    public var peerTimeoutMilliseconds = 2_000
    /// Explicit high-water marks: past them a send waits (backpressure), nothing is dropped.
    public var highWaterMark: Int32 = 100_000
    /// Bounded linger: sockets never block shutdown for longer than this.
    public var lingerMilliseconds: Int32 = 1_000
    /// Larger messages are refused by libzmq before they reach Trellis.
    public var maximumMessageSize = Int64(WireLimits.maxMessageBytes)
    /// CURVE security; nil for none.
    public var curve: CurveConfiguration?
    /// Several messages pending for one peer leave as one BATCH (TWP/1 §7.9). Only what is
    /// already queued is packed, so batching never delays a message.
    public var batching = true

    public init(nodeName: String, bindEndpoint: String) {
        self.nodeName = nodeName
        self.bindEndpoint = bindEndpoint
    }
}

/// CURVE keys of a node and the public keys it accepts (SPEC §7, security).
public struct CurveConfiguration: Sendable {
    public var publicKey: String
    public var secretKey: String
    /// The peers allowed to connect: Z85 public key → the node name that key speaks for. Anyone
    /// else gets nothing in, and a key's holder is heard under its own node's name only.
    public var allowedPeers: [String: String]

    public init(publicKey: String, secretKey: String, allowedPeers: [String: String]) {
        self.publicKey = publicKey
        self.secretKey = secretKey
        self.allowedPeers = allowedPeers
    }
}
