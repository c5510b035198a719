import ZeroMQ

/// Watches the CURVE handshakes of a node's sockets through libzmq's socket monitor
/// (`zmq_socket_monitor`, stable in libzmq 4.3): a handshake that fails — a key refused by the
/// other side's ZAP handler, keys that do not match, CURVE on one side only — becomes a
/// `NodeIOEvent.handshakeFailed`, so that a run set up with the wrong keys says so at once
/// instead of waiting for a greeting that cannot come. Lives on the I/O thread that owns the
/// sockets, like them; each watched socket gets a PAIR socket that the thread polls.
///
/// A stream to a peer is watched until its first handshake succeeds, with or without CURVE (a
/// node without CURVE whose peer uses it hears of the mismatch too); after that the thread polls
/// nothing more for it. A CURVE node's inbox is watched for as long as it runs: any client may
/// connect with a key that does not fit.
final class HandshakeWatch {
    private let context: ZMQContext
    /// The PAIR sockets receiving the monitors' events, with the peer each watches (nil: the
    /// inbox) and the socket watched.
    private var monitors: [(peer: String?, pair: ZMQSocket, watched: ZMQSocket)] = []
    /// Names the monitors' inproc endpoints, unique in the context.
    private var made = 0
    /// Where this watch's items start in the poll set of the current turn.
    private var firstItem = 0
    /// Failures already reported, by peer and kind, with how many times: a client retries its
    /// handshake every few hundred milliseconds, and each failure would be reported again.
    private var reported: [String: Int] = [:]
    /// How many times a peer hanging up during the handshake is reported on a stream: a node
    /// tells a server that keeps hanging up (its key for it is wrong) from one that hung up once
    /// as it ended (`HandshakeEvidence`). Every other failure is reported once.
    static let hangUpsReported = 8

    init(context: ZMQContext) {
        self.context = context
    }

    /// Watches `socket`: the inbox when `peer` is nil, else the stream to `peer`. Best effort: a
    /// monitor that cannot start leaves the socket unwatched (the handshake works as before).
    func watch(_ socket: ZMQSocket, peer: String?) {
        made += 1
        let address = "inproc://trellis-handshakes-\(made)"
        let events = ZMQMonitorEvent.handshakeFailures | (peer == nil ? 0 : ZMQMonitorEvent.handshakeSucceeded)
        guard let pair = try? socket.monitor(at: address, events: events, in: context) else { return }
        monitors.append((peer, pair, socket))
    }

    /// Adds the monitors' PAIR sockets to this turn's poll set.
    func addPollItems(to items: inout ZMQPollSet) {
        firstItem = items.count
        for monitor in monitors { items.append(ZMQPollItem(.socket(monitor.pair))) }
    }

    /// Reads the events of the monitors that are readable after the poll and reports each
    /// failure (once per peer and kind).
    func readEvents(in items: ZMQPollSet, report: (NodeIOEvent) -> Void) {
        var done: [Int] = []
        for (offset, monitor) in monitors.enumerated() where firstItem + offset < items.count && items[firstItem + offset].readable {
            while let frames = try? monitor.pair.receive(dontWait: true), let event = ZMQMonitorEvent(frames: frames) {
                if event.isHandshakeSucceeded {
                    done.append(offset)
                    break
                }
                let failure = Self.failure(of: event)
                // On the inbox, a refused key is reported by the ZAP handler, with the key.
                if monitor.peer == nil, case .keyRefused = failure { continue }
                let key = "\(monitor.peer ?? "") \(failure)"
                let times = reported[key, default: 0]
                let limit = monitor.peer != nil && failure == .other(code: nil) ? Self.hangUpsReported : 1
                guard times < limit else { continue }
                reported[key] = times + 1
                report(.handshakeFailed(peer: monitor.peer, failure: failure))
            }
        }
        // A stream whose handshake succeeded is watched no more.
        for offset in done.reversed() {
            let monitor = monitors.remove(at: offset)
            monitor.watched.stopMonitor()
            monitor.pair.close()
        }
    }

    /// Stops watching `socket` (before it closes: a monitor must not outlive the socket it
    /// watches, nor its PAIR be polled for a socket that is gone).
    func unwatch(_ socket: ZMQSocket) {
        for offset in monitors.indices.reversed() where monitors[offset].watched === socket {
            let monitor = monitors.remove(at: offset)
            monitor.watched.stopMonitor()
            monitor.pair.close()
        }
    }

    /// Closes the PAIR sockets (before the context ends).
    func close() {
        for monitor in monitors { monitor.pair.close() }
        monitors.removeAll()
    }

    static func failure(of event: ZMQMonitorEvent) -> HandshakeFailure {
        if event.isHandshakeFailedAuth { return .keyRefused(status: event.value) }
        if event.isCryptographicError { return .wrongKey }
        if event.isMechanismMismatch { return .mechanismMismatch }
        return .other(code: event.isHandshakeFailedProtocol ? event.value : nil)
    }
}
