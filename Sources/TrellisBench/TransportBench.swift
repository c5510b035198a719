import Foundation
import TrellisModel
import TrellisTrace
import TrellisTransport
import TrellisWire
import ZeroMQ

/// The ZeroMQ figures: throughput and round trips between two processes, through the Trellis
/// transport and, as anchors, through raw libzmq sockets over the same endpoint kind.
/// The other process is this executable again, run as `trellis bench --peer ROLE …`.
package enum TransportBench {
    /// What the other process does.
    package enum PeerRole: String, Sendable, CaseIterable {
        /// Connects a PUSH socket and sends `count` messages of `size` bytes (raw anchor).
        case rawPush = "raw-push"
        /// Binds a REP socket and echoes (raw round-trip anchor).
        case rawEcho = "raw-echo"
        /// Sends `count` CALL messages carrying `size` bytes through a Trellis node's I/O.
        case trellisPush = "trellis-push"
        /// Answers CALLs through a Trellis node transport.
        case trellisEcho = "trellis-echo"
        /// Echoes on Trellis's socket layout with raw libzmq: in on a ROUTER, out on a DEALER, a
        /// thread in `zmq_poll` over the ROUTER and an eventfd.
        case rawRouterEcho = "raw-router-echo"
        /// Echoes every message back through a bare `NodeIO` (no transport on top).
        case nodeIOEcho = "node-io-echo"
        /// Echoes every message back through a `TrellisZMTP` ROUTER (`ZMTPBench`).
        case zmtpEcho = "zmtp-echo"
    }

    // MARK: The measuring side

    /// Messages per second received by a PULL socket from a raw PUSH peer.
    package static func rawThroughput(peer: PeerLauncher, endpoint: String, count: Int, size: Int) throws -> Double {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(ZMQOption.linger, 0)
        try pull.set(ZMQOption.receiveHighWaterMark, 0)
        try pull.bind(endpoint)
        let process = try peer.launch(.rawPush, endpoint: endpoint, connectTo: endpoint, count: count, size: size)
        defer { peer.reap(process) }
        var received = 0
        var start = ContinuousClock.now
        while received < count {
            guard try pull.receive(dontWait: false) != nil else { continue }
            if received == 0 { start = .now }
            received += 1
        }
        return Double(count - 1) / InProcessBench.seconds(since: start)
    }

    /// Messages per second received through the Trellis I/O thread, each decoded as a CALL.
    package static func trellisThroughput(peer: PeerLauncher, endpoint: String, peerEndpoint: String, count: Int, size: Int) async throws -> Double {
        let counter = Counter(target: count)
        var configuration = NodeIOConfiguration(nodeName: "measure", bindEndpoint: endpoint)
        configuration.highWaterMark = 0
        let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, frames in
            // One ZeroMQ message may be a BATCH: every message in it is decoded and counted.
            var decoded = 0
            WireBatch.decodeEach(frames) { if case .success = $0 { decoded += 1 } }
            counter.tick(decoded)
        }, onEvent: { _ in })
        // A peer that ends before it sent everything (its bind refused: another process took the
        // port) ends the wait, which would otherwise last for ever (run_all.sh's 300 s limit).
        let process = try peer.launch(
            .trellisPush, endpoint: peerEndpoint, connectTo: io.boundEndpoint, count: count, size: size, onExit: { counter.peerEnded() })
        defer { peer.reap(process) }
        let seconds = await counter.waitUntilDone()
        await io.stop()
        guard let seconds else { throw BenchPeerError(endpoint: peerEndpoint) }
        return Double(counter.timedMessages) / seconds
    }

    /// Round-trip times in microseconds of the four exchanges of the zmq-rtt figures.
    package struct RoundTrips: Sendable {
        /// Raw REQ/REP: the anchor.
        package var raw: [Double] = []
        /// Raw libzmq over Trellis's socket layout (ROUTER in, DEALER out, `zmq_poll`).
        package var layout: [Double] = []
        /// A message echoed through bare `NodeIO`s, from a task on the I/O thread: the I/O loop
        /// without the transport's calls on top.
        package var nodeIO: [Double] = []
        /// Trellis CALL/RETURN from a task on the node's I/O thread.
        package var trellis: [Double] = []
    }

    /// `count` round trips of each kind, taken in turns of `block` so that all four sample the
    /// same moments of a shared machine. Each peer is a process of its own; the first few
    /// exchanges of each (connections being made) are not counted.
    package static func roundTrips(peer: PeerLauncher, endpoint: (String) -> String, count: Int, block: Int) async throws -> RoundTrips {
        let warmUp = 10
        let total = count + warmUp
        let context = try ZMQContext()
        defer { context.terminate() }

        // Raw REQ/REP.
        let anchor = try launchRawAnchor(peer: peer, context: context, endpoint: endpoint("rep"), count: total)
        defer { peer.reap(anchor.process) }
        defer { anchor.request.close() }

        // Raw libzmq over Trellis's layout.
        let (layoutIn, layoutOut) = (endpoint("layout"), endpoint("layout-echo"))
        let router = try context.socket(.router)
        defer { router.close() }
        try router.set(ZMQOption.linger, 0)
        try router.bind(layoutIn)
        let layoutPeer = try peer.launch(.rawRouterEcho, endpoint: layoutOut, connectTo: layoutIn, count: total, size: 8)
        defer { peer.reap(layoutPeer) }
        let dealer = try context.socket(.dealer)
        defer { dealer.close() }
        try dealer.set(ZMQOption.linger, 0)
        try dealer.set(ZMQOption.routingID, text: "measure")
        try dealer.connect(layoutOut)
        let wakeUp = try WakeUpSignal()
        defer { wakeUp.close() }
        var items = ZMQPollSet()

        // Bare NodeIO: the reply resumes the waiting caller from the I/O thread's callback.
        let (nodeIOIn, nodeIOOut) = (endpoint("node-io"), endpoint("node-io-echo"))
        let replyWaiter = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let nodeIO = try await NodeIO.start(
            NodeIOConfiguration(nodeName: "io-measure", bindEndpoint: nodeIOIn), heartbeat: [],
            onMessage: { _, _ in replyWaiter.withLock { waiter in defer { waiter = nil }; return waiter }?.resume() },
            onEvent: { _ in })
        let nodeIOPeer = try peer.launch(.nodeIOEcho, endpoint: nodeIOOut, connectTo: nodeIO.boundEndpoint, count: total, size: 8)
        defer { peer.reap(nodeIOPeer) }
        nodeIO.connect(peer: "io-echo", endpoint: nodeIOOut)
        let probe = WireMessage(.call(target: WireAddress(node: "io-echo", controller: "probe", incarnation: 1), code: .snapshot, arguments: [])).encode()

        // Trellis.
        let (callIn, callOut) = (endpoint("call"), endpoint("echo"))
        let transport = NodeTransport(nodeName: "measure", recorder: TraceRecorder(node: "measure", storage: .discard))
        let bound = try await transport.start(NodeIOConfiguration(nodeName: "measure", bindEndpoint: callIn))
        await transport.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
        let trellisPeer = try peer.launch(.trellisEcho, endpoint: callOut, connectTo: bound, count: total, size: 8)
        defer { peer.reap(trellisPeer) }
        await transport.connect(peer: "echo", endpoint: callOut)
        let target = WireAddress(node: "echo", controller: "probe", incarnation: 1)
        let executor = await transport.executor

        var times = RoundTrips()
        var done = -warmUp
        while done < count {
            let turn = done < 0 ? warmUp : min(block, count - done)
            let raw = try rawRoundTrips(anchor.request, turn: turn)
            let layout = try layoutRoundTrips(dealer, router, wakeUp: wakeUp, items: &items, turn: turn)
            let trellis = await trellisRoundTrips(transport, on: executor, target: target, turn: turn)
            let bare = await nodeIORoundTrips(nodeIO, replyWaiter: replyWaiter, probe: probe, turn: turn)
            if done >= 0 {
                times.nodeIO += bare
                times.raw += raw
                times.layout += layout
                times.trellis += trellis
            }
            done += turn
        }
        await transport.stop()
        await nodeIO.stop()
        return times
    }

    /// The raw REQ/REP anchor of zmq-rtt and zmtp-rtt: its echo process, launched to answer
    /// `count` requests, and a REQ socket of `context` connected to it. The caller closes the
    /// socket, then reaps the process; on a failure here neither is left behind.
    static func launchRawAnchor(peer: PeerLauncher, context: ZMQContext, endpoint: String, count: Int) throws -> (process: Process, request: ZMQSocket) {
        let process = try peer.launch(.rawEcho, endpoint: endpoint, connectTo: endpoint, count: count, size: 8)
        do {
            let request = try context.socket(.req)
            do {
                try request.set(ZMQOption.linger, 0)
                try request.connect(endpoint)
            } catch {
                request.close()
                throw error
            }
            return (process, request)
        } catch {
            peer.reap(process)
            throw error
        }
    }

    /// `turn` raw REQ/REP round trips, in microseconds: the anchor of zmq-rtt and zmtp-rtt.
    static func rawRoundTrips(_ request: ZMQSocket, turn: Int) throws -> [Double] {
        var raw: [Double] = []
        for _ in 0..<turn {
            let start = ContinuousClock.now
            try request.send([[1, 2, 3, 4, 5, 6, 7, 8]], dontWait: false)
            _ = try request.receive(dontWait: false)
            raw.append(InProcessBench.seconds(since: start) * 1e6)
        }
        return raw
    }

    /// `turn` round trips over Trellis's socket layout with raw libzmq, in microseconds: out on
    /// the DEALER, back on the ROUTER, waited for in `zmq_poll` beside the eventfd.
    private static func layoutRoundTrips(
        _ dealer: ZMQSocket, _ router: ZMQSocket, wakeUp: WakeUpSignal, items: inout ZMQPollSet, turn: Int
    ) throws -> [Double] {
        var layout: [Double] = []
        for _ in 0..<turn {
            let start = ContinuousClock.now
            try dealer.send([[1, 2, 3, 4, 5, 6, 7, 8]], dontWait: false)
            while true {
                items.removeAll()
                items.append(ZMQPollItem(.socket(router)))
                items.append(ZMQPollItem(.fileDescriptor(wakeUp.fileDescriptor)))
                try items.poll(timeoutMilliseconds: 250)
                if items[0].readable, try router.receive(dontWait: true) != nil { break }
            }
            layout.append(InProcessBench.seconds(since: start) * 1e6)
        }
        return layout
    }

    /// `turn` Trellis CALL/RETURN round trips, in microseconds. As a node's own work does: the
    /// caller runs on the node's I/O thread.
    private static func trellisRoundTrips(
        _ transport: NodeTransport, on executor: (any TaskExecutor)?, target: WireAddress, turn: Int
    ) async -> [Double] {
        await withTaskExecutorPreference(executor) {
            var trellis: [Double] = []
            for _ in 0..<turn {
                let start = ContinuousClock.now
                _ = await transport.call(peer: "echo", target: target, code: .snapshot, arguments: [])
                trellis.append(InProcessBench.seconds(since: start) * 1e6)
            }
            return trellis
        }
    }

    /// `turn` round trips of `probe` through bare `NodeIO`s, in microseconds, from a task on the
    /// I/O thread: the reply resumes the caller from the I/O thread's callback (`replyWaiter`).
    private static func nodeIORoundTrips(
        _ nodeIO: NodeIO, replyWaiter: borrowing Mutex<CheckedContinuation<Void, Never>?>, probe: [[UInt8]], turn: Int
    ) async -> [Double] {
        await withTaskExecutorPreference(nodeIO) {
            var bare: [Double] = []
            for _ in 0..<turn {
                let start = ContinuousClock.now
                await withCheckedContinuation { (waiting: CheckedContinuation<Void, Never>) in
                    replyWaiter.withLock { $0 = waiting }
                    nodeIO.send(to: "io-echo", probe)
                }
                bare.append(InProcessBench.seconds(since: start) * 1e6)
            }
            return bare
        }
    }

    // MARK: The peer side

    /// Runs one peer role until its work is done.
    package static func runPeer(_ role: PeerRole, endpoint: String, connectTo: String, count: Int, size: Int) async throws {
        let payload = [UInt8](repeating: 0x61, count: size)
        switch role {
        case .rawPush:
            try runRawPush(connectTo: connectTo, count: count, payload: payload)
        case .rawEcho:
            try runRawEcho(endpoint: endpoint, count: count)
        case .trellisPush:
            try await runTrellisPush(endpoint: endpoint, connectTo: connectTo, count: count, size: size, payload: payload)
        case .nodeIOEcho:
            try await runNodeIOEcho(endpoint: endpoint, connectTo: connectTo)
        case .rawRouterEcho:
            try runRawRouterEcho(endpoint: endpoint, connectTo: connectTo, count: count)
        case .trellisEcho:
            try await runTrellisEcho(endpoint: endpoint, connectTo: connectTo)
        case .zmtpEcho:
            try ZMTPBench.runEcho(endpoint: endpoint, count: count)
        }
    }

    /// Sends `count` messages of `payload` on a raw PUSH socket, then stays until the measuring
    /// side is done.
    private static func runRawPush(connectTo: String, count: Int, payload: [UInt8]) throws {
        let context = try ZMQContext()
        let push = try context.socket(.push)
        try push.set(ZMQOption.linger, 5_000)
        try push.set(ZMQOption.sendHighWaterMark, 0)
        try push.connect(connectTo)
        for _ in 0..<count { try push.send([payload], dontWait: false) }
        // Linger does not flush reliably on ipc (SPEC §7): stay until the measure is done.
        _ = FileHandle.standardInput.readDataToEndOfFile()
        push.close()
        context.terminate()
    }

    /// Echoes `count` requests on a raw REP socket.
    private static func runRawEcho(endpoint: String, count: Int) throws {
        let context = try ZMQContext()
        let reply = try context.socket(.rep)
        try reply.set(ZMQOption.linger, 0)
        try reply.bind(endpoint)
        for _ in 0..<count {
            guard let message = try reply.receive(dontWait: false) else { continue }
            try reply.send(message, dontWait: false)
        }
        reply.close()
        context.terminate()
    }

    /// Sends `count` CALLs carrying `size` bytes through a Trellis node's I/O.
    private static func runTrellisPush(endpoint: String, connectTo: String, count: Int, size: Int, payload: [UInt8]) async throws {
        var configuration = NodeIOConfiguration(nodeName: "push", bindEndpoint: endpoint)
        configuration.highWaterMark = 0
        let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
        io.connect(peer: "measure", endpoint: connectTo)
        // The CALL's value carries the payload: the message is about `size` bytes plus framing.
        let target = WireAddress(node: "measure", controller: "probe", incarnation: 1)
        let text = String(decoding: payload.prefix(max(0, size - 48)), as: UTF8.self)
        for index in 0..<count {
            io.send(to: "measure", WireMessage(.call(target: target, code: .layout, arguments: [.string(text)]), correlationID: UInt64(index + 1)))
        }
        // Linger does not flush reliably on ipc (SPEC §7): stay until the measuring side is done.
        let done = FileHandle.standardInput.readDataToEndOfFile()
        _ = done
        await io.stop()
    }

    /// Echoes every message back through a bare `NodeIO`.
    private static func runNodeIOEcho(endpoint: String, connectTo: String) async throws {
        let ioReference = Mutex<NodeIO?>(nil)
        let io = try await NodeIO.start(
            NodeIOConfiguration(nodeName: "io-echo", bindEndpoint: endpoint), heartbeat: [],
            onMessage: { _, frames in ioReference.withLock { $0 }?.send(to: "io-measure", frames) }, onEvent: { _ in })
        ioReference.withLock { $0 = io }
        io.connect(peer: "io-measure", endpoint: connectTo)
        _ = FileHandle.standardInput.readDataToEndOfFile()
        ioReference.withLock { $0 = nil }
        await io.stop()
    }

    /// Echoes `count` messages on Trellis's socket layout with raw libzmq.
    private static func runRawRouterEcho(endpoint: String, connectTo: String, count: Int) throws {
        let context = try ZMQContext()
        let router = try context.socket(.router)
        try router.set(ZMQOption.linger, 0)
        try router.bind(endpoint)
        let dealer = try context.socket(.dealer)
        try dealer.set(ZMQOption.linger, 0)
        try dealer.set(ZMQOption.routingID, text: "echo")
        try dealer.connect(connectTo)
        let wakeUp = try WakeUpSignal()
        var items = ZMQPollSet()
        var answered = 0
        while answered < count {
            items.removeAll()
            items.append(ZMQPollItem(.socket(router)))
            items.append(ZMQPollItem(.fileDescriptor(wakeUp.fileDescriptor)))
            try items.poll(timeoutMilliseconds: 250)
            while items[0].readable, let frames = try router.receive(dontWait: true) {
                try dealer.send(Array(frames.dropFirst()), dontWait: false)
                answered += 1
            }
        }
        _ = FileHandle.standardInput.readDataToEndOfFile()
        wakeUp.close()
        dealer.close()
        router.close()
        context.terminate()
    }

    /// Answers CALLs through a Trellis node transport, on its I/O thread.
    private static func runTrellisEcho(endpoint: String, connectTo: String) async throws {
        let transport = NodeTransport(nodeName: "echo", recorder: TraceRecorder(node: "echo", storage: .discard))
        _ = try await transport.start(NodeIOConfiguration(nodeName: "echo", bindEndpoint: endpoint))
        // The echo answers on the I/O thread, as a node serves its short calls (`NodeHost.placement`).
        await transport.setHandlers(call: { _, _ in .ok([]) }, placement: { _ in .ioThread }, control: { _, _ in }, peerGone: { _, _ in })
        await transport.connect(peer: "measure", endpoint: connectTo)
        _ = FileHandle.standardInput.readDataToEndOfFile()
        await transport.stop()
    }
}

