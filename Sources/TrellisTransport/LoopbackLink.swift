import Synchronization
import TrellisWire

/// One node's end of a `LoopbackNetwork`: what `NodeIO` is over ZeroMQ, with memory for the
/// sockets. A message is encoded on the sending side into the receiver's inbox — packed into
/// BATCHes as `NodeOutbox` packs them for a socket — and its frames are handed to the receiver's
/// `onMessage`, which decodes them: the wire codec runs as over ZeroMQ, only no byte crosses a
/// process (swift-nio's `NIOEmbedded` plays this part for its `NIOPosix`).
///
/// As over ZeroMQ, the messages of one sender reach one receiver in the order sent, and one
/// receiver is handed its messages one at a time (by one drain task at a time, on the shared
/// pool, as its I/O thread would). Not modelled: CURVE, heartbeats and silence (no peer is ever
/// declared gone), a killed process; those stay tested over ZeroMQ.
final class LoopbackLink: Sendable {
    private struct State {
        /// The peers this node opened a stream to, and the endpoint each is reached at.
        var streams: [String: String] = [:]
        /// What the other nodes sent this one and it has not been handed yet, one outbox per
        /// sender (`NodeOutbox.peer` names the sender here), most recent sender last.
        var inbox: [NodeOutbox] = []
        var draining = false
        var stopped = false
        /// Waiting for the drain under way to end (`stop`).
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
        /// Messages this node queued for a peer it has no stream to (each a fault, sampled).
        var unconnectedSends = 0
    }

    let configuration: NodeIOConfiguration
    /// Where the link is bound on its network (any wildcard resolved).
    let endpoint: String
    private let network: LoopbackNetwork
    private let onMessage: @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void
    private let onEvent: @Sendable (NodeIOEvent) -> Void
    private let state = Mutex(State())

    init(
        configuration: NodeIOConfiguration, endpoint: String, network: LoopbackNetwork,
        onMessage: @escaping @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (NodeIOEvent) -> Void
    ) {
        self.configuration = configuration
        self.endpoint = endpoint
        self.network = network
        self.onMessage = onMessage
        self.onEvent = onEvent
    }

    /// Opens (once) the stream to `peer`, reached at `endpoint`. Nothing need listen there yet:
    /// as with a DEALER, the endpoint is looked up as each message goes.
    func connect(peer: String, endpoint: String) {
        state.withLock { state in
            guard !state.stopped, state.streams[peer] == nil else { return }
            state.streams[peer] = endpoint
        }
    }

    /// Queues `message` for `peer`, encoded straight into `peer`'s inbox. A peer this node has
    /// no stream to is sent nothing, and that is said (sampled, as `NodeIOLoop` says it); one
    /// whose endpoint nobody listens on (it stopped) is sent nothing, as a DEALER's queue to a
    /// process that ended goes nowhere.
    func send(to peer: String, _ message: WireMessage) {
        switch route(to: peer) {
        case let .endpoint(endpoint):
            network.link(at: endpoint)?.accept(from: configuration.nodeName, batching: configuration.batching) { $0.append(message) }
        case .nowhere:
            break
        case let .unconnected(count):
            guard RejectionSampling.traces(count) else { return }
            let more = count > RejectionSampling.oneByOne ? " (\(count) such sends so far)" : ""
            onEvent(.failed("send to \(PeerName.readable(peer)): no connection to that node\(more)"))
        }
    }

    /// Where a message for `peer` goes.
    private enum Route {
        case endpoint(String)
        /// The link stopped: nothing goes out.
        case nowhere
        /// No stream to that peer: the `count`-th such send.
        case unconnected(count: Int)
    }

    private func route(to peer: String) -> Route {
        state.withLock { state in
            guard !state.stopped else { return .nowhere }
            guard let endpoint = state.streams[peer] else {
                state.unconnectedSends += 1
                return .unconnected(count: state.unconnectedSends)
            }
            return .endpoint(endpoint)
        }
    }

    /// Takes a message from `sender` into this node's inbox; the first that finds no drain under
    /// way starts one.
    private func accept(from sender: String, batching: Bool, _ add: (inout NodeOutbox) -> Void) {
        let startDrain = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if let index = state.inbox.lastIndex(where: { $0.peer == sender }) {
                add(&state.inbox[index])
            } else {
                state.inbox.append(NodeOutbox(peer: sender, batching: batching))
                add(&state.inbox[state.inbox.count - 1])
            }
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if startDrain { Task { self.drain() } }
    }

    /// Hands the inbox to `onMessage`, sender by sender, each sender's messages in order, until it
    /// is empty or the link stops.
    private func drain() {
        var taken: [NodeOutbox] = []
        while true {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
                guard state.stopped || state.inbox.isEmpty else {
                    swap(&taken, &state.inbox)
                    return nil
                }
                state.draining = false
                defer { state.stopWaiters.removeAll() }
                return state.stopWaiters
            }
            if let waiters {
                for waiter in waiters { waiter.resume() }
                return
            }
            for index in taken.indices {
                let sender = taken[index].peer
                taken[index].drain { frames in onMessage(sender, frames) }
            }
            taken.removeAll(keepingCapacity: true)
        }
    }

    /// Stops the link: it leaves its network, takes nothing more, and returns once no message is
    /// being handed over.
    func stop() async {
        network.unbind(self)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                state.stopped = true
                state.inbox.removeAll()
                state.streams.removeAll()
                guard state.draining else { return true }
                state.stopWaiters.append(done)
                return false
            }
            if idle { done.resume() }
        }
    }
}
