/// When a node's I/O loop sends heartbeats, and which peers have fallen silent (TWP/1 §9.5): the
/// state machine alone, without sockets, so that its deadlines can be checked with made-up times.
///
/// A peer's silence counts from the last message heard from it; for a peer never heard, from the
/// first message other than HELLO sent to it (a worker calling another that it never heard from
/// must still learn, within the timeout, that the other is gone). A peer is gone once silent for
/// `goneAfter`, the timeout less `NodeIOTuning.goneCheckMargin`; the loop sleeps no later than
/// `nextDeadline`, so that is checked on time rather than on the next heartbeat's tick.
///
/// Every peer heard is watched, strangers too (anybody may send to a node's inbox), and forgotten
/// once gone: a node of the run (`isNode`) is remembered as gone for the run (§9.5 rule 3), a
/// stranger among the last `NodeIOTuning.goneStrangersRemembered` only. What is kept is thus
/// bounded by the peers heard within one timeout, the run's nodes, and that constant — however
/// many names a hostile peer makes up.
struct Heartbeats {
    typealias Instant = ContinuousClock.Instant

    let interval: Duration
    /// How long a peer may stay silent before it is declared gone.
    let goneAfter: Duration
    /// False when the node sends no heartbeats (a bare `NodeIO`, as in the bench): its peers
    /// need not send any either, and none is ever declared gone.
    let watchesSilence: Bool
    /// When heartbeats next go out.
    private(set) var nextBeat: Instant
    /// No peer can be found silent before this (the earliest of their deadlines when last looked
    /// at: hearing a peer only moves its own deadline later).
    private(set) var nextSilenceCheck: Instant
    /// When each peer whose silence counts was last heard (or first sent to, never heard).
    private var lastHeard: [String: Instant] = [:]
    /// The nodes of the run: the peers the node opened a stream to.
    private var nodes = Set<String>()
    /// The nodes of the run declared gone.
    private var gone = Set<String>()
    /// The strangers declared gone, the most recent of them.
    private var goneStrangers = RecentNames(capacity: NodeIOTuning.goneStrangersRemembered)
    /// The peer heard most recently and when: a burst from one peer costs a store, not a hash of
    /// its name per message. It goes into `lastHeard` when another peer is heard and before
    /// silences are checked.
    private var recentPeer = ""
    private var recentHeard: Instant

    init(interval: Duration, timeout: Duration, now: Instant, watchesSilence: Bool = true) {
        self.interval = interval
        goneAfter = Self.goneAfter(timeout: timeout)
        self.watchesSilence = watchesSilence
        nextBeat = now
        nextSilenceCheck = now.advanced(by: .seconds(86_400))
        recentHeard = now
    }

    /// The next time the loop has something to do here.
    var nextDeadline: Instant { min(nextBeat, nextSilenceCheck) }

    /// A message from `peer` arrived at `now`. The loop calls this when the sender differs from
    /// the previous message's; `heardRecentPeer` otherwise. True when `peer` had never been heard.
    @discardableResult
    mutating func heard(_ peer: String, at now: Instant) -> Bool {
        storeRecentPeer()
        recentPeer = peer
        recentHeard = now
        // Without heartbeats nobody's silence is watched, and nobody need be kept.
        guard watchesSilence else { return false }
        // A gone peer does not come back within a run (§9.5 rule 3).
        guard lastHeard[peer] == nil, !isGone(peer) else { return false }
        lastHeard[peer] = now
        nextSilenceCheck = min(nextSilenceCheck, now.advanced(by: goneAfter))
        return true
    }

    /// Another message from the peer heard last.
    mutating func heardRecentPeer(at now: Instant) {
        recentHeard = now
    }

    /// A message other than HELLO went to `peer` at `now`: if it was never heard, its silence
    /// counts from now.
    mutating func sentRequest(to peer: String, at now: Instant) {
        guard watchesSilence, peer != recentPeer, lastHeard[peer] == nil, !isGone(peer) else { return }
        lastHeard[peer] = now
        nextSilenceCheck = min(nextSilenceCheck, now.advanced(by: goneAfter))
    }

    /// Whether `peer`'s silence counts (it was heard, or sent a request, and is not gone).
    func counts(_ peer: String) -> Bool { lastHeard[peer] != nil }

    /// `peer` is a node of the run (the loop opened a stream to it): once gone, it is remembered
    /// as gone for the run — also when it was declared gone before, as a stranger.
    mutating func isNode(_ peer: String) {
        guard nodes.insert(peer).inserted, goneStrangers.contains(peer) else { return }
        goneStrangers.remove(peer)
        gone.insert(peer)
    }

    /// Whether `peer` was declared gone (a stranger: and is still remembered).
    func isGone(_ peer: String) -> Bool { gone.contains(peer) || goneStrangers.contains(peer) }

    /// How many peers are kept track of, gone or not (for tests: it stays bounded).
    var peersKept: Int { lastHeard.count + nodes.count + gone.count + goneStrangers.count }

    /// True, once per interval, when heartbeats are due.
    mutating func beatIsDue(at now: Instant) -> Bool {
        guard now >= nextBeat else { return false }
        nextBeat = now.advanced(by: interval)
        return true
    }

    /// The peers found silent for `goneAfter` at `now`, each once: from then on they are gone.
    mutating func newlySilent(at now: Instant) -> [String] {
        guard watchesSilence, now >= nextSilenceCheck else { return [] }
        storeRecentPeer()
        var found: [String] = []
        var next = now.advanced(by: .seconds(86_400))
        for (peer, heard) in lastHeard {
            let deadline = heard.advanced(by: goneAfter)
            if deadline <= now {
                found.append(peer)
            } else {
                next = min(next, deadline)
            }
        }
        found.sort()
        for peer in found {
            if nodes.contains(peer) { gone.insert(peer) } else { goneStrangers.insert(peer) }
            lastHeard[peer] = nil
        }
        if found.contains(recentPeer) { recentPeer = "" }
        nextSilenceCheck = next
        return found
    }

    /// How long a peer may stay silent, for a given peer-gone timeout.
    static func goneAfter(timeout: Duration) -> Duration {
        max(timeout - NodeIOTuning.goneCheckMargin, timeout / 2)
    }

    private mutating func storeRecentPeer() {
        guard !recentPeer.isEmpty, lastHeard[recentPeer] != nil else { return }
        lastHeard[recentPeer] = recentHeard
    }
}
