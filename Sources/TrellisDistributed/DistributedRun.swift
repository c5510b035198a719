import TrellisTransport
import Foundation
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisWire
import ZeroMQ

/// Conducts one scenario over several processes (SPEC §7): spawns a `trellis node` per placement
/// node (or uses nodes started by hand), sets them up, runs the steps with the window here and
/// stand-ins for the controllers they host, merges their traces by causality, and shuts
/// everything down — also on failure — leaving no process behind.
package actor DistributedRun {
    let scenario: Scenario
    let scenarioText: String
    let options: DistributedOptions
    let placement: Placement
    /// What the workers' traces brought so far (`mergedEvents`).
    var traces: TraceCollection
    let recorder: TraceRecorder
    let transport: NodeTransport
    let host: NodeHost
    /// Where the replies the conductor awaits are handed over, by reply key (`replyKey`).
    let control = Rendezvous<WireMessage>()
    /// Where the end of an answer to a TRACE-REQUEST sent as a step ended is said, by reply key
    /// (its part marked last, an ERROR in its place, or a part past a bound): between steps the
    /// conductor waits for that, not for the parts themselves, which stay in `control` until
    /// it merges.
    let answersEnded = Rendezvous<Bool>()
    /// What happens while the workers greet: a greeting, or why the run cannot start.
    private enum StartupEvent: Sendable {
        case greeted(String)
        case failed(DistributedRunError)
        /// A CURVE mistake heard on the conductor's inbox, where libzmq does not say which node
        /// made it: named once the others have had a moment to greet (`blameGrace`).
        case keyMistake(NodeLifecycle.InboxMistake)
    }
    /// How long the conductor, having heard a key mistake on its inbox from a node it cannot
    /// name, lets the other workers greet before it ends the set-up: the one worker left
    /// without a greeting is then the one named, and every correctly keyed node has finished
    /// its handshake — its conductor's end is not mistaken for its own key's fault.
    static let blameGrace: Duration = .seconds(3)
    /// Two nodes of the key folder with one public key (`keysFromFolder`): the start's mistake,
    /// named once the conductor listens.
    private var sharedKeyMistake: String?
    /// The workers whose public key another worker has too: each is at fault (`farewell`).
    private var sharedKeyNodes: Set<String> = []
    /// Why the start failed, once it did: said to every node told goodbye (ERROR 7).
    private var startFailure: String?
    /// The reply key of each node's goodbye, during the shutdown.
    private var goodbyeKeys: [String: String] = [:]
    /// The shutdown underway or done: every caller awaits this one (an interrupted conductor's
    /// and the run's own end), none returns before it is done.
    private var shuttingDown: Task<Void, Never>?
    /// Nodes started by hand that acknowledged an interrupted conductor's goodbye
    /// (`tellStartedByHandGoodbye`): the shutdown does not tell them again.
    private var acknowledgedByHand = Set<String>()
    /// Workers that connected with another node's CURVE key, and whose key that is.
    private var keyHolders: [String: String] = [:]
    /// Strangers that greeted once the run was set up, refused and told goodbye then: the
    /// reply key of each goodbye, whose acknowledgement the shutdown awaits with the others'.
    private var toldStrangers: [String: String] = [:]
    private let startup = Rendezvous<StartupEvent>()
    private static let startupKey = "startup"
    /// Where each worker stands while the run starts, and the strangers that greeted (told
    /// goodbye too, so that none outlives a failed set-up): the actor carries out what its
    /// transitions return.
    private var lifecycle: NodeLifecycle
    /// How many strangers the conductor greets back and tells goodbye. The first greeting already
    /// ends the set-up as a mistake, named; more than a few mistaken nodes at once is no mistake
    /// but a peer making up names, which must not make the conductor open a socket for each.
    package static let strangersKept = 64
    /// Strangers that greeted beyond `strangersKept`: neither greeted back nor told goodbye.
    package var strangersNotKept: Int { lifecycle.strangersNotKept }
    /// How many strangers greeted (for tests).
    package var strangersGreeted: Int { lifecycle.strangers.count + lifecycle.strangersNotKept }
    /// The workers this conductor launched (`options.launcher`), by name.
    private var children: [String: LaunchedNode] = [:]
    /// The node processes and the work folder of this run, for an interrupted conductor to stop
    /// and remove (`SpawnedNodes.stopAll`) while the run itself may be anywhere.
    package nonisolated let spawned = SpawnedNodes()
    /// The workers that said goodbye on their own before the conductor's goodbye (stopped by a
    /// signal, TWP/1 §9.8 rule 6): stopped, not lost.
    private(set) var stoppedNodes = Set<String>()
    private var workDirectory: URL?
    private var nextCorrelation: UInt64 = 1 << 32
    /// Every node's CURVE public key, when the run uses CURVE.
    private var publicKeys: [String: String] = [:]
    /// The replies the conductor waits for (READY, TRACE-DATA, GOODBYE-ACK, or the ERROR that
    /// answers instead), each keyed by who must send it and the request's correlation id: a
    /// reply nobody asked for, or from another peer than the one asked, is dropped rather than
    /// kept (a peer could otherwise fill the conductor's memory, or answer for another node).
    var awaitedReplies: Set<String> = []

    static func replyKey(_ node: String, _ correlation: UInt64) -> String { "reply:\(node):\(correlation)" }
    /// What `stopsAfter` said when the run stopped because a node was lost.
    private var stopSummary: String?
    /// The last step that ended (0: the initial layout): the one a TRACE-REQUEST sent now
    /// answers for.
    var stepsEnded = 0
    /// Whether `listen` has begun and not ended, and who waits for its end.
    private var listenUnderway = false
    private var awaitingListen: [CheckedContinuation<Void, Never>] = []
    /// What of the trace was handed on to `options.stepTraced` as the steps ended.
    private var live = LiveSteps()
    /// Where each node listens, once started (for tests and diagnostics).
    package private(set) var endpoints: [String: String] = [:]
    /// What the workers' TRACE-DATA parts brought so far (for measurements).
    package var traceData: TraceDataStatistics { traces.statistics }

    package init(scenario: Scenario, scenarioText: String, options: DistributedOptions) {
        self.scenario = scenario
        self.scenarioText = scenarioText
        self.options = options
        traces = TraceCollection(limit: options.traceLimit)
        let placement = Placement(scenario)
        self.placement = placement
        lifecycle = NodeLifecycle(
            conductor: placement.conductor, workers: Array(placement.nodes.dropFirst()), strangersKept: Self.strangersKept)
        let recorder = TraceRecorder(node: placement.conductor, runID: scenario.name)
        self.recorder = recorder
        let transport = NodeTransport(nodeName: placement.conductor, recorder: recorder)
        self.transport = transport
        self.host = NodeHost(
            nodeName: placement.conductor, conductorNode: placement.conductor, environment: RuntimeEnvironment(recorder: recorder),
            transport: transport, profile: scenario.profile, placement: placement.nodeOf)
    }

    /// The workers: every placement node but the conductor's.
    package var workers: [String] { lifecycle.workers }

    /// The process ids of the spawned nodes, by name (for tests that kill one).
    package var processIDs: [String: Int32] { children.compactMapValues(\.processIdentifier) }

    /// The step the conductor's window is at (0: the initial layout), for tests that act mid-run.
    package nonisolated var currentStep: Int { recorder.step }

    /// Waits until the spawned `node` has exited, at most `limit` (then stops it: SIGTERM, then
    /// SIGKILL); its status is then in `exitStatuses`. For tests that stop a node themselves.
    package func waitForExit(of node: String, within limit: Duration) async {
        await children[node]?.waitForExit(within: limit)
    }

    /// The exit statuses of the spawned nodes that exited by themselves (not killed by a
    /// signal), by name: 0 after the conductor's goodbye.
    package var exitStatuses: [String: Int32] {
        children.compactMapValues(\.exitStatus)
    }

    /// The run's work folder (ipc sockets, the spawned nodes' CURVE secret keys), once made;
    /// removed by `shutdown`.
    package var workFolder: URL? { workDirectory }

    /// Set-up mistakes that can be named before anything starts: an endpoint that is not one,
    /// a node started by hand without its CURVE key.
    private func checkOptions() throws(DistributedRunError) {
        for (node, endpoint) in options.startedNodes.sorted(by: { $0.key < $1.key }) {
            if let problem = EndpointSyntax.problem(with: endpoint, for: .connect) {
                throw .mistake("node \(node)'s endpoint \"\(endpoint)\" is not an endpoint: \(problem)")
            }
        }
        if let listen = options.conductorEndpoint, let problem = EndpointSyntax.problem(with: listen, for: .bind) {
            throw .mistake("the conductor's endpoint \"\(listen)\" is not an endpoint: \(problem)")
        }
        if options.secureSpawnedNodes {
            for node in options.startedNodes.keys.sorted() where options.startedNodeKeys[node] == nil {
                throw .mistake("node \(node), started by hand, has no CURVE public key: with CURVE every node started by hand needs one")
            }
        }
    }

    /// Nodes started by hand that are not workers of the placement: named once the conductor
    /// listens, so that the shutdown can tell every node started by hand why the run did not
    /// start (`nodesToTellGoodbye`) — refused before, they waited out their set-up timeout.
    private func checkStartedNodes() throws(DistributedRunError) {
        for node in options.startedNodes.keys.sorted() {
            if let mistake = notAWorker(node) { throw .mistake(mistake) }
        }
    }

    /// Why `node`, given as started by hand, cannot be: it is the conductor, or not a node of
    /// the placement; nil for a worker.
    private func notAWorker(_ node: String) -> String? {
        if workers.contains(node) { return nil }
        if node == placement.conductor { return "node \(node) is the conductor (this process): it cannot also be started by hand" }
        return "node \(node), started by hand, is not a node of the scenario's placement (its nodes: \(placement.nodes.joined(separator: ", ")); \(placement.conductor) conducts)"
    }

    /// With a key folder: the conductor's CURVE configuration and every node's public key, read
    /// before anything starts; a key that is missing, unreadable, or readable by others is a
    /// mistake named now. A node this conductor spawns needs its secret key there too.
    private func keysFromFolder() throws(DistributedRunError) -> (conductor: CurveConfiguration, publicKeys: [String: String])? {
        guard let folder = options.keyFolder else { return nil }
        do {
            // Two nodes with one key pair: named once the conductor listens (`startNodes`), so
            // that each node started by hand is told why; neither key is let in meanwhile.
            let (conductor, shared) = try folder.configurationWithoutShared(for: placement.conductor)
            sharedKeyMistake = shared.map { "\($0) (\(ProgramName.current) keys make NAME --dir \(folder.path) makes a pair for one node, and its NAME.key goes to that node only)" }
            var keys: [String: String] = [:]
            for node in workers { keys[node] = try folder.publicKey(of: node) }
            if shared != nil {
                sharedKeyNodes = CurveKeyFiles.nodesSharingKeys(keys)
            }
            for node in workers where options.startedNodes[node] == nil {
                _ = try CurveKeyFiles.readSecret(folder.secretKeyFile(of: node))
            }
            return (conductor, keys)
        } catch {
            throw .mistake("\(error) (the key folder \(folder.path) needs NAME.pub for every node of the run — \(placement.nodes.joined(separator: ", ")) — and NAME.key for the conductor and each node it starts: \(ProgramName.current) keys make NAME... --dir \(folder.path))")
        }
    }

    /// Starts and sets up every node, phase by phase. After it returns, `run()` may be called.
    package func start() async throws(DistributedRunError) {
        do {
            try await startNodes()
        } catch {
            switch error {
            case let .setup(text), let .mistake(text): startFailure = text
            case .run, .faults: startFailure = "\(error)"
            }
            throw error
        }
    }

    private func startNodes() async throws(DistributedRunError) {
        try checkOptions()
        let folderKeys = try keysFromFolder()
        let directory = try makeWorkFolder()
        let keys = try makeKeys(folderKeys: folderKeys)
        let conductorEndpoint = try await listen(curve: keys.conductor, in: directory)
        try checkStartedNodes()
        if let sharedKeyMistake { throw .mistake(sharedKeyMistake) }
        try await launchWorkers(keys: keys, conductorEndpoint: conductorEndpoint, in: directory)
        try await awaitGreetings(conductorEndpoint: conductorEndpoint)
        try await setUpWorkers(conductorEndpoint: conductorEndpoint)
        // A stranger that greeted while the SETUPs were under way ends the start as one that
        // greeted before: nobody was waiting for its mistake then.
        if let mistake = lifecycle.strangerMistake { throw mistake.error }
        lifecycle.allSetUp()
        await transport.stopWatchingInbox()
    }

    /// The run's private work folder: it holds the ipc sockets and the nodes' CURVE secret keys.
    private func makeWorkFolder() throws(DistributedRunError) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .setup("cannot create \(directory.path): \(error)")
        }
        workDirectory = directory
        spawned.set(folder: directory)
        return directory
    }

    /// The CURVE keys of a run: the conductor's configuration, and the key pairs made for the
    /// spawned nodes (`secureSpawnedNodes`).
    private struct RunKeys {
        var conductor: CurveConfiguration?
        /// A key pair per spawned node, made for this run.
        var spawned: [String: (publicKey: String, secretKey: String)] = [:]
        /// Every worker's public key: given for those started by hand, made for the others.
        var workers: [String: String] = [:]
    }

    /// The run's CURVE keys — from the key folder, or a pair made per spawned node, each
    /// allowing every other node of the run — and every node's public key (`publicKeys`).
    private func makeKeys(folderKeys: (conductor: CurveConfiguration, publicKeys: [String: String])?) throws(DistributedRunError) -> RunKeys {
        var keys = RunKeys(conductor: options.curve)
        if options.secureSpawnedNodes {
            do {
                if keys.conductor == nil {
                    let pair = try ZMQContext.curveKeyPair()
                    keys.conductor = CurveConfiguration(publicKey: pair.publicKey, secretKey: pair.secretKey, allowedPeers: [:])
                }
                for node in workers where options.startedNodes[node] == nil {
                    keys.spawned[node] = try ZMQContext.curveKeyPair()
                }
            } catch {
                throw .setup("cannot make CURVE keys: \(error)")
            }
        }
        keys.workers = options.startedNodeKeys.merging(keys.spawned.mapValues(\.publicKey)) { first, _ in first }
        if options.secureSpawnedNodes {
            for (node, key) in keys.workers { keys.conductor?.allowedPeers[key] = node }
        }
        publicKeys = keys.workers
        if let folderKeys {
            keys.conductor = folderKeys.conductor
            publicKeys = folderKeys.publicKeys
        }
        if let conductor = keys.conductor { publicKeys[placement.conductor] = conductor.publicKey }
        return keys
    }

    /// Where a spawned node listens: its ipc socket in the work folder, or a free loopback port.
    private func endpoint(for node: String, in directory: URL) -> String {
        options.endpointKind == .ipc ? Self.ipcEndpoint(of: node, in: directory) : "tcp://127.0.0.1:*"
    }

    /// Starts the conductor's own transport and its handlers; returns where it listens.
    private func listen(curve: CurveConfiguration?, in directory: URL) async throws(DistributedRunError) -> String {
        var configuration = NodeIOConfiguration(
            nodeName: placement.conductor, bindEndpoint: options.conductorEndpoint ?? endpoint(for: placement.conductor, in: directory))
        configuration.heartbeatIntervalMilliseconds = options.heartbeatIntervalMilliseconds
        configuration.peerTimeoutMilliseconds = options.peerTimeoutMilliseconds
        configuration.curve = curve
        configuration.watchesPlainInbox = curve == nil
        let conductorEndpoint: String
        // The socket is bound before `startConductor` returns: a signal then must wait for its
        // end to tell the nodes started by hand goodbye (`untilListenEnded`).
        listenUnderway = true
        defer { listenEnded() }
        do {
            conductorEndpoint = try await options.launcher.startConductor(transport, configuration)
        } catch {
            // An endpoint it was given that it cannot listen on is a mistake (a bad address, a
            // port in use); one it chose itself, a fault.
            if let given = options.conductorEndpoint { throw .mistake("the conductor cannot listen on \(given): \(error)") }
            throw .setup("the conductor cannot listen: \(error)")
        }
        endpoints[placement.conductor] = conductorEndpoint
        let run = self
        let host = self.host
        await transport.setHandlers(
            call: { message, _ in await host.handle(message) },
            placement: NodeHost.placement(for:),
            control: { message, peer in await run.control(message, from: peer) },
            peerGone: { peer, reason in await run.fellSilent(peer, reason) },
            peerRefused: { key in await run.refused(key) },
            handshakeFailed: { peer, failure in await run.handshakeFailed(peer, failure) },
            impersonated: { sender, keyOf in await run.impersonated(sender, keyOf: keyOf) })
        return conductorEndpoint
    }

    /// `listen` has ended, listening or not: those waiting for it go on.
    private func listenEnded() {
        listenUnderway = false
        let waiting = awaitingListen
        awaitingListen = []
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once no `listen` is underway (at once when none is).
    private func untilListenEnded() async {
        guard listenUnderway else { return }
        await withCheckedContinuation { awaitingListen.append($0) }
    }

    /// Launches the workers not started by hand (`options.launcher`); each greets the conductor.
    private func launchWorkers(keys: RunKeys, conductorEndpoint: String, in directory: URL) async throws(DistributedRunError) {
        let run = self
        for node in workers where options.startedNodes[node] == nil {
            let launch = NodeLaunch(
                node: node, bindEndpoint: endpoint(for: node, in: directory), conductor: placement.conductor,
                conductorEndpoint: conductorEndpoint, keys: try launchKeys(of: node, keys: keys, in: directory),
                registry: scenario.registry)
            children[node] = try await options.launcher.launch(launch, options: options, spawned: spawned) { why in
                await run.lost(node, why)
            }
        }
    }

    /// How the spawned `node` holds its CURVE keys: the key folder, or files written for it now.
    private func launchKeys(of node: String, keys: RunKeys, in directory: URL) throws(DistributedRunError) -> NodeLaunch.Keys? {
        if let folder = options.keyFolder { return .folder(folder) }
        guard let pair = keys.spawned[node], let conductorKey = keys.conductor?.publicKey else { return nil }
        let secretFile = directory.appendingPathComponent("\(node).secret")
        let allowFile = directory.appendingPathComponent("\(node).allow")
        // NAME=KEY for every other node of the run: the node hears each key's holder under
        // that name only (TWP §10).
        var allowed = keys.workers
        allowed[node] = nil
        allowed[placement.conductor] = conductorKey
        do {
            try CurveKeyFiles.writeSecret(pair.secretKey, to: secretFile)
            try allowed.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
                .write(to: allowFile, atomically: true, encoding: .utf8)
        } catch {
            throw .setup("cannot write the CURVE keys of node \(node): \(error)")
        }
        return .files(secretKey: secretFile, allow: allowFile, conductorKey: conductorKey)
    }

    /// Every worker greets, in any order; each is greeted back as its HELLO arrives (`greet`),
    /// so that one that never comes does not keep the others waiting unheard.
    private func awaitGreetings(conductorEndpoint: String) async throws(DistributedRunError) {
        let deadline = ContinuousClock.now.advanced(by: options.startupTimeout)
        while !lifecycle.notGreeted.isEmpty {
            let left = ContinuousClock.now.duration(to: deadline)
            let event = left > .zero ? await startup.wait(for: Self.startupKey, timeout: left) : nil
            switch event {
            case .greeted?: continue
            case let .failed(error)?: throw error
            case let .keyMistake(mistake)?:
                throw await blame(mistake, deadline: deadline)
            case nil:
                let missing = lifecycle.notGreeted
                let byHand = missing.filter { options.startedNodes[$0] != nil }
                var text = "\(missing.count == 1 ? "node" : "nodes") \(missing.joined(separator: ", ")) did not greet the conductor within \(options.startupTimeout)"
                if !byHand.isEmpty {
                    text += " (a node started by hand must run with --peer \(placement.conductor)=ENDPOINT, where this conductor listens: \(conductorEndpoint))"
                }
                throw .setup(text)
            }
        }
    }

    /// A key mistake heard on the inbox: the workers greet for `blameGrace` at most, or until
    /// one is left (the node that made it), and the mistake names those that have not greeted.
    private func blame(_ mistake: NodeLifecycle.InboxMistake, deadline: ContinuousClock.Instant) async -> DistributedRunError {
        let graceEnds = min(deadline, ContinuousClock.now.advanced(by: Self.blameGrace))
        while lifecycle.notGreeted.count > 1 {
            let left = ContinuousClock.now.duration(to: graceEnds)
            guard left > .zero, let event = await startup.wait(for: Self.startupKey, timeout: left) else { break }
            switch event {
            case .greeted, .keyMistake: continue
            case let .failed(error): return error
            }
        }
        let usesCurve = publicKeys[placement.conductor] != nil
        let failure = lifecycle.named(mistake, conductorKey: publicKeys[placement.conductor] ?? "", usesCurve: usesCurve, publicKeys: publicKeys)
        return failure?.error ?? .setup("the set-up ended while a CURVE mistake was being named")
    }

    /// Sends each worker its SETUP, one after the other, and waits for its READY.
    private func setUpWorkers(conductorEndpoint: String) async throws(DistributedRunError) {
        let peers = [WirePeer(node: placement.conductor, endpoint: conductorEndpoint, publicKey: publicKeys[placement.conductor] ?? "")]
            + workers.map { WirePeer(node: $0, endpoint: endpoints[$0] ?? "", publicKey: publicKeys[$0] ?? "") }
        for node in workers {
            do {
                try await setUp(node, peers: peers)
                lifecycle.endSetup(of: node, ready: true)
            } catch {
                lifecycle.endSetup(of: node, ready: false)
                throw error
            }
        }
    }

    /// Sends `node` its SETUP and waits for its READY.
    private func setUp(_ node: String, peers: [WirePeer]) async throws(DistributedRunError) {
        let correlation = takeCorrelation()
        let key = Self.replyKey(node, correlation)
        // Lost already (while the others greeted, say): its READY cannot come.
        switch lifecycle.beginSetup(of: node, correlation: correlation) {
        case .send: break
        case let .fail(failure): throw failure.error
        }
        awaitedReplies.insert(key)
        defer { awaitedReplies.remove(key) }
        let behaviors = NodeBehaviors.needed(by: node, in: scenario, placement: placement)
        if let refused = await transport.send(
            .setup(runID: scenario.name, node: node, scenarioJSON: scenarioText,
                   heartbeatIntervalMilliseconds: UInt32(options.heartbeatIntervalMilliseconds),
                   peerGoneTimeoutMilliseconds: UInt32(options.peerTimeoutMilliseconds), peers: peers,
                   behaviors: behaviors, implementations: NodeBehaviors.implementations(of: behaviors, in: scenario.registry)),
            to: node, correlationID: correlation) {
            throw .setup("cannot send SETUP to node \(node): \(refused)")
        }
        guard let reply = await control.wait(for: key, timeout: options.startupTimeout) else {
            throw .setup("node \(node) did not get ready within \(options.startupTimeout)")
        }
        // TWP/1 §9.1: the text of any ERROR that answers a SETUP ends the run. ERROR 6 (not
        // from its conductor, not for it) and ERROR 8 (behaviours it lacks: another program
        // than this one) are mistakes in how the node was started.
        if case let .error(code, text) = reply.body {
            switch WireErrorCode(rawValue: code) {
            case .unexpectedCommand?: throw .mistake(text)
            case .unknownBehavior?: throw .mistake(Self.lackedBehaviors(node, text))
            case .malformedHeader?, .unsupportedVersion?, .unknownCommand?, .malformedBody?, .unknownCallCode?, .setupFailed?, nil:
                throw .setup(text)
            }
        }
    }

    /// The mistake of a node that refused its SETUP for behaviours it lacks (ERROR 8): its own
    /// words (the node, what it lacks), and what to do about it.
    static func lackedBehaviors(_ node: String, _ text: String) -> String {
        let said = text.contains("node \(node)") ? text : "node \(node): \(text)"
        return "\(said) — every node of a run must be this conductor's own program (\(ownProgram)), which registers them: the nodes it starts are; start a node by hand with the same runner"
    }

    /// The name of the program this conductor runs, for messages.
    static var ownProgram: String {
        URL(fileURLWithPath: ownExecutable).lastPathComponent
    }

    /// This program's own path: what a conductor starts its nodes with (they must know its
    /// behaviours, SPEC §4.1), and what its messages name.
    package static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? "trellis"
    }

    /// A worker exited or went silent before the run was set up: the set-up fails now, naming
    /// it, rather than at its deadline (a greeting or a READY that cannot come).
    private func lost(_ node: String, _ why: String) async {
        await carryOut(lifecycle.lost(node, why: why), for: node)
    }

    /// What a worker's loss means (`NodeLifecycle.lost`): the start fails, and the wait for its
    /// READY, if it is awaited, ends.
    private func carryOut(_ action: NodeLifecycle.LossAction, for node: String) async {
        switch action {
        case .none:
            return
        case let .fail(failure, answeringSetup):
            await startup.deliver(.failed(failure.error), for: Self.startupKey)
            if let correlation = answeringSetup {
                await control.deliver(
                    WireMessage(.error(code: WireErrorCode.setupFailed.rawValue, text: "\(failure.text) before it was ready")),
                    for: Self.replyKey(node, correlation))
            }
        }
    }

    /// A peer fell silent: a worker that greeted is lost. One whose greeting is not handled yet
    /// (on a busy machine the I/O thread may declare it gone first, and never again) is lost
    /// as soon as it is; one that never greets is bounded by the greeting's deadline.
    private func fellSilent(_ node: String, _ reason: String) async {
        switch lifecycle.fellSilent(node, reason: reason) {
        case .none:
            // A stranger that said something and hung up is not a node of the run, and must
            // not fail it (nor be remembered).
            return
        case let .fault(fault, then: loss):
            await host.noteFault(fault)
            await carryOut(loss, for: node)
        }
    }

    /// A node greeted the conductor: a worker is greeted back at once (TWP/1 §9.1 rule 2), a
    /// node the placement does not have ends the set-up (a mistake, named now).
    private func greet(_ node: String, announced: String) async {
        // The folder is made before the transport hears anything: this never returns early.
        guard let directory = workDirectory else { return }
        switch lifecycle.greeting(from: node, announced: announced) {
        case .none:
            return
        case let .greetBack(worker, thenFail: failure):
            let endpoint = options.startedNodes[worker] ?? (announced.isEmpty ? Self.ipcEndpoint(of: worker, in: directory) : announced)
            endpoints[worker] = endpoint
            await transport.connect(peer: worker, endpoint: endpoint, serverKey: publicKeys[worker])
            await transport.send(
                .hello(node: placement.conductor, runID: scenario.name, capabilities: options.capabilities.rawValue), to: worker)
            await startup.deliver(.greeted(worker), for: Self.startupKey)
            if let failure { await carryOut(.fail(failure, answeringSetup: nil), for: worker) }
        case let .stranger(stranger, greetBackAt, failure):
            if let endpoint = greetBackAt {
                await transport.connect(peer: stranger, endpoint: endpoint, serverKey: strangerKey(stranger))
                await transport.send(.hello(node: placement.conductor, runID: scenario.name, capabilities: 0), to: stranger)
            }
            if let failure { await startup.deliver(.failed(failure.error), for: Self.startupKey) }
        case let .refuseStranger(stranger, endpoint):
            // The run is set up and goes on without it; it is told now, not at the run's end.
            await transport.connect(peer: stranger, endpoint: endpoint, serverKey: strangerKey(stranger))
            await transport.send(.hello(node: placement.conductor, runID: scenario.name, capabilities: 0), to: stranger)
            await transport.send(.error(code: WireErrorCode.unexpectedCommand.rawValue, text: lifecycle.strangerText(stranger)), to: stranger)
            let correlation = takeCorrelation()
            let key = Self.replyKey(stranger, correlation)
            awaitedReplies.insert(key)
            toldStrangers[stranger] = key
            await transport.send(.goodbye, to: stranger, correlationID: correlation)
        }
    }

    /// The CURVE key of a node the placement does not have, for the stream to it: the key
    /// folder's NODE.pub (its HELLO came through, so the conductor let a key of the folder in),
    /// else none, and no goodbye can reach it. The name is the peer's: read only when it is a
    /// key name.
    private func strangerKey(_ stranger: String) -> String? {
        let key = CurveKeyFolder.isKeyName(stranger) ? try? options.keyFolder?.publicKey(of: stranger) : nil
        return key ?? publicKeys[stranger]
    }

    /// A CURVE handshake of the conductor's failed (libzmq's monitor): during set-up, the run
    /// cannot start as given, and the mistake is named at once.
    private func handshakeFailed(_ peer: String?, _ failure: HandshakeFailure) async {
        let key = publicKeys[placement.conductor] ?? ""
        guard let mistake = lifecycle.handshakeFailed(peer, failure, conductorKey: key, usesCurve: publicKeys[placement.conductor] != nil) else {
            await endGoodbyeWait(of: peer, failure)
            return
        }
        // On the inbox libzmq does not say who: named after the others had a moment to greet.
        await startup.deliver(peer == nil ? .keyMistake(.handshake(failure)) : .failed(mistake.error), for: Self.startupKey)
    }

    /// A message came with the CURVE key of node `keyOf` from `sender`, and was dropped (TWP §10
    /// rule 5): while starting, two nodes run with one key pair, and the one not named by it
    /// never greets — a mistake, named now rather than at the greeting's deadline.
    private func impersonated(_ sender: String, keyOf owner: String) async {
        guard lifecycle.phase == .starting else { return }
        let who = PeerName.readable(sender)
        let text = "node \(who) connected to the conductor \(placement.conductor) with the CURVE key of node \(owner)"
            + (publicKeys[owner].map { " (\($0))" } ?? "")
            + ": two nodes run with one key pair, and each node needs its own (\(ProgramName.current) keys make \(who) --dir FOLDER, and give the conductor its \(who).pub)"
        // Its goodbye goes to the key it runs with, the only one its inbox answers to.
        if workers.contains(sender) { keyHolders[sender] = owner }
        await startup.deliver(.failed(.mistake(text)), for: Self.startupKey)
    }

    /// During the shutdown, a node the conductor told goodbye whose handshake fails so (it
    /// refuses the conductor's key, say) can never acknowledge it: the wait for it ends now.
    private func endGoodbyeWait(of peer: String?, _ failure: HandshakeFailure) async {
        guard lifecycle.phase == .shutDown, let peer, let key = goodbyeKeys[peer] else { return }
        switch failure {
        case .mechanismMismatch:
            // Whichever side sees it first hangs up, and the other may hear only that: a few
            // more attempts let that node see it on its inbox too (and say so, exit 2).
            for _ in 0..<Self.mismatchRedials {
                await transport.redial(peer: peer)
                try? await Task.sleep(for: .milliseconds(100))
            }
            await control.deliver(WireMessage(.error(code: WireErrorCode.setupFailed.rawValue, text: "\(failure)")), for: key)
        case .keyRefused, .wrongKey:
            await control.deliver(WireMessage(.error(code: WireErrorCode.setupFailed.rawValue, text: "\(failure)")), for: key)
        case .other:
            return
        }
    }

    /// The conductor's ZAP handler refused a CURVE client: during set-up, the run cannot start
    /// (that node would never greet), and the mistake is named at once.
    private func refused(_ key: String) async {
        guard lifecycle.phase == .starting else { return }
        await startup.deliver(.keyMistake(.refused(key: key)), for: Self.startupKey)
    }

    /// Where a spawned node listens over ipc: its socket in the run's work folder. (A node that
    /// greets without saying where it listens is looked for there.)
    private static func ipcEndpoint(of node: String, in directory: URL) -> String {
        "ipc://\(directory.path)/\(node).sock"
    }

    func takeCorrelation() -> UInt64 {
        defer { nextCorrelation += 1 }
        return nextCorrelation
    }

    /// Runs the steps; the trace is the merge of every node's events.
    package func run() async throws(DistributedRunError) -> ScenarioRun {
        var proxies: [ControllerID: RemoteController] = [:]
        for spec in scenario.controllers {
            if let proxy = await host.proxy(forPlaced: spec.id) { proxies[spec.id] = proxy }
        }
        let standIns = proxies
        let window: Window
        do {
            window = try await Window(
                ScenarioRunner.hierarchy(of: scenario), environment: host.environment, remote: { standIns[$0] })
        } catch {
            throw .run(.runtime(step: 0, error))
        }
        await host.register(await window.managedControllers)
        await host.attach(window: window)
        // Local children of remote parents send their preferred sizes to the stand-ins.
        for spec in scenario.controllers where proxies[spec.id] != nil {
            for child in spec.children where proxies[child] == nil {
                await window.managedControllers[child]?.setContainer(proxies[spec.id])
            }
        }
        let run = self
        var result: ScenarioRun
        do {
            result = try await ScenarioRunner.run(
                scenario, on: window, collect: { await run.mergedEvents() }, stopAfter: { await run.stopsAfter(step: $0) })
        } catch {
            throw .run(error)
        }
        let faults = await host.faults
        if let stopSummary {
            // The summary first: it says what happened; the faults it caused follow.
            throw .faults([stopSummary] + faults.filter { $0 != stopSummary }, result)
        }
        if !faults.isEmpty { throw .faults(faults, result) }
        return result
    }

    /// At the end of each step every worker is asked for the events it recorded in it
    /// (`shipsEachStep`), and the next step waits, bounded, until the answers have arrived —
    /// they are read when the trace is merged: a worker lost later has sent them.
    /// Once a node is lost, every later call to it would only fault: the run stops at the end
    /// of the step in which that became known, with one line that says so and what of the
    /// lost node's trace is missing (in the trace, and first among the faults).
    private func stopsAfter(step: Int) async -> Bool {
        stepsEnded = step
        let gone = workers.filter { transport.isGone($0) }
        guard !gone.isEmpty else {
            if options.shipsEachStep {
                var keys: [String] = []
                for node in workers where !traces.refused.contains(node) && !traces.overran(node) {
                    keys.append(await askForTrace(of: node, atTheEndOf: step))
                }
                let arrived = await awaitAnswersEnded(keys)
                await handOnLive(through: step, arrived: arrived)
            }
            await options.afterEachStep?(self, step)
            return false
        }
        var missing: [String] = []
        for node in gone {
            // What it sent as the steps before ended arrived long before it was declared gone.
            await collectOwed(by: node, waiting: false)
            traces.lacksNamed.insert(node)
            missing.append("; the trace lacks node \(node)'s events from \(TraceCollection.stepName(traces.missingFrom(node))) on")
        }
        let total = scenario.steps.count
        let during = step == 0 ? "the initial layout" : "step \(step) of \(total)"
        let rest = step >= total ? "" : step + 1 == total ? "; step \(total) was not run" : "; steps \(step + 1)–\(total) were not run"
        // A node that said goodbye stopped; one that fell silent or died is lost.
        let lost = gone.filter { !stoppedNodes.contains($0) }, stopped = gone.filter(stoppedNodes.contains)
        let who = [(lost, "lost"), (stopped, "stopped")].filter { !$0.0.isEmpty }.map { nodes, what in
            "\(nodes.count == 1 ? "node" : "nodes") \(nodes.joined(separator: ", ")) \(what)"
        }
        let summary = "\(who.joined(separator: " and ")) during \(during): the run stopped there\(rest)" + missing.joined()
        stopSummary = summary
        await host.noteFault(summary)
        recorder.record(.fault(summary), controller: ControllerIDs.node(placement.conductor), cause: nil)
        return true
    }

    /// Whether `body`, a reply, ends an answer to a TRACE-REQUEST: its part marked last, or an
    /// ERROR in its place.
    private static func endsAnswer(_ body: WireBody) -> Bool {
        switch body {
        case let .traceData(last, _), let .compactTraceData(last, _): return last
        case .error: return true
        case .hello, .setup, .ready, .call, .return, .heartbeat, .goodbye, .goodbyeAck, .traceRequest: return false
        }
    }

    /// Why the workers' answers can no longer be handed on as they come, or nil: interrupted
    /// (said otherwise, so an empty reason), or a worker refused (its trace stops short).
    private func answersStopShort() -> String? {
        if spawned.interruptingSignal != nil { return "" }
        guard let refused = workers.first(where: { traces.refused.contains($0) || traces.overran($0) }) else { return nil }
        return "node \(refused)'s trace was refused"
    }

    /// Waits until the answers `keys` (asked for as a step ended) have all arrived whole, for
    /// the peer-gone timeout at most: the worker's encoding then runs between the steps, not
    /// beside the next one on the same cores (measured: the distributed traversal's transition
    /// took six times as long). An answer that takes longer, a worker stopped or lost, is taken
    /// later as the others (`collectOwed`); nothing is read here. True when every answer
    /// arrived whole in time.
    private func awaitAnswersEnded(_ keys: [String]) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(options.peerTimeoutMilliseconds))
        for key in keys {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, await answersEnded.wait(for: key, timeout: left) != nil else { return false }
        }
        return true
    }

    /// Hands the events of the steps through `step` on to `options.stepTraced` when every
    /// worker's answers through it `arrived` whole: they are taken now (`collectOwed`, which
    /// takes what is there and drops the rest of an answer still coming — hence only then) and
    /// merged (`LiveSteps`). Otherwise, or for a worker refused, or once interrupted, nothing more
    /// is handed on: the answers are taken as before, when the trace is merged.
    private func handOnLive(through step: Int, arrived: Bool) async {
        guard let stepTraced = options.stepTraced, live.goesOn else { return }
        let name = TraceCollection.stepName(step)
        if let reason = Self.handingOnStops(arrived: arrived, stopsShort: answersStopShort(), step: name, waitedMilliseconds: options.peerTimeoutMilliseconds) {
            return stopLive(reason)
        }
        for node in workers { await collectOwed(by: node, waiting: false) }
        if let reason = answersStopShort() { return stopLive(reason) }
        if let short = workers.first(where: { traces.missingFrom($0) <= step }) {
            return stopLive("node \(short)'s events of \(name) did not all arrive")
        }
        let conductor = placement.conductor
        let fresh = [(conductor, recorder.events(after: live.handed(of: conductor)))]
            + workers.map { node in (node, Array((traces.events[node] ?? []).dropFirst(live.handed(of: node)))) }
        stepTraced(live.take(through: step, from: fresh))
    }

    /// Why the handing on stops after `step`, or nil when it goes on: `stopsShort`
    /// (`answersStopShort`: interrupted, said as empty, or a worker refused) comes first — an
    /// interruption cuts the wait for the step's answers short, and their not arriving then is
    /// no lateness (it was said as one, with the interruption's own line); else answers that
    /// had not all `arrived` after the wait were late.
    static func handingOnStops(arrived: Bool, stopsShort: String?, step: String, waitedMilliseconds: Int) -> String? {
        if let stopsShort { return stopsShort }
        return arrived ? nil : "the nodes' events of \(step) took longer than \(waitedMilliseconds) ms to arrive"
    }

    /// Nothing more is handed on as the steps end; `reason` (unless empty: an interruption says
    /// itself) goes to `options.stepTracingStopped`.
    private func stopLive(_ reason: String) {
        live.stop()
        if !reason.isEmpty { options.stepTracingStopped?(reason) }
    }

    private func control(_ message: WireMessage, from peer: String) async {
        switch message.body {
        case let .hello(node, _, _, _):
            // A HELLO speaks for the node whose routing id it came from, nobody else (SPEC §7).
            guard node == peer else {
                await transport.refuse(
                    .unexpectedCommand, "HELLO names \(node) but came from \(PeerName.readable(peer)): refused",
                    to: peer, correlationID: message.header.correlationID)
                return
            }
            guard case let .hello(_, _, _, announced) = message.body else { return }
            await greet(node, announced: announced)
        case .ready, .traceData, .compactTraceData, .goodbyeAck, .error:
            let key = Self.replyKey(peer, message.header.correlationID)
            guard awaitedReplies.contains(key) else { return }
            var ends = Self.endsAnswer(message.body)
            if let size = TraceDataCodec.messageBytes(of: message.body), traces.tally(messageBytes: size, for: key) {
                // This part goes past a bound: it is handed over only to say so, and nothing
                // after it is kept.
                awaitedReplies.remove(key)
                ends = true
            }
            await control.deliver(message, for: key)
            if ends { await answersEnded.deliver(true, for: key) }
        case .goodbye:
            await workerLeft(peer)
            await transport.answer(.goodbyeAck, to: peer, correlationID: message.header.correlationID)
        case .setup, .call, .return, .heartbeat, .traceRequest:
            break
        }
    }

    /// A worker said goodbye before the conductor's own (TWP/1 §9.8 rule 6: `trellis node` does
    /// on SIGTERM or SIGINT): it stopped. It is gone at once — the calls waiting on it fail,
    /// the run stops at the end of the step, a start fails — and is said to have stopped, not
    /// to be lost. A goodbye during the conductor's shutdown, or from a stranger, only gets
    /// its acknowledgement.
    private func workerLeft(_ node: String) async {
        guard lifecycle.phase != .shutDown, workers.contains(node), !stoppedNodes.contains(node) else { return }
        let fault = "node \(node) stopped: it said goodbye"
        // Marked first: the run may look at its gone nodes while the transport declares it.
        stoppedNodes.insert(node)
        guard await transport.peerLeft(node, fault: fault) else {
            stoppedNodes.remove(node)
            return
        }
        await host.noteFault(fault)
        await carryOut(lifecycle.lost(node, why: "stopped (it said goodbye)"), for: node)
    }

    /// Says goodbye to every node, waits for the acknowledgements and the processes, kills what
    /// is left, closes the sockets and removes the run's folder. Safe to call twice.
    ///
    /// Every goodbye goes out first, then every wait runs against one deadline
    /// (`goodbyeTimeout`): nodes that do not answer cost the shutdown that deadline once, not
    /// once each.
    package func shutdown() async {
        if let shuttingDown {
            await shuttingDown.value
            return
        }
        let task = Task { await self.shutDownOnce() }
        shuttingDown = task
        await task.value
    }

    /// `shutdown`'s work, done once.
    private func shutDownOnce() async {
        guard lifecycle.phase != .shutDown else { return }
        lifecycle.shutDown()
        let deadline = ContinuousClock.now.advanced(by: options.goodbyeTimeout)
        // Every node that greeted — set up or not, a stranger too — is told goodbye, so that
        // none outlives the run (TWP/1 §9.8).
        var acknowledgements: [(node: String, key: String)] = toldStrangers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for node in await nodesToTellGoodbye() {
            if transport.isGone(node) || acknowledgedByHand.contains(node) { continue }
            let correlation = takeCorrelation()
            let key = Self.replyKey(node, correlation)
            awaitedReplies.insert(key)
            acknowledgements.append((node, key))
            goodbyeKeys[node] = key
            if let (code, text) = farewell(to: node) {
                await transport.send(.error(code: code.rawValue, text: text), to: node)
            }
            await transport.send(.goodbye, to: node, correlationID: correlation)
        }
        // One at a time, but each only for what is left of the shared deadline: an answer that
        // comes while another is awaited is kept by the rendezvous until its turn.
        var acknowledged = Set<String>()
        // A node that never greeted may be the one at fault, gone already or refusing this
        // conductor's key: it gets a shorter wait, so that the conductor's exit is not held up.
        let notGreetedDeadline = min(deadline, ContinuousClock.now.advanced(by: Self.notGreetedGoodbyeWait))
        for (node, key) in acknowledgements {
            let left = ContinuousClock.now.duration(to: lifecycle.hasGreeted(node) || lifecycle.strangers[node] != nil ? deadline : notGreetedDeadline)
            if left > .zero, await control.wait(for: key, timeout: left) != nil { acknowledged.insert(node) }
            awaitedReplies.remove(key)
        }
        if lifecycle.strangersNotKept > 0 {
            recorder.record(
                .fault("\(lifecycle.strangersNotKept) more nodes the placement does not have greeted the conductor: beyond the first \(Self.strangersKept), they were not greeted back nor told goodbye"),
                controller: ControllerIDs.node(placement.conductor), cause: nil)
        }
        await control.cancelAll()
        await answersEnded.cancelAll()
        await startup.cancelAll()
        await transport.stop()
        // A spawned node that has not greeted yet (the set-up failed first) cannot be told
        // goodbye, and has nothing to lose: it is stopped now rather than at the deadline. Nor
        // can one declared gone (silent past the bound: stopped by SIGSTOP, say, or hung): it
        // was not told goodbye, and waiting for it held the conductor's exit — and the error
        // it prints — some six seconds past the fault.
        for (node, launched) in children where (!lifecycle.hasGreeted(node) || transport.isGone(node)) && launched.isRunning {
            launched.terminate()
        }
        // A node that acknowledged is on its way out: it gets a moment to exit by itself even
        // when its answer came just before the deadline — one moment for all of them. Those
        // still running then are stopped together (SIGTERM, then SIGKILL): one grace for all.
        let exitDeadline = max(deadline, ContinuousClock.now.advanced(by: Self.exitGrace))
        await withTaskGroup(of: Void.self) { group in
            for (node, launched) in children {
                let until = acknowledged.contains(node) ? exitDeadline : deadline
                group.addTask { await launched.waitForExit(within: ContinuousClock.now.duration(to: until)) }
            }
        }
        if let workDirectory {
            try? FileManager.default.removeItem(at: workDirectory)
            spawned.set(folder: nil)
        }
    }

    /// Who is told goodbye: every node that greeted — set up or not, a stranger too —, and
    /// after a failed start also each node started by hand that has not greeted (its handshake
    /// cut short by this end, say): the conductor knows where it listens and its key, and
    /// none is left waiting for a SETUP that cannot come (TWP §9.8 rule 1).
    private func nodesToTellGoodbye() async -> [String] {
        var nodes = workers.filter(lifecycle.hasGreeted) + lifecycle.strangers.keys.sorted().filter { toldStrangers[$0] == nil }
        guard startFailure != nil else { return nodes }
        for node in workers where !lifecycle.hasGreeted(node) && !transport.isGone(node) {
            guard let endpoint = options.startedNodes[node] else { continue }
            await transport.connect(peer: node, endpoint: endpoint, serverKey: publicKeys[keyHolders[node] ?? node])
            nodes.append(node)
        }
        // A --node the placement does not have (`checkStartedNodes`): whatever listens there was
        // started by hand for this run, and is told why it cannot be part of it.
        for (node, endpoint) in options.startedNodes.sorted(by: { $0.key < $1.key })
        where !workers.contains(node) && node != placement.conductor && lifecycle.strangers[node] == nil
            && EndpointSyntax.problem(with: endpoint, for: .connect) == nil {
            await transport.connect(peer: node, endpoint: endpoint, serverKey: strangerKey(node))
            nodes.append(node)
        }
        return nodes
    }

    /// What `node` is told before its goodbye, or nil (TWP §9.8 rule 1), with the code of the
    /// ERROR that says it. A node that is not part of the run — a stranger, a --node the
    /// placement does not have — or that ran with another's key (or one another node of the
    /// key folder has) is the one at fault: ERROR 6,
    /// refused, naming it (it exits 2). After a failed start, a node started by hand not at
    /// fault is told why in these words, which name the one that is, rather than guess from its
    /// own handshake (ERROR 7; it exits 0). Not the nodes this conductor spawned: they write
    /// where it does, which says it.
    private func farewell(to node: String) -> (WireErrorCode, String)? {
        if lifecycle.strangers[node] != nil { return (.unexpectedCommand, lifecycle.strangerText(node)) }
        guard let startFailure, options.startedNodes[node] != nil else { return nil }
        if let mistake = notAWorker(node) { return (.unexpectedCommand, mistake) }
        let atFault = keyHolders[node] != nil || sharedKeyNodes.contains(node)
        return (atFault ? .unexpectedCommand : .setupFailed, startFailure)
    }

    /// An interrupted conductor (SIGINT, SIGTERM) says goodbye to the workers started by hand —
    /// which it did not start and cannot stop — and waits for their acknowledgements, as its
    /// shutdown would (`goodbyeTimeout`; 2 s for one that never greeted): set up or not, none is
    /// left waiting for a conductor that is gone (before a SETUP, for its whole set-up timeout).
    /// The nodes it started are stopped apart (`SpawnedNodes.stopAll`). Returns the nodes told
    /// and those that acknowledged; none when the shutdown had begun (it tells them itself) or
    /// the conductor does not listen (nothing can be sent); when it was beginning to, once it
    /// does (a node may have found its socket already).
    package func tellStartedByHandGoodbye() async -> (told: [String], acknowledged: [String]) {
        // Signalled as the conductor began to listen: its nodes may have seen its socket.
        await untilListenEnded()
        guard shuttingDown == nil, lifecycle.phase != .shutDown, endpoints[placement.conductor] != nil else { return ([], []) }
        let deadline = ContinuousClock.now.advanced(by: options.goodbyeTimeout)
        let notGreetedDeadline = min(deadline, ContinuousClock.now.advanced(by: Self.notGreetedGoodbyeWait))
        var waits: [(node: String, key: String, until: ContinuousClock.Instant)] = []
        for node in workers where !transport.isGone(node) {
            guard let endpoint = options.startedNodes[node] else { continue }
            let greeted = lifecycle.hasGreeted(node)
            if !greeted { await transport.connect(peer: node, endpoint: endpoint, serverKey: publicKeys[keyHolders[node] ?? node]) }
            let correlation = takeCorrelation()
            let key = Self.replyKey(node, correlation)
            awaitedReplies.insert(key)
            waits.append((node, key, greeted ? deadline : notGreetedDeadline))
            await transport.send(.goodbye, to: node, correlationID: correlation)
        }
        var acknowledged: [String] = []
        for wait in waits {
            let left = ContinuousClock.now.duration(to: wait.until)
            if left > .zero, await control.wait(for: wait.key, timeout: left) != nil { acknowledged.append(wait.node) }
            awaitedReplies.remove(wait.key)
        }
        acknowledgedByHand.formUnion(acknowledged)
        return (waits.map(\.node), acknowledged)
    }

    /// What an interrupted conductor says of its nodes: the ones it started stopped (when it
    /// started any), the ones started by hand told goodbye (naming any that did not answer);
    /// nil when there were neither.
    package static func interruptedNodes(spawned: Int, toldByHand told: [String], acknowledged: [String]) -> String? {
        var said: [String] = []
        if spawned > 0 { said.append("the nodes it started were stopped") }
        if !told.isEmpty {
            let silent = told.filter { !acknowledged.contains($0) }
            let answer = silent.isEmpty ? "" : " (\(silent.joined(separator: ", ")) did not answer)"
            said.append("the \(told.count == 1 ? "node" : "nodes") started by hand (\(told.joined(separator: ", "))) \(told.count == 1 ? "was" : "were") told goodbye\(answer)")
        }
        return said.isEmpty ? nil : said.joined(separator: "; ")
    }

    /// What an interrupted run's trace lacks of the step under way (`stepUnderWayLacks`).
    package func interruptedStepLacks() -> String? {
        Self.stepUnderWayLacks(currentStep: currentStep, stepsEnded: stepsEnded, steps: scenario.steps.count, hasWorkers: !workers.isEmpty)
    }

    /// What the trace lacks when a run with workers is interrupted while step `currentStep` is
    /// under way (after the last that ended, `stepsEnded`): a worker ships a step's events as
    /// the step ends, so theirs of that step never came — its printed part has only the
    /// conductor's. Nil between steps, or without workers.
    package static func stepUnderWayLacks(currentStep: Int, stepsEnded: Int, steps: Int, hasWorkers: Bool) -> String? {
        guard hasWorkers, currentStep > stepsEnded, currentStep <= steps else { return nil }
        return "the trace lacks the other nodes' events of \(TraceCollection.stepName(currentStep)), which was under way (a node sends a step's events as it ends)"
    }

    /// How many times the conductor connects again to a node whose handshake failed on CURVE
    /// being on one side only, during its shutdown (`endGoodbyeWait`).
    static let mismatchRedials = 5

    /// How long the conductor waits for the goodbye acknowledgement of a node started by hand
    /// that never greeted (`nodesToTellGoodbye`).
    static let notGreetedGoodbyeWait: Duration = .seconds(2)

    /// How long a node that acknowledged its goodbye at least has to exit before it is killed.
    static let exitGrace: Duration = .seconds(1)

    /// This run from end to end: start, run, shut down — also when something fails. What the
    /// run leaves to read afterwards (`traceData`, `exitStatuses`) stays on the actor.
    package func conduct() async throws(DistributedRunError) -> ScenarioRun {
        do {
            try await start()
            let result = try await run()
            await shutdownUnlessInterrupted()
            return result
        } catch {
            await shutdownUnlessInterrupted()
            throw error
        }
    }

    /// The run's own shutdown, unless a signal interrupted the conductor: then its handler shuts
    /// the run down once it has taken what arrived (`eventsReceived`; the shutdown drops what
    /// was not read) and told the nodes started by hand goodbye (the shutdown would end those
    /// waits).
    private func shutdownUnlessInterrupted() async {
        guard spawned.interruptingSignal == nil else { return }
        await shutdown()
    }

    /// One whole run: start, run, shut down (also when something fails).
    package static func run(_ scenario: Scenario, scenarioText: String, options: DistributedOptions) async throws(DistributedRunError) -> ScenarioRun {
        try await DistributedRun(scenario: scenario, scenarioText: scenarioText, options: options).conduct()
    }
}
