/// One node of a run as SETUP lists it: its name, where its ROUTER listens and, with CURVE, its
/// public key (Z85; empty without CURVE).
public struct WirePeer: Hashable, Sendable {
    /// The node's name, as the scenario's placement uses it.
    public var node: String
    /// Where its ROUTER listens (`ipc://…` or `tcp://…`).
    public var endpoint: String
    /// Its CURVE public key in Z85; empty without CURVE.
    public var publicKey: String

    /// A peer named `node` at `endpoint`.
    public init(node: String, endpoint: String, publicKey: String = "") {
        self.node = node
        self.endpoint = endpoint
        self.publicKey = publicKey
    }
}
