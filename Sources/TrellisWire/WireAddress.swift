/// Where a controller lives on the wire: its node, its id there, and which incarnation of it.
///
/// A controller that is created again under the same id gets a new incarnation, so a message
/// addressed to its predecessor is recognised as stale instead of reaching it.
public struct WireAddress: Hashable, Sendable, CustomStringConvertible {
    /// The node (process) that hosts the controller.
    public var node: String
    /// The controller's id on that node (`"R"`, `"pc:P"`); empty addresses the node itself.
    public var controller: String
    /// Which incarnation of that controller id.
    public var incarnation: UInt32

    /// An address from its three parts.
    public init(node: String, controller: String, incarnation: UInt32) {
        self.node = node
        self.controller = controller
        self.incarnation = incarnation
    }

    /// `controller@node/incarnation`.
    public var description: String { "\(controller)@\(node)/\(incarnation)" }
}
