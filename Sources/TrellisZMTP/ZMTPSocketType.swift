/// The socket types this module speaks and whom each may talk to (RFC 23 "The Socket Type
/// Property": a DEALER talks to REP, DEALER and ROUTER; a ROUTER to REQ, DEALER and ROUTER).
public enum ZMTPSocketType: String, Equatable, Sendable, CaseIterable {
    case dealer = "DEALER"
    case router = "ROUTER"

    /// The name a READY's Socket-Type carries.
    public var name: String { rawValue }

    /// Whether its READY carries an Identity (libzmq sends one for REQ, DEALER and ROUTER).
    var sendsIdentity: Bool {
        switch self {
        case .dealer, .router: true
        }
    }

    /// Whether a peer whose READY says `peer` may talk to this socket.
    public func accepts(peer: String) -> Bool {
        switch self {
        case .dealer: ["REP", "DEALER", "ROUTER"].contains(peer)
        case .router: ["REQ", "DEALER", "ROUTER"].contains(peer)
        }
    }
}
