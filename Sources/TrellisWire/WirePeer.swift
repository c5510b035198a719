/// One node of a run as SETUP lists it: its name, where its ROUTER listens and, with CURVE, its
/// public key (Z85; empty without CURVE).
public struct WirePeer: Hashable, Sendable {
    public var node: String
    public var endpoint: String
    public var publicKey: String

    public init(node: String, endpoint: String, publicKey: String = "") {
        self.node = node
        self.endpoint = endpoint
        self.publicKey = publicKey
    }
}
