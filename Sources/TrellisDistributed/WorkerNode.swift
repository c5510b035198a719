import TrellisTransport
import Foundation
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisWire
import ZeroMQ

/// A node that hosts part of a hierarchy for a conductor (`trellis node`): it greets its peers,
/// builds its controllers when the conductor's SETUP arrives, serves CALLs, hands over its trace
/// on request, and leaves after a goodbye — or when its conductor is gone.
package actor WorkerNode {
    package nonisolated let name: String
    /// The Swift behaviours this node's program registers (SPEC §4.1): a SETUP naming one it
    /// lacks is refused (ERROR 8), and its controllers are built with them.
    let registry: BehaviorRegistry
    let recorder: TraceRecorder
    let transport: NodeTransport
    private var host: NodeHost?
    /// Who set this node up; nil until then.
    private var conductor: String?
    /// Who may set it up (SPEC §7, authority): the conductor its command line names, else the
    /// first peer whose SETUP it accepts. Nobody else can set it up, set it up again, or end it.
    private var expectedConductor: String?
    /// The peers it greeted at start: before a SETUP, one of them going silent ends the node
    /// (its conductor may be that one); a stranger going silent does not.
    private var greeted = Set<String>()
    private var sentEvents = 0
    /// The peers whose SETUP it refused for behaviours it lacks (ERROR 8): if its conductor is
    /// one, it was started as another program than its conductor's, and exits 2 at that
    /// conductor's goodbye; a stray peer's refusal does not mark a good run.
    private var lackedBehaviorsFor = Set<String>()
    /// The run this node was set up for (SETUP's run id): the `run` of every trace line it sends.
    private var runID = ""
    private var finished: CheckedContinuation<Int32, Never>?
    private var exitCode: Int32?
    private var endpoint = ""
    /// The capability bits of each peer's HELLO (§7.1): TRACE-DATA goes in the compact form
    /// only to a peer that announced it. Only the conductor is ever sent TRACE-DATA: kept only
    /// for a peer that is or may still become it (`noteCapabilities`).
    private var peerCapabilities: [String: WireCapabilities] = [:]
    /// Before a SETUP, with no conductor named, any peer may become the conductor: the HELLOs of
    /// at most this many peers other than those it greeted are kept. A conductor's HELLO
    /// dropped for it only means its trace comes as JSON Lines (§7.8 rule 1); a peer making up
    /// names can no longer grow the node's memory by one entry each.
    package static let capabilityPeersKept = 64
    /// How many peers' capabilities are kept (for tests: it stays bounded).
    package var capabilityPeers: Int { peerCapabilities.count }
    /// This node's CURVE configuration, when it uses CURVE.
    private var curve: CurveConfiguration?
    /// Whether a failed handshake on the inbox was said already (a client retries often).
    private var saidInboxHandshake = false
    /// A handshake with the conductor failed for good: said once, then the node exits.
    private var leaving = false
    /// How often the conductor hung up during this node's CURVE handshake with it, before
    /// anything was heard from it (`HandshakeEvidence`).
    private var evidence = HandshakeEvidence()
    /// The peer that set this run up and whose SETUP this node refused for naming another
    /// conductor (`--conductor`): its goodbye ends the node (exit 2), after its ERROR 6 reached it.
    private var misnamedBy: String?
    /// The streams, by the names it greeted, on which `misnamedBy` is answered.
    private var misnamedStreams: [String] = []
    /// How this node named its conductor on its command line (`ConductorNaming`).
    private var naming = ConductorNaming(told: nil, greeted: [:])
    /// Its conductor, which refused this node before any SETUP (ERROR 6: not a node of the run,
    /// another node's key): its goodbye, or its silence, ends the node with 2.
    private var refusedBy: String?
    /// What its conductor said when the run's set-up failed (ERROR 7 before its GOODBYE).
    private var setupFailedText: String?
    /// How long a node stays after its handshake with its conductor failed (CURVE on one side
    /// only, a key that is not the conductor's), connecting again every `mismatchRedial`.
    /// Whichever side sees the mismatch first hangs up,
    /// and the other may hear only that (the conductor's inbox: "no detail"), and libzmq makes
    /// no new attempt after a mismatch. Exiting at once left the conductor waiting out its
    /// greeting deadline (30 s) about one run in eight; with each new attempt the conductor
    /// sees the mismatch itself about seven times in eight.
    static let mismatchGrace: Duration = .seconds(1)
    /// How long a node that refused a SETUP for naming another conductor waits for that
    /// conductor's goodbye before it exits anyway (2).
    static let misnamedGrace: Duration = .seconds(5)
    /// How long a node whose conductor hung up once during the handshake waits to hear from it
    /// (`awaitWordAfterHangUp`).
    static let hangUpWait: Duration = .seconds(10)
    static let mismatchRedial: Duration = .milliseconds(100)
    /// How long a node stopped by a signal (`leave(signal:)`) gives the calls it serves and its
    /// conductor's GOODBYE-ACK before it exits anyway: less than the grace its own conductor
    /// gives it after SIGTERM (`NodeProcess.stopGrace`), so that it is gone before SIGKILL.
    package static let goodbyeGrace: Duration = .milliseconds(800)
    /// The signal that is stopping this node, once one is (`leave(signal:)`).
    private var leavingOnSignal: Int32?
    /// The acknowledgements of the goodbyes it says when stopped, by `replyKey`.
    private let goodbyeAcks = Rendezvous<WireMessage>()
    private var awaitedAcks = Set<String>()

    package init(name: String, registry: BehaviorRegistry = BehaviorRegistry()) {
        self.name = name
        self.registry = registry
        recorder = TraceRecorder(node: name, runID: "")
        transport = NodeTransport(nodeName: name, recorder: recorder)
    }

    /// Runs the node until its conductor says goodbye (0) or is gone (3). `peers` are the nodes
    /// to greet first (the conductor among them). On a loopback network (`network`) the node
    /// shares this process with the others of its run (an in-process run, `NodeLaunch`).
    package func run(
        bind: String, peers: [(name: String, endpoint: String, serverKey: String?)], curve: CurveConfiguration?,
        conductor: String? = nil, setupTimeout: Duration = .seconds(60), network: LoopbackNetwork? = nil
    ) async -> Int32 {
        expectedConductor = conductor
        self.curve = curve
        greeted = Set(peers.map(\.name))
        naming = ConductorNaming(told: conductor, greeted: Dictionary(peers.map { ($0.name, $0.endpoint) }, uniquingKeysWith: { first, _ in first }))
        var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: bind)
        configuration.curve = curve
        do {
            if let network {
                endpoint = try await transport.start(configuration, on: network)
            } else {
                endpoint = try await transport.start(configuration)
            }
        } catch {
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): cannot listen on \(bind): \(error)\n".utf8))
            return 2
        }
        let node = self
        await transport.setHandlers(
            call: { message, _ in await node.handleCall(message) },
            placement: NodeHost.placement(for:),
            control: { message, peer in await node.control(message, from: peer) },
            peerGone: { peer, reason in await node.peerGone(peer, reason: reason) },
            peerRefused: { _ in await node.unknownKeyTried() },
            handshakeFailed: { peer, failure in await node.handshakeFailed(peer, failure) })
        for peer in peers {
            await transport.connect(peer: peer.name, endpoint: peer.endpoint, serverKey: peer.serverKey)
            await transport.send(.hello(node: name, runID: "", capabilities: 0, endpoint: endpoint), to: peer.name)
        }
        // A node nobody sets up does not wait forever (its conductor may have died first).
        let watchdog = Task {
            try await Task.sleep(for: setupTimeout)
            await node.setupTimedOut(after: setupTimeout)
        }
        // The node may have finished already, while `run` waited above (a failed handshake, a
        // goodbye): then its code is known and nothing would resume a continuation stored now.
        let code = await withCheckedContinuation { continuation in
            if let exitCode { continuation.resume(returning: exitCode) } else { finished = continuation }
        }
        watchdog.cancel()
        await transport.stop()
        return code
    }

    /// Ends the node now, as a signal ends its process: for a node in the conductor's own
    /// process that its goodbye did not end (`NodeLaunch.inProcess`). `run` returns `code`.
    package func end(code: Int32) {
        finish(code)
    }

    /// Stopped by `signal` (SIGTERM, SIGINT: `trellis node`'s handler) before its conductor's
    /// goodbye: it finishes the calls it serves, says goodbye to its conductor — before a SETUP,
    /// to whoever may be it — and waits for the acknowledgement (TWP/1 §9.8 rule 6), so that
    /// the conductor reports it stopped rather than lost once silent. All that takes at most
    /// `goodbyeGrace`; `run` then returns 128 + `signal`, as a shell reports a signal.
    package func leave(signal: Int32) async {
        guard exitCode == nil, leavingOnSignal == nil else { return }
        leavingOnSignal = signal
        let code = 128 + signal
        let deadline = ContinuousClock.now.advanced(by: Self.goodbyeGrace)
        let node = self
        // A node that cannot say goodbye in time (a call that does not end, a conductor gone)
        // exits all the same.
        let timer = Task {
            try await Task.sleep(until: deadline)
            await node.finish(code)
        }
        await transport.waitUntilIdle()
        let peers = conductor.map { [$0] } ?? expectedConductor.map { [$0] } ?? greeted.sorted()
        var keys: [String] = []
        for (offset, peer) in peers.enumerated() {
            // Its own requests' ids, apart from its CALLs' 1, 2, 3… (TWP/1 §9.2 rule 1).
            let correlation = (UInt64(1) << 32) + UInt64(offset)
            let key = DistributedRun.replyKey(peer, correlation)
            awaitedAcks.insert(key)
            keys.append(key)
            await transport.send(.goodbye, to: peer, correlationID: correlation)
        }
        for key in keys {
            let left = ContinuousClock.now.duration(to: deadline)
            if left > .zero { _ = await goodbyeAcks.wait(for: key, timeout: left) }
        }
        timer.cancel()
        finish(code)
    }

    private func setupTimedOut(after limit: Duration) {
        guard host == nil else { return }
        FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): no conductor set this node up within \(limit)\n".utf8))
        finish(3)
    }

    private func finish(_ code: Int32) {
        guard exitCode == nil else { return }
        exitCode = code
        finished?.resume(returning: code)
        finished = nil
    }

    private func handleCall(_ message: WireMessage) async -> WireResult {
        guard let host else { return .fault("node \(name) is not set up yet") }
        return await host.handle(message)
    }

    private func control(_ message: WireMessage, from peer: String) async {
        let correlation = message.header.correlationID
        noteHeard(from: peer)
        switch message.body {
        case let .setup(runID, node, scenarioJSON, _, _, peers, behaviors, implementations):
            await setup(
                runID: runID, node: node, scenarioJSON: scenarioJSON, peers: peers,
                behaviors: zip(behaviors, implementations + repeatElement("", count: max(0, behaviors.count - implementations.count))).map { ($0, $1) },
                from: peer, correlation: correlation)
        case .traceRequest:
            // Only the conductor collects: anybody else would take events from the merged trace.
            guard speaksForConductor(peer) else {
                await transport.refuse(.unexpectedCommand, "only this node's conductor asks for its trace", to: peer, correlationID: correlation)
                return
            }
            // The conductor asks as each step ends and goes on with the next: the events are
            // encoded off this actor, which the next step's CALLs go through. Control messages
            // are handled one at a time, so answers still leave in the order asked.
            let compact = peerCapabilities[peer]?.contains(.compactTrace) ?? false
            let sent = await Self.sendTrace(
                of: recorder, after: sentEvents, runID: runID, compact: compact, to: peer, correlation: correlation, over: transport)
            sentEvents += sent
        case .goodbye:
            // Also before a SETUP: a conductor whose set-up failed says goodbye to every node
            // that greeted it, and none of them outlives the run. Anybody else's goodbye is
            // only acknowledged.
            if peer == misnamedBy {
                // The run's conductor, which this node knows under another name, reads the
                // acknowledgement on the stream this node greeted it on.
                for stream in misnamedStreams.isEmpty ? [peer] : misnamedStreams {
                    await transport.answer(.goodbyeAck, to: stream, correlationID: correlation)
                }
                await transport.waitUntilIdle()
                finish(2)
                return
            }
            guard speaksForConductor(peer) else {
                await transport.answer(.goodbyeAck, to: peer, correlationID: correlation)
                return
            }
            await transport.waitUntilIdle()
            await transport.answer(.goodbyeAck, to: peer, correlationID: correlation)
            finish(goodbyeCode(from: peer))
        case let .error(code, text) where code == WireErrorCode.unexpectedCommand.rawValue && host == nil && speaksForConductor(peer) && !leaving:
            // Its conductor refused what this node sent before any SETUP (its greeting came with
            // another node's key, say): this node is the one at fault, and cannot be set up.
            // It stays for that conductor's goodbye, which follows (bounded: `misnamedGrace`),
            // so that the conductor's exit does not wait out an acknowledgement that cannot come.
            leaving = true
            refusedBy = peer
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): its conductor \(peer) refused this node: \(text)\n".utf8))
            let node = self
            Task {
                try? await Task.sleep(for: Self.misnamedGrace)
                await node.finish(2)
            }
        case let .error(code, text) where code == WireErrorCode.setupFailed.rawValue && speaksForConductor(peer):
            // Its conductor's set-up of the run failed (TWP §9.8 rule 1) — before this node was
            // set up, or after, when another node refused its SETUP: said once, in the
            // conductor's words — which name the node at fault —, and the GOODBYE that follows
            // ends this node.
            // A node that named its own mistake already is not told it again.
            guard setupFailedText == nil, misnamedBy == nil else { return }
            setupFailedText = text
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): the run's set-up failed, says its conductor \(peer): \(text)\n".utf8))
        case let .hello(node, _, capabilities, _) where node == peer:
            noteCapabilities(WireCapabilities(rawValue: capabilities), of: peer)
        case .goodbyeAck:
            let key = DistributedRun.replyKey(peer, correlation)
            guard awaitedAcks.remove(key) != nil else { return }
            await goodbyeAcks.deliver(message, for: key)
        case .hello, .ready, .traceData, .compactTraceData, .error, .heartbeat, .call, .return:
            break
        }
    }

    /// A SETUP from `peer`: refused (ERROR 6, ERROR 8) or carried out (READY, or ERROR 7).
    private func setup(
        runID: String, node: String, scenarioJSON: String, peers: [WirePeer], behaviors: [(WireBehavior, type: String)], from peer: String,
        correlation: UInt64
    ) async {
        if conductor == nil, let mistake = naming.mistake(
            setupFrom: peer, for: node, name: name, runConductor: { Self.conductor(of: scenarioJSON, from: peer, registry: registry) }, peers: peers) {
            await refuseMisnamed(mistake, from: peer, correlation: correlation)
            return
        }
        if let refusal = setupRefusal(from: peer, for: node) {
            // The refusal must reach the sender, to whom this node may have no stream: back
            // through the inbox its SETUP came in on — never a stream to where a stranger says
            // it listens, which would let anybody make this node open sockets.
            await transport.refuse(.unexpectedCommand, refusal, to: peer, correlationID: correlation)
            return
        }
        // Before anything is built (TWP/1 §9.1 rule 4): a node of another program refuses,
        // naming what it lacks — what its controllers need, or another name of the file —,
        // and stays as it was until its conductor's goodbye.
        // A node of another runner that registers the same names with other types refuses too
        // (SPEC §4.1: a hand-started node must be the same runner).
        let missing = NodeBehaviors.missing(behaviors.map(\.0) + NodeBehaviors.named(inScenarioJSON: scenarioJSON), in: registry)
        let foreign = NodeBehaviors.foreign(behaviors, in: registry)
        guard missing.isEmpty, foreign.isEmpty else {
            let text = missing.isEmpty
                ? NodeBehaviors.foreignRefusal(node: name, foreign: foreign)
                : NodeBehaviors.refusal(node: name, missing: missing, registry: registry)
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): \(text)\n".utf8))
            await transport.send(.error(code: WireErrorCode.unknownBehavior.rawValue, text: text), to: peer, correlationID: correlation)
            lackedBehaviorsFor.insert(peer)
            return
        }
        do {
            try await setUp(runID: runID, scenarioJSON: scenarioJSON, peers: peers, conductor: peer)
            await transport.send(.ready(node: name), to: peer, correlationID: correlation)
        } catch {
            await transport.send(.error(code: WireErrorCode.setupFailed.rawValue, text: "node \(name) cannot set up: \(error)"), to: peer, correlationID: correlation)
        }
    }

    /// Answers a TRACE-REQUEST: the events `recorder` holds after the first `sent`, as
    /// TRACE-DATA parts of run `runID` far below the sockets' message size limit, however large
    /// the run (TWP/1 §7.8). Runs on the shared pool, not on the caller's actor. Returns how
    /// many events it sent.
    @concurrent
    private static func sendTrace(
        of recorder: TraceRecorder, after sent: Int, runID: String, compact: Bool,
        to peer: String, correlation: UInt64, over transport: NodeTransport
    ) async -> Int {
        let events = recorder.events(after: sent)
        for part in TraceDataCodec.parts(of: events, runID: runID, compact: compact) {
            await transport.send(part, to: peer, correlationID: correlation)
        }
        return events.count
    }

    /// Keeps the capabilities of `peer`'s HELLO when it is this node's conductor or may still
    /// become it: after a SETUP its conductor only; before, the conductor named on the command
    /// line, else the peers it greeted and up to `capabilityPeersKept` others.
    private func noteCapabilities(_ capabilities: WireCapabilities, of peer: String) {
        if let conductor = conductor ?? expectedConductor {
            guard peer == conductor else { return }
        } else if peerCapabilities[peer] == nil, !greeted.contains(peer),
                  peerCapabilities.keys.count(where: { !greeted.contains($0) }) >= Self.capabilityPeersKept {
            return
        }
        peerCapabilities[peer] = capabilities
    }

    /// Why a SETUP from `peer` is refused (ERROR 6, nothing changes), or nil: the node is set up
    /// once, by its conductor, for itself.
    private func setupRefusal(from peer: String, for node: String) -> String? {
        if node != name { return "SETUP for node \(node) reached node \(name)" }
        if let conductor { return "node \(name) is already set up by \(conductor); SETUP from \(PeerName.readable(peer)) refused" }
        if let expectedConductor, peer != expectedConductor {
            return "node \(name) takes its SETUP from \(expectedConductor) only; SETUP from \(PeerName.readable(peer)) refused"
        }
        return nil
    }

    private func setUp(runID: String, scenarioJSON: String, peers: [WirePeer], conductor: String) async throws {
        // Every name the file uses is checked against this node's runner (SETUP named the ones
        // its own controllers need, checked already): a node is its conductor's program.
        let scenario = try ScenarioDecoder.decode(scenarioJSON, file: "SETUP from \(conductor)", registry: registry)
        let placement = Placement(scenario)
        let environment = RuntimeEnvironment(recorder: recorder)
        let host = NodeHost(
            nodeName: name, conductorNode: placement.conductor, environment: environment, transport: transport,
            profile: scenario.profile, placement: placement.nodeOf, namesBehaviors: !scenario.behaviorNames.isEmpty)
        for peer in peers where peer.node != name {
            await transport.connect(peer: peer.node, endpoint: peer.endpoint, serverKey: peer.publicKey.isEmpty ? nil : peer.publicKey)
        }
        let hierarchy = ScenarioRunner.hierarchy(of: scenario)
        let byID = try hierarchy.validate()
        var proxies: [ControllerID: RemoteController] = [:]
        for description in hierarchy.controllers where placement.nodeOf[description.id] != name {
            if let proxy = await host.proxy(forPlaced: description.id) { proxies[description.id] = proxy }
        }
        let standIns = proxies
        let built = await ControllerFactory.build(
            byID, order: hierarchy.controllers.map(\.id), environment: environment, remote: { standIns[$0] })
        await host.register(built)
        // A node hosts part of a large hierarchy: its trace memory is made ready now rather than
        // page by page during the first transitions (the initial layout and a transition record
        // about six events a controller).
        recorder.reserve(events: 8 * hierarchy.controllers.filter { placement.nodeOf[$0.id] == name }.count)
        // A local controller whose parent is hosted elsewhere sends its preferred sizes there.
        for description in hierarchy.controllers {
            for child in description.children where placement.nodeOf[child] == name && placement.nodeOf[description.id] != name {
                await built[child]?.setContainer(proxies[description.id])
            }
        }
        self.host = host
        self.conductor = conductor
        self.runID = runID
        // From now on only the conductor's capabilities matter.
        peerCapabilities = peerCapabilities.filter { $0.key == conductor }
    }

    /// Whether `peer` can end this node (its goodbye, its silence): after a SETUP only its
    /// conductor; before one, the conductor named on the command line, or (none named) any
    /// peer it greeted — never a stranger.
    private func speaksForConductor(_ peer: String) -> Bool {
        conductor.map { peer == $0 } ?? expectedConductor.map { peer == $0 } ?? greeted.contains(peer)
    }

    /// The conductor of the scenario a SETUP from `peer` brings, or nil when it does not decode.
    private static func conductor(of scenarioJSON: String, from peer: String, registry: BehaviorRegistry) -> String? {
        guard let scenario = try? ScenarioDecoder.decode(scenarioJSON, file: "SETUP from \(peer)", registry: registry) else { return nil }
        return Placement(scenario).conductor
    }

    /// Refuses the run's conductor's SETUP for a conductor named wrongly (`ConductorNaming`):
    /// this node can never be set up, and says so rather than wait for a SETUP that cannot come.
    /// The refusal goes on the stream it greeted the conductor on — the one that reached it (a
    /// second stream to the same inbox would carry the same routing id, and be refused). It
    /// stays until that conductor's goodbye (bounded): a socket closed right after sending may
    /// lose the refusal on ipc (TWP §9.8), and the conductor would then take this node as gone
    /// rather than name the mistake.
    private func refuseMisnamed(_ mistake: ConductorNaming.Mistake, from peer: String, correlation: UInt64) async {
        for stream in mistake.answerOn.isEmpty ? [peer] : mistake.answerOn {
            await transport.refuse(.unexpectedCommand, mistake.text, to: stream, correlationID: correlation)
        }
        guard misnamedBy == nil else { return }
        FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): \(mistake.text)\n".utf8))
        misnamedBy = peer
        misnamedStreams = mistake.answerOn
        await transport.waitUntilIdle()
        let node = self
        Task {
            try? await Task.sleep(for: Self.misnamedGrace)
            await node.finish(2)
        }
    }

    /// A CURVE handshake of this node's failed. With its conductor before a SETUP, the node can
    /// never be set up: it says why and exits 2 (a set-up mistake), rather than wait. On its
    /// inbox, it says so once (a node that does not have this node's public key).
    private func handshakeFailed(_ peer: String?, _ failure: HandshakeFailure) {
        guard host == nil else { return }
        if peer == nil, failure == .mechanismMismatch, let conductor = expectedConductor, evidence.plainClientTried() == .noCurve {
            conclude(about: conductor, .mechanismMismatch)
        }
        guard let peer else {
            guard !saidInboxHandshake, failure == .wrongKey || failure == .mechanismMismatch else { return }
            saidInboxHandshake = true
            let why = failure == .wrongKey
                ? "with a public key for it that is not \(name)'s (\(name)'s own is \(curve?.publicKey ?? "")): that peer was given another \(name).pub"
                : "without CURVE, which this node uses"
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): a peer tried to connect \(why)\n".utf8))
            return
        }
        // Without CURVE, a protocol error other than a mismatch is left to the usual timeouts.
        // A conductor that hangs up during the handshake (no detail) is one that requires CURVE
        // — libzmq tells the mismatch only on the next attempt, and a conductor that names it
        // exits at once — or one that stops at that very moment, and then nothing is lost.
        guard speaksForConductor(peer), curve != nil || failure == .mechanismMismatch || failure == .other(code: nil), !leaving else { return }
        // With CURVE, one hang-up is no evidence against this node's key: a conductor ending
        // its run (another node's mistake) hangs up too. Only a conductor that keeps hanging up
        // on every attempt, and that this node never heard, says its key for it is wrong.
        var failure = failure
        if curve != nil, failure == .other(code: nil), speaksForConductor(peer) {
            switch evidence.hungUp() {
            case .wait:
                if evidence.hangUps == 1 { awaitWordAfterHangUp(from: peer) }
                return
            case .wrongKey: break
            case .noCurve: failure = .mechanismMismatch
            }
        }
        conclude(about: peer, failure)
    }

    /// A client with a key this node does not allow tried its inbox: after a hang-up from its
    /// conductor, most likely that conductor with its own key, not the one this node has for it.
    private func unknownKeyTried() {
        guard host == nil, curve != nil, let conductor = expectedConductor, evidence.unknownKeyTried() == .wrongKey else { return }
        conclude(about: conductor, .wrongKey)
    }

    /// After its conductor hung up during a handshake, a node that hears nothing more from it
    /// within `hangUpWait` — no goodbye, no greeting — is left with nobody to set it up: it says
    /// so and exits (3, its conductor gone), rather than wait out its set-up wait.
    private func awaitWordAfterHangUp(from peer: String) {
        let node = self
        Task {
            try? await Task.sleep(for: Self.hangUpWait)
            await node.hangUpWaitEnded(peer)
        }
    }

    private func hangUpWaitEnded(_ peer: String) {
        guard !evidence.heard, !leaving, exitCode == nil, host == nil else { return }
        leaving = true
        FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): \(peer) hung up during the CURVE handshake and has not been heard since (\(Self.hangUpWait)): it ended — for another node's mistake, or because it does not use CURVE; its own output says which\n".utf8))
        finish(3)
    }

    /// Says why the handshake with the conductor `peer` failed for good, and ends the node.
    private func conclude(about peer: String, _ failure: HandshakeFailure) {
        guard !leaving else { return }
        leaving = true
        let text: String
        switch failure {
        case .keyRefused:
            text = "\(peer) refused this node's CURVE key: its public key \(curve?.publicKey ?? "") is not among the keys given to \(peer)"
        case .mechanismMismatch:
            text = curve == nil
                ? "\(peer) uses CURVE, and this node does not (start it with --keys FOLDER): every node of a run uses CURVE, or none does"
                : "\(peer) does not use CURVE, and this node does: every node of a run uses CURVE, or none does"
        case .other where curve == nil:
            text = "\(peer) hung up during the handshake: it most likely uses CURVE, and this node does not (start it with --keys FOLDER)"
        case .wrongKey, .other:
            // A client whose idea of the server's key is wrong hears only that the server hung up:
            // every attempt, and nothing from that peer meanwhile (`HandshakeEvidence`).
            text = evidence.unknownKey
                ? "\(peer) hung up during the CURVE handshake, and a peer with a key this node does not know tried its inbox — \(peer), most likely: the public key this node has for \(peer) is most likely not \(peer)'s"
                : "\(peer) hung up during each of \(evidence.hangUps) CURVE handshakes (\(failure)) and was never heard: the public key this node has for \(peer) is most likely not \(peer)'s — or \(peer) does not use CURVE (every node of a run uses CURVE, or none does)"
        }
        FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): \(text)\n".utf8))
        // A refused key is said on both sides already. Otherwise whichever side sees the
        // mistake first hangs up, and the other may hear only that: a few more attempts let
        // the conductor see it too (`mismatchGrace`).
        if case .keyRefused = failure {
            finish(2)
            return
        }
        let deadline = ContinuousClock.now.advanced(by: Self.mismatchGrace)
        Task {
            // Cancelled or not, the node exits: at worst a little early.
            while ContinuousClock.now < deadline, exitCode == nil {
                await transport.redial(peer: peer)
                do { try await Task.sleep(for: Self.mismatchRedial) } catch { break }
            }
            finish(2)
        }
    }

    /// Anything from the node that may be its conductor proves this node's key for it right:
    /// with CURVE it came through this node's inbox, whose allow-list holds that key.
    private func noteHeard(from peer: String) {
        if speaksForConductor(peer) { evidence.heardFromPeer() }
    }

    private func peerGone(_ peer: String, reason: String) async {
        // A node whose set-up already ended in a mistake it said (another conductor's name),
        // or that its conductor told why the set-up failed, ends as that goodbye would have
        // ended it: on a loaded machine the conductor may fall silent before its goodbye
        // reaches this node, and a set-up mistake is not a lost peer (exit 2, not 3).
        if misnamedBy != nil || (refusedBy != nil && peer == refusedBy) {
            finish(2)
            return
        }
        if speaksForConductor(peer) {
            FileHandle.standardError.write(Data("\(ProgramName.current) node \(name): peer \(peer) is gone (\(reason))\n".utf8))
            let told = setupFailedText != nil || lackedBehaviorsFor.contains(peer)
            finish(told ? goodbyeCode(from: peer) : 3)
        }
    }

    /// What this node exits with when its conductor `peer` ends the run: 2 when this node
    /// lacked behaviours the run needed (its own set-up mistake), else 0.
    private func goodbyeCode(from peer: String) -> Int32 {
        lackedBehaviorsFor.contains(peer) || refusedBy == peer ? 2 : 0
    }
}
