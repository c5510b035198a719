import TrellisWire

/// Whether a node started by hand named the run's conductor as the conductor's SETUP calls
/// itself (SPEC §7 authority; TWP/1 §9.1 rule 4): the rule alone, apart from the node
/// (`WorkerNode`) that refuses the SETUP and exits 2 when it did not.
///
/// A node greets the peers of its command line (`--peer NAME=ENDPOINT`), each on a stream under
/// that name, and may be told its conductor (`--conductor NAME`). Two ways to name the conductor
/// wrongly, each a mistake the node can only see once the SETUP has come:
/// - told another conductor (`--conductor`): the SETUP of the run's conductor is refused;
/// - greeted it under another name (`--peer wrong=ITS-ENDPOINT`): the node's answers would go on
///   a second stream to the conductor's inbox, under the same routing id as the first, which a
///   ROUTER refuses — the run waited 30 s for a READY, and exited 3.
/// Either way the refusal goes back on the stream that reached the conductor — the one it was
/// greeted on — or it is lost, and the conductor takes the node for gone (exit 3).
struct ConductorNaming: Sendable, Equatable {
    /// The conductor of the command line (`--conductor`), if any.
    var told: String?
    /// The peers greeted at start (`--peer`), by name: where each listens.
    var greeted: [String: String]

    /// A mistake in how the node names its conductor: what it says, and the streams — by the
    /// names it greeted — to say it on.
    struct Mistake: Sendable, Equatable {
        var text: String
        var answerOn: [String]
    }

    /// Whether a SETUP for node `node` from `sender` can show a mistake at all, before the
    /// scenario it brings is read to learn the run's conductor (a whole decode: a correctly
    /// named node's SETUP is not decoded twice, nor is anybody's for another node).
    func mayBeMistaken(setupFrom sender: String, for node: String, name: String) -> Bool {
        guard node == name else { return false }
        if let told, told != sender { return true }
        return greeted[sender] == nil && !greeted.isEmpty
    }

    /// The mistake a SETUP for node `node` from `sender` shows, or nil. `runConductor`: the
    /// conductor of the scenario the SETUP brings (nil: it does not decode), asked only when the
    /// cheap conditions (`mayBeMistaken`) hold; `peers`: the SETUP's
    /// list of the run's nodes. Only a SETUP from the run's own conductor, for this node
    /// (`name`), names a mistake: anybody else's is refused as before (ERROR 6, nothing changes).
    func mistake(setupFrom sender: String, for node: String, name: String, runConductor: () -> String?, peers: [WirePeer]) -> Mistake? {
        guard mayBeMistaken(setupFrom: sender, for: node, name: name), runConductor() == sender else { return nil }
        // The greeted names that are not nodes of the run: the one the conductor was greeted under.
        let runNodes = Set(peers.map(\.node))
        let strangers = greeted.keys.filter { !runNodes.contains($0) }.sorted()
        let senderEndpoint = peers.first { $0.node == sender }?.endpoint
        let misgreeted = strangers.filter { greeted[$0] == senderEndpoint }
        let candidates = misgreeted.isEmpty ? strangers : misgreeted
        if let told, told != sender {
            // The stream that reached the conductor: the one named after it, else the one under
            // the told name if that is where the conductor listens (a --conductor naming another
            // node of the run must not send the refusal to that node), else one greeted under a
            // name the run does not have at the conductor's endpoint; none: the inbox.
            let stream = greeted[sender] != nil ? [sender]
                : greeted[told] != nil && greeted[told] == senderEndpoint ? [told] : misgreeted
            return Mistake(
                text: "node \(name) was told its conductor is \(told), but the run's conductor is \(sender): SETUP from \(sender) refused (start the node with --conductor \(sender) and --peer \(sender)=ENDPOINT)",
                answerOn: stream)
        }
        guard greeted[sender] == nil, let first = candidates.first else { return nil }
        let endpoint = greeted[first] ?? "ENDPOINT"
        let names = candidates.map { "--peer \($0)=\(greeted[$0] ?? "")" }.joined(separator: ", ")
        return Mistake(
            text: "node \(name) greeted the run's conductor \(sender) under another name (\(names)): SETUP from \(sender) refused (start the node with --peer \(sender)=\(endpoint)\(told == nil ? "" : " and --conductor \(sender)"))",
            answerOn: candidates)
    }
}
