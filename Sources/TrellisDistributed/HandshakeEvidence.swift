/// What a worker's own CURVE handshakes with its conductor say about the conductor's public
/// key it was given (issue 27): a pure state machine, apart from the node that keeps it.
///
/// A CURVE client whose idea of the server's key is wrong hears only that the server hung up
/// during the handshake (libzmq's `…_NO_DETAIL`), as it does when a conductor ends its run —
/// another node's mistake — while this node's handshake is under way. The two differ in what
/// follows: the first conductor hangs up on every attempt (libzmq tries again every 100 ms) and
/// is never heard; the second is heard (its goodbye, said through this node's inbox, whose
/// allow-list holds the key) or is gone, and hangs up no more. So only repeated hang-ups, with
/// nothing heard from that peer, blame this node's key. A conductor without CURVE hangs up as
/// well when it sees the mismatch first; it then also tries this node's inbox without CURVE (to
/// say goodbye), which says which of the two it is; and a conductor that cannot open the box
/// tries this node's inbox with its own key (to say goodbye), which this node's allow-list then
/// refuses — a key for it that is not its key, seen from this side too.
struct HandshakeEvidence: Sendable, Equatable {
    /// The hang-ups in a row, with nothing heard, that say the key is wrong.
    static let hangUpsForWrongKey = 3

    /// What to conclude from a hang-up.
    enum Verdict: Equatable, Sendable {
        /// Nothing yet: the conductor may be ending its run for another reason.
        case wait
        /// This node's key for the conductor is most likely not the conductor's.
        case wrongKey
        /// The conductor does not use CURVE: it hung up, and a client without CURVE tried this
        /// node's inbox.
        case noCurve
    }

    /// Hang-ups during handshakes with the conductor so far.
    private(set) var hangUps = 0
    /// The conductor was heard: this node's key for it is right.
    private(set) var heard = false
    /// A client without CURVE tried this node's inbox.
    private(set) var plainClient = false
    /// A client whose key this node does not allow tried its inbox.
    private(set) var unknownKey = false

    /// The conductor hung up during a handshake.
    mutating func hungUp() -> Verdict {
        guard !heard else { return .wait }
        hangUps += 1
        if plainClient { return .noCurve }
        return hangUps >= Self.hangUpsForWrongKey || unknownKey ? .wrongKey : .wait
    }

    /// A client with a key this node does not allow tried its inbox.
    mutating func unknownKeyTried() -> Verdict {
        unknownKey = true
        return heard || hangUps == 0 ? .wait : .wrongKey
    }

    /// A client without CURVE tried this node's inbox.
    mutating func plainClientTried() -> Verdict {
        plainClient = true
        return heard || hangUps == 0 ? .wait : .noCurve
    }

    /// A message came from the conductor.
    mutating func heardFromPeer() {
        heard = true
    }
}
