import Foundation
import TrellisWire
import TrellisZMTP
import ZeroMQ

/// The zmtp-rtt figures: round trips between two processes through `TrellisZMTP` — our DEALER
/// out, our ROUTER echoing in the other process, each on a thread that owns its socket and spins
/// (`ZMTPPollSet.poll(spinning:)`) before it sleeps — beside raw libzmq REQ/REP over the same
/// endpoint kind in the same run, in turns.
package enum ZMTPBench {
    /// How long a side waiting for a message looks without sleeping: the node transport's
    /// `NodeIOTuning.idleSpin` (50 µs), so the figure shows the transport, not another spin.
    /// `TRELLIS_ZMTP_SPIN_MICROSECONDS` (0 to 10,000) overrides it for measurement.
    package static let spin: Duration = {
        guard let text = getenv("TRELLIS_ZMTP_SPIN_MICROSECONDS"), let value = Int(String(cString: text)), (0...10_000).contains(value) else {
            return .microseconds(50)
        }
        return .microseconds(value)
    }()

    /// Whether a spin gives the core away between looks, as `NodeIOTuning.idleSpinYields` does;
    /// `TRELLIS_ZMTP_SPIN_YIELD=0` turns it off for measurement.
    package static let yieldsCore = getenv("TRELLIS_ZMTP_SPIN_YIELD").map { String(cString: $0) != "0" } ?? true

    /// Round-trip times in microseconds: raw REQ/REP (the anchor), 8 bytes through ours, and a
    /// Trellis CALL/RETURN through ours (the wire codec on both sides, no node transport).
    package struct RoundTrips: Sendable {
        package var raw: [Double] = []
        package var zmtp: [Double] = []
        package var call: [Double] = []
    }

    /// `count` round trips of each kind, taken in turns of `block`; the first few (connections
    /// being made) are not counted. `endpoint` names a fresh endpoint of the kind measured.
    package static func roundTrips(peer: PeerLauncher, endpoint: (String) -> String, count: Int, block: Int) throws -> RoundTrips {
        let warmUp = 10
        let total = count + warmUp
        let context = try ZMQContext()
        defer { context.terminate() }
        let anchor = try TransportBench.launchRawAnchor(peer: peer, context: context, endpoint: endpoint("zmtp-rep"), count: total)
        defer { peer.reap(anchor.process) }
        defer { anchor.request.close() }

        let echoEndpoint = endpoint("zmtp-echo")
        let echoPeer = try peer.launch(.zmtpEcho, endpoint: echoEndpoint, connectTo: echoEndpoint, count: total, size: 8)
        defer { peer.reap(echoPeer) }
        // The peer binds when it starts: until then the DEALER reconnects every 10 ms.
        let dealer = try ZMTPDealer(connectingTo: echoEndpoint, identity: Array("measure".utf8), reconnectInterval: .milliseconds(10))
        defer { dealer.close() }
        var set = ZMTPPollSet()

        var times = RoundTrips()
        var done = -warmUp
        while done < count {
            let turn = done < 0 ? warmUp : min(block, count - done)
            let raw = try TransportBench.rawRoundTrips(anchor.request, turn: turn)
            let zmtp = try zmtpRoundTrips(dealer, set: &set, turn: turn)
            let call = try callRoundTrips(dealer, set: &set, turn: turn, first: UInt64(done + warmUp) + 1)
            if done >= 0 {
                times.raw += raw
                times.zmtp += zmtp
                times.call += call
            }
            done += turn
        }
        return times
    }

    /// `turn` round trips of 8 bytes out on our DEALER and back, in microseconds.
    private static func zmtpRoundTrips(_ dealer: ZMTPDealer, set: inout ZMTPPollSet, turn: Int) throws -> [Double] {
        var times: [Double] = []
        let message: [[UInt8]] = [[1, 2, 3, 4, 5, 6, 7, 8]]
        let giveUp = ContinuousClock.now.advanced(by: .seconds(30))
        for _ in 0..<turn {
            let start = ContinuousClock.now
            while !dealer.send(message) { try turnOnce(dealer, &set) }
            while dealer.receive() == nil {
                try turnOnce(dealer, &set)
                guard ContinuousClock.now < giveUp else { throw BenchPeerGone(role: "zmtp-echo") }
            }
            times.append(InProcessBench.seconds(since: start) * 1e6)
        }
        return times
    }

    /// `turn` CALL/RETURN round trips through our DEALER, in microseconds: the CALL encoded with
    /// the wire codec, the echo decoding it and encoding a RETURN, the RETURN decoded and matched
    /// by its correlation id — what a node's transport adds on top is not in it.
    private static func callRoundTrips(_ dealer: ZMTPDealer, set: inout ZMTPPollSet, turn: Int, first: UInt64) throws -> [Double] {
        var times: [Double] = []
        let target = WireAddress(node: "echo", controller: "probe", incarnation: 1)
        let giveUp = ContinuousClock.now.advanced(by: .seconds(30))
        for index in 0..<UInt64(turn) {
            let start = ContinuousClock.now
            let call = WireMessage(.call(target: target, code: .snapshot, arguments: []), correlationID: first + index).encode()
            while !dealer.send(call) { try turnOnce(dealer, &set) }
            while true {
                if let reply = dealer.receive(), let answer = try? WireMessage.decode(reply),
                   case .return = answer.body, answer.header.correlationID == first + index { break }
                try turnOnce(dealer, &set)
                guard ContinuousClock.now < giveUp else { throw BenchPeerGone(role: "zmtp-echo") }
            }
            times.append(InProcessBench.seconds(since: start) * 1e6)
        }
        return times
    }

    private static func turnOnce(_ dealer: ZMTPDealer, _ set: inout ZMTPPollSet) throws {
        set.removeAll()
        dealer.register(in: &set)
        try set.poll(spinning: spin, yieldsCore: yieldsCore, timeout: .milliseconds(10))
        dealer.service(set)
    }

    /// The peer: a ROUTER on `endpoint` that answers every message to its sender (`reply(to:)`),
    /// `count` of them, then stays until its standard input closes (the measuring side is done).
    package static func runEcho(endpoint: String, count: Int) throws {
        let router = try ZMTPRouter(binding: endpoint)
        defer { router.close() }
        var set = ZMTPPollSet()
        var answered = 0
        var inputOpen = true
        while inputOpen {
            set.removeAll()
            router.register(in: &set)
            let input = set.add(fileDescriptor: 0)
            try set.poll(spinning: answered < count ? spin : .zero, yieldsCore: yieldsCore, timeout: .milliseconds(250))
            router.service(set)
            while let message = router.receive() {
                _ = router.send(reply(to: message))
                answered += 1
            }
            if set.isReadable(input) {
                var byte: UInt8 = 0
                inputOpen = read(0, &byte, 1) > 0
            }
        }
    }
}

extension ZMTPBench {
    /// The echo's answer: a RETURN to a CALL (decoded, then encoded, as a node serves a call),
    /// anything else sent back as it came. The first frame is the sender's identity.
    static func reply(to message: [[UInt8]]) -> [[UInt8]] {
        guard message.count > 1, let call = try? WireMessage.decode(Array(message.dropFirst())), case .call = call.body else { return message }
        return [message[0]] + WireMessage(.return(.ok([])), correlationID: call.header.correlationID).encode()
    }
}

/// The echo process stopped answering.
package struct BenchPeerGone: Error, CustomStringConvertible {
    package let role: String
    package var description: String { "the \(role) peer stopped answering" }
}