/// Starts the peer process (this executable, `bench --peer …`) and ends it.
package struct PeerLauncher: Sendable {
    package let executable: String

    package init(executable: String) {
        self.executable = executable
    }

    func launch(
        _ role: TransportBench.PeerRole, endpoint: String, connectTo: String, count: Int, size: Int, onExit: (@Sendable () -> Void)? = nil
    ) throws -> Process {
        let process = Process()
        if let onExit { process.terminationHandler = { _ in onExit() } }
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["bench", "--peer", role.rawValue, "--peer-endpoint", endpoint, "--peer-connect", connectTo,
                             "--peer-count", String(count), "--peer-size", String(size)]
        // The peer stays until its standard input closes: that is how it learns the measure is done.
        process.standardInput = Pipe()
        try process.run()
        return process
    }

    func reap(_ process: Process) {
        if let pipe = process.standardInput as? Pipe { try? pipe.fileHandleForWriting.close() }
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Counts messages on the I/O thread and wakes the measure when all arrived.
final class Counter: Sendable {
    private struct State {
        var received = 0
        /// The sending peer ended before all arrived.
        var peerEnded = false
        /// How many arrived with the first tick, when the clock started: they are not timed.
        var untimed = 0
        var first: ContinuousClock.Instant?
        var seconds: Double?
        var waiter: CheckedContinuation<Double?, Never>?
    }

    private let target: Int
    private let state: Mutex<State>

    init(target: Int) {
        self.target = target
        state = Mutex(State())
    }

    /// Counts `count` more messages (all those of one ZeroMQ message).
    func tick(_ count: Int = 1) {
        guard count > 0 else { return }
        let finished: (CheckedContinuation<Double?, Never>, Double)? = state.withLock { state in
            let before = state.received
            state.received += count
            if before == 0 {
                state.first = .now
                state.untimed = count
            }
            guard before < target, state.received >= target, let first = state.first else { return nil }
            let seconds = InProcessBench.seconds(since: first)
            state.seconds = seconds
            defer { state.waiter = nil }
            return state.waiter.map { ($0, seconds) }
        }
        if let (waiter, seconds) = finished { waiter.resume(returning: seconds) }
    }

    /// The messages that arrived after the clock started (like the anchor's `count - 1`).
    var timedMessages: Int { state.withLock { max(1, target - $0.untimed) } }

    /// The seconds from the first message to the last; nil when the peer ended first.
    func waitUntilDone() async -> Double? {
        await withCheckedContinuation { continuation in
            let done: Double?? = state.withLock { state in
                if let seconds = state.seconds { return .some(seconds) }
                if state.peerEnded { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// The sending peer's process ended: a wait not done yet ends without a figure.
    func peerEnded() {
        let waiter: CheckedContinuation<Double?, Never>? = state.withLock { state in
            guard state.seconds == nil else { return nil }
            state.peerEnded = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }
}

import Synchronization

/// A bench peer process ended before it did its part (it says why on its standard error).
struct BenchPeerError: Error, CustomStringConvertible {
    let endpoint: String
    var description: String { "the bench's peer at \(endpoint) ended before it sent every message (its error is above)" }
}
