import TrellisTransport
import Foundation
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisWire
import ZeroMQ

/// How a distributed run is laid out.
package struct DistributedOptions: Sendable {
    /// The kind of endpoint spawned nodes listen on.
    package enum EndpointKind: String, Sendable, CaseIterable {
        case ipc, tcp
    }

    package var endpointKind: EndpointKind = .ipc
    /// The `trellis` executable that spawned nodes run (`trellis node …`).
    package var nodeExecutable: String
    /// Nodes started by hand (`trellis node`), by name: where they listen. They must greet this
    /// conductor (`--peer <conductor>=<endpoint>`); the others are spawned on this machine.
    package var startedNodes: [String: String] = [:]
    /// Where the conductor listens; nil: a fresh ipc path, or loopback tcp with a free port.
    package var conductorEndpoint: String?
    package var heartbeatIntervalMilliseconds = 250
    package var peerTimeoutMilliseconds = 2_000
    /// How long nodes have to greet and to set up before the run fails.
    package var startupTimeout: Duration = .seconds(30)
    /// How long the shutdown waits, all nodes together, for their GOODBYE-ACKs and for the
    /// spawned processes to exit; what is still running then is killed.
    package var goodbyeTimeout: Duration = .seconds(5)
    /// CURVE for the conductor; with `secureSpawnedNodes`, generated for it when nil.
    package var curve: CurveConfiguration?
    /// Run every spawned node with a fresh CURVE key pair, each allowing exactly the run's
    /// other nodes; nodes started by hand must then bring their keys (`startedNodeKeys`).
    package var secureSpawnedNodes = false
    /// The public keys of nodes started by hand, by name (with CURVE).
    package var startedNodeKeys: [String: String] = [:]
    /// What the conductor's HELLO announces (§7.1): by default that it reads TRACE-DATA in the
    /// compact form; without `.compactTrace` its workers send JSON Lines, as to a 1.1 conductor.
    package var capabilities: WireCapabilities = [.compactTrace]
    /// CURVE with keys made beforehand (`trellis keys make`): every node of the run has its
    /// public key there, the conductor and each node it spawns its secret key too. Takes the
    /// place of `curve`, `secureSpawnedNodes` and `startedNodeKeys`.
    package var keyFolder: CurveKeyFolder?
    /// How much trace one worker's answer to a TRACE-REQUEST may bring (TWP/1 §9.7); past it the
    /// rest of that worker's trace is refused, a fault of the run.
    package var traceLimit = TraceDataLimit.standard

    package init(nodeExecutable: String) {
        self.nodeExecutable = nodeExecutable
    }
}

/// Why a distributed run failed.
package enum DistributedRunError: Error, Sendable, CustomStringConvertible {
    /// The run could not start: a node that cannot be spawned, or does not greet or get ready in
    /// time (a fault of the run: `trellis run` exits 3).
    case setup(String)
    /// The run was set up wrongly, and would never start as given: a node started by hand that
    /// the placement does not have, a node that greets under a name the placement does not have
    /// or takes its SETUP from another conductor, a conductor that cannot listen where it was
    /// told, a CURVE key that is not among the keys given. Bad input: `trellis run` exits 2.
    case mistake(String)
    case run(ScenarioRunError)
    /// The run went through, but messages were lost to faults (a node gone, undeliverable calls).
    case faults([String], ScenarioRun)

    package var description: String {
        switch self {
        case let .setup(text): return "distributed run could not start: \(text)"
        case let .mistake(text): return "distributed run is set up wrongly: \(text)"
        case let .run(error): return "\(error)"
        case let .faults(faults, _):
            return "distributed run failed: " + faults.prefix(5).joined(separator: "; ") + (faults.count > 5 ? " (and \(faults.count - 5) more)" : "")
        }
    }
}

/// Conducts one scenario over several processes (SPEC §7): spawns a `trellis node` per placement
/// node (or uses nodes started by hand), sets them up, runs the steps with the window here and
/// stand-ins for the controllers they host, merges their traces by causality, and shuts
/// everything down — also on failure — leaving no process behind.
package actor DistributedRun {
    let scenario: Scenario
    let scenarioText: String
    let options: DistributedOptions
    let placement: Placement
    /// The losses of worker traces already reported (`traceMissing`).
    private var reportedLosses = Set<String>()
    /// Workers whose answer to a TRACE-REQUEST went past `options.traceLimit`: they are not asked
    /// again (each answer could cost as much), the fault said once.
    private var refusedTraces = Set<String>()
    /// What each answer to a TRACE-REQUEST brought so far, by reply key, counted as each part
    /// arrives (`control`): past `options.traceLimit` the rest is not even kept, so the parts
    /// waiting to be read stay within the bound too.
    private var traceTallies: [String: TraceDataLimit.Tally] = [:]
    /// The bound an answer went past, by reply key, and which of its parts went past it.
    private var traceOverruns: [String: (part: Int, exceeded: String)] = [:]
    let recorder: TraceRecorder
    let transport: NodeTransport
    let host: NodeHost
    private let control = Rendezvous<WireMessage>()
    /// What happens while the workers greet: a greeting, or why the run cannot start.
    private enum StartupEvent: Sendable {
        case greeted(String)
        case failed(DistributedRunError)
    }
    private let startup = Rendezvous<StartupEvent>()
    private static let startupKey = "startup"
    /// Nodes the placement does not have that greeted the conductor (a mistake), and where they
    /// listen: they are told goodbye too, so that none outlives the failed set-up. At most
    /// `strangersKept` of them, each costing a stream (a socket) and a goodbye; the others are
    /// counted (`strangersNotKept`).
    private var strangers: [String: String] = [:]
    /// How many strangers the conductor greets back and tells goodbye. The first greeting already
    /// ends the set-up as a mistake, named; more than a few mistaken nodes at once is no mistake
    /// but a peer making up names, which must not make the conductor open a socket for each.
    package static let strangersKept = 64
    /// Strangers that greeted beyond `strangersKept`: neither greeted back nor told goodbye.
    package private(set) var strangersNotKept = 0
    /// How many strangers greeted (for tests).
    package var strangersGreeted: Int { strangers.count + strangersNotKept }
    /// A stranger's greeting was said as the set-up's mistake (once: that ends the set-up).
    private var strangerNamed = false
    private var children: [String: Process] = [:]
    private var workDirectory: URL?
    private var workerEvents: [String: [TraceEvent]] = [:]
    private var nextCorrelation: UInt64 = 1 << 32
    private var shutDown = false
    /// Every node's CURVE public key, when the run uses CURVE.
    private var publicKeys: [String: String] = [:]
    /// Workers that greeted the conductor: only they are told goodbye.
    private var greeted = Set<String>()
    /// Every worker is ready: from now on a stranger's greeting or a failed handshake is no
    /// longer a set-up mistake (nobody waits for one), and is not kept.
    private var setUpDone = false
    /// The SETUP each worker has not answered yet: its correlation id, by node.
    private var pendingSetups: [String: UInt64] = [:]
    /// The replies the conductor waits for (READY, TRACE-DATA, GOODBYE-ACK, or the ERROR that
    /// answers instead), each keyed by who must send it and the request's correlation id: a
    /// reply nobody asked for, or from another peer than the one asked, is dropped rather than
    /// kept (a peer could otherwise fill the conductor's memory, or answer for another node).
    private var awaitedReplies: Set<String> = []

    private static func replyKey(_ node: String, _ correlation: UInt64) -> String { "reply:\(node):\(correlation)" }
    /// Workers lost before the run was set up, and how (`lost`).
    private var lostBeforeReady: [String: String] = [:]
    /// Peers declared gone before their greeting was handled, and why (`fellSilent`).
    private var silentBeforeGreeting: [String: String] = [:]
    /// What `stopsAfter` said when the run stopped because a node was lost.
    private var stopSummary: String?
    /// Where each node listens, once started (for tests and diagnostics).
    package private(set) var endpoints: [String: String] = [:]
    /// What the workers' TRACE-DATA parts brought so far (for measurements).
    package private(set) var traceData = TraceDataStatistics()

    package init(scenario: Scenario, scenarioText: String, options: DistributedOptions) {
        self.scenario = scenario
        self.scenarioText = scenarioText
        self.options = options
        let placement = Placement(scenario)
        self.placement = placement
        let recorder = TraceRecorder(node: placement.conductor, runID: scenario.name)
        self.recorder = recorder
        let transport = NodeTransport(nodeName: placement.conductor, recorder: recorder)
        self.transport = transport
        self.host = NodeHost(
            nodeName: placement.conductor, conductorNode: placement.conductor, environment: RuntimeEnvironment(recorder: recorder),
            transport: transport, profile: scenario.profile, placement: placement.nodeOf)
    }

    /// The workers: every placement node but the conductor's.
    package var workers: [String] { Array(placement.nodes.dropFirst()) }

    /// The process ids of the spawned nodes, by name (for tests that kill one).
    package var processIDs: [String: Int32] { children.mapValues(\.processIdentifier) }

    /// The exit statuses of the spawned nodes that exited by themselves (not killed by a
    /// signal), by name: 0 after the conductor's goodbye.
    package var exitStatuses: [String: Int32] {
        children.filter { !$0.value.isRunning && $0.value.terminationReason == .exit }.mapValues(\.terminationStatus)
    }

    /// The run's work folder (ipc sockets, the spawned nodes' CURVE secret keys), once made;
    /// removed by `shutdown`.
    package var workFolder: URL? { workDirectory }

    /// Set-up mistakes that can be named before anything starts: nodes started by hand that
    /// are not workers of the placement, a listening endpoint that is not one.
    private func checkOptions() throws(DistributedRunError) {
        for node in options.startedNodes.keys.sorted() where !workers.contains(node) {
            if node == placement.conductor {
                throw .mistake("node \(node) is the conductor (this process): it cannot also be started by hand")
            }
            throw .mistake("node \(node), started by hand, is not a node of the scenario's placement (its nodes: \(placement.nodes.joined(separator: ", ")); \(placement.conductor) conducts)")
        }
        for (node, endpoint) in options.startedNodes.sorted(by: { $0.key < $1.key }) where !Self.isEndpoint(endpoint) {
            throw .mistake("node \(node)'s endpoint \"\(endpoint)\" is not an ipc:// or tcp:// endpoint")
        }
        if let listen = options.conductorEndpoint, !Self.isEndpoint(listen) {
            throw .mistake("the conductor's endpoint \"\(listen)\" is not an ipc:// or tcp:// endpoint")
        }
        if options.secureSpawnedNodes {
            for node in options.startedNodes.keys.sorted() where options.startedNodeKeys[node] == nil {
                throw .mistake("node \(node), started by hand, has no CURVE public key: with CURVE every node started by hand needs one")
            }
        }
    }

    /// With a key folder: the conductor's CURVE configuration and every node's public key, read
    /// before anything starts; a key that is missing, unreadable, or readable by others is a
    /// mistake named now. A node this conductor spawns needs its secret key there too.
    private func keysFromFolder() throws(DistributedRunError) -> (conductor: CurveConfiguration, publicKeys: [String: String])? {
        guard let folder = options.keyFolder else { return nil }
        do {
            let conductor = try folder.configuration(for: placement.conductor)
            var keys: [String: String] = [:]
            for node in workers { keys[node] = try folder.publicKey(of: node) }
            for node in workers where options.startedNodes[node] == nil {
                _ = try CurveKeyFiles.readSecret(folder.secretKeyFile(of: node))
            }
            return (conductor, keys)
        } catch {
            throw .mistake("\(error) (the key folder \(folder.path) needs NAME.pub for every node of the run — \(placement.nodes.joined(separator: ", ")) — and NAME.key for the conductor and each node it starts: trellis keys make NAME... --dir \(folder.path))")
        }
    }

    /// Whether `text` names an endpoint a node can listen on or connect to.
    package static func isEndpoint(_ text: String) -> Bool {
        (text.hasPrefix("ipc://") || text.hasPrefix("tcp://")) && text.count > 6
    }

    /// Starts and sets up every node. After it returns, `run()` may be called.
    package func start() async throws(DistributedRunError) {
        try checkOptions()
        let folderKeys = try keysFromFolder()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        do {
            // Private: it holds the ipc sockets and the nodes' CURVE secret keys.
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .setup("cannot create \(directory.path): \(error)")
        }
        workDirectory = directory
        SpawnedProcesses.shared.add(folder: directory)
        func endpoint(for node: String) -> String {
            options.endpointKind == .ipc ? Self.ipcEndpoint(of: node, in: directory) : "tcp://127.0.0.1:*"
        }
        // CURVE: a key pair per spawned node, each allowing every other node of the run.
        var nodeKeys: [String: (publicKey: String, secretKey: String)] = [:]
        var conductorCurve = options.curve
        if options.secureSpawnedNodes {
            do {
                if conductorCurve == nil {
                    let pair = try ZMQContext.curveKeyPair()
                    conductorCurve = CurveConfiguration(publicKey: pair.publicKey, secretKey: pair.secretKey, allowedPeers: [:])
                }
                for node in workers where options.startedNodes[node] == nil {
                    nodeKeys[node] = try ZMQContext.curveKeyPair()
                }
            } catch {
                throw .setup("cannot make CURVE keys: \(error)")
            }
        }
        // Every worker's public key: given for those started by hand, made for the others.
        let workerKeys = options.startedNodeKeys.merging(nodeKeys.mapValues(\.publicKey)) { first, _ in first }
        if options.secureSpawnedNodes {
            for (node, key) in workerKeys { conductorCurve?.allowedPeers[key] = node }
        }
        publicKeys = workerKeys
        if let folderKeys {
            conductorCurve = folderKeys.conductor
            publicKeys = folderKeys.publicKeys
        }
        if let conductorCurve { publicKeys[placement.conductor] = conductorCurve.publicKey }
        var configuration = NodeIOConfiguration(
            nodeName: placement.conductor, bindEndpoint: options.conductorEndpoint ?? endpoint(for: placement.conductor))
        configuration.heartbeatIntervalMilliseconds = options.heartbeatIntervalMilliseconds
        configuration.peerTimeoutMilliseconds = options.peerTimeoutMilliseconds
        configuration.curve = conductorCurve
        let conductorEndpoint: String
        do {
            conductorEndpoint = try await transport.start(configuration)
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
            handshakeFailed: { peer, failure in await run.handshakeFailed(peer, failure) })

        // Spawn the nodes not started by hand; each greets the conductor.
        for node in workers where options.startedNodes[node] == nil {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: options.nodeExecutable)
            process.arguments = ["node", "--name", node, "--bind", endpoint(for: node),
                                 "--peer", "\(placement.conductor)=\(conductorEndpoint)", "--conductor", placement.conductor,
                                 "--setup-timeout", "60"]
            if let folder = options.keyFolder {
                process.arguments? += ["--keys", folder.path]
            } else if let keys = nodeKeys[node], let conductorKey = conductorCurve?.publicKey {
                let secretFile = directory.appendingPathComponent("\(node).secret")
                let allowFile = directory.appendingPathComponent("\(node).allow")
                // NAME=KEY for every other node of the run: the node hears each key's holder under
                // that name only (TWP §10).
                var allowed = workerKeys
                allowed[node] = nil
                allowed[placement.conductor] = conductorKey
                do {
                    try CurveKeyFiles.writeSecret(keys.secretKey, to: secretFile)
                    try allowed.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
                        .write(to: allowFile, atomically: true, encoding: .utf8)
                } catch {
                    throw .setup("cannot write the CURVE keys of node \(node): \(error)")
                }
                process.arguments? += ["--curve-secret-key", secretFile.path, "--curve-allow", allowFile.path,
                                       "--peer-key", "\(placement.conductor)=\(conductorKey)"]
            }
            // A node that exits before the run is set up ends the set-up at once.
            process.terminationHandler = { ended in
                let status = ended.terminationStatus
                Task { await run.lost(node, "exited with status \(status)") }
            }
            do {
                try process.run()
            } catch {
                throw .setup("cannot start node \(node) (\(options.nodeExecutable)): \(error)")
            }
            children[node] = process
            SpawnedProcesses.shared.add(process.processIdentifier)
        }
        // Every worker greets, in any order; each is greeted back as its HELLO arrives (`greet`),
        // so that one that never comes does not keep the others waiting unheard.
        let deadline = ContinuousClock.now.advanced(by: options.startupTimeout)
        while workers.contains(where: { !greeted.contains($0) }) {
            let left = ContinuousClock.now.duration(to: deadline)
            let event = left > .zero ? await startup.wait(for: Self.startupKey, timeout: left) : nil
            switch event {
            case .greeted?: continue
            case let .failed(error)?: throw error
            case nil:
                let missing = workers.filter { !greeted.contains($0) }
                let byHand = missing.filter { options.startedNodes[$0] != nil }
                var text = "\(missing.count == 1 ? "node" : "nodes") \(missing.joined(separator: ", ")) did not greet the conductor within \(options.startupTimeout)"
                if !byHand.isEmpty {
                    text += " (a node started by hand must run with --peer \(placement.conductor)=ENDPOINT, where this conductor listens: \(conductorEndpoint))"
                }
                throw .setup(text)
            }
        }
        let peers = [WirePeer(node: placement.conductor, endpoint: conductorEndpoint, publicKey: publicKeys[placement.conductor] ?? "")]
            + workers.map { WirePeer(node: $0, endpoint: endpoints[$0] ?? "", publicKey: publicKeys[$0] ?? "") }
        for node in workers {
            let correlation = takeCorrelation()
            pendingSetups[node] = correlation
            awaitedReplies.insert(Self.replyKey(node, correlation))
            defer {
                pendingSetups[node] = nil
                awaitedReplies.remove(Self.replyKey(node, correlation))
            }
            // Lost already (while the others greeted, say): its READY cannot come.
            if let why = lostBeforeReady[node] { throw .setup("node \(node) \(why) before it was ready") }
            if let refused = await transport.send(
                .setup(runID: scenario.name, node: node, scenarioJSON: scenarioText,
                       heartbeatIntervalMilliseconds: UInt32(options.heartbeatIntervalMilliseconds),
                       peerGoneTimeoutMilliseconds: UInt32(options.peerTimeoutMilliseconds), peers: peers),
                to: node, correlationID: correlation) {
                throw .setup("cannot send SETUP to node \(node): \(refused)")
            }
            guard let reply = await control.wait(for: Self.replyKey(node, correlation), timeout: options.startupTimeout) else {
                throw .setup("node \(node) did not get ready within \(options.startupTimeout)")
            }
            // TWP/1 §9.1: the text of any ERROR that answers a SETUP ends the run. ERROR 6 (not
            // from its conductor, not for it) is a mistake in how the node was started.
            if case let .error(code, text) = reply.body {
                throw code == WireErrorCode.unexpectedCommand.rawValue ? .mistake(text) : .setup(text)
            }
        }
        setUpDone = true
    }

    /// A worker exited or went silent before the run was set up: the set-up fails now, naming
    /// it, rather than at its deadline (a greeting or a READY that cannot come).
    private func lost(_ node: String, _ why: String) async {
        guard !shutDown, !setUpDone else { return }
        lostBeforeReady[node] = why
        await startup.deliver(.failed(.setup("node \(node) \(why)")), for: Self.startupKey)
        if let correlation = pendingSetups[node] {
            await control.deliver(
                WireMessage(.error(code: WireErrorCode.setupFailed.rawValue, text: "node \(node) \(why) before it was ready")),
                for: Self.replyKey(node, correlation))
        }
    }

    /// A peer fell silent: a worker that greeted is lost. One whose greeting is not handled yet
    /// (on a busy machine the I/O thread may declare it gone first, and never again) is lost
    /// as soon as it is; one that never greets is bounded by the greeting's deadline.
    private func fellSilent(_ node: String, _ reason: String) async {
        // Only a worker's silence is a loss: a stranger that said something and hung up is not
        // a node of the run, and must not fail it (nor be remembered).
        guard workers.contains(node) else { return }
        await host.noteFault("node \(node) is gone: \(reason)")
        guard greeted.contains(node) else {
            silentBeforeGreeting[node] = reason
            return
        }
        await lost(node, "is gone (\(reason))")
    }

    /// A node greeted the conductor: a worker is greeted back at once (TWP/1 §9.1 rule 2), a
    /// node the placement does not have ends the set-up (a mistake, named now).
    private func greet(_ node: String, announced: String) async {
        guard !shutDown else { return }
        guard workers.contains(node) else {
            guard !setUpDone else { return }
            if !announced.isEmpty, strangers[node] == nil, strangers.count >= Self.strangersKept {
                strangersNotKept += 1
            } else if !announced.isEmpty, strangers[node] == nil {
                strangers[node] = announced
                // With CURVE, the stream to it needs its key: the key folder's NODE.pub (its HELLO
                // came through, so the conductor let a key of the folder in), else no goodbye can
                // reach it. The name is the peer's: read only when it is a key name.
                let key = CurveKeyFolder.isKeyName(node) ? try? options.keyFolder?.publicKey(of: node) : nil
                await transport.connect(peer: node, endpoint: announced, serverKey: key ?? publicKeys[node])
                await transport.send(.hello(node: placement.conductor, runID: scenario.name, capabilities: 0), to: node)
            }
            // The first stranger ends the set-up: the others' mistakes would only pile up unread.
            guard !strangerNamed else { return }
            strangerNamed = true
            let known = workers.isEmpty ? "it has none" : "its workers: \(workers.joined(separator: ", "))"
            await startup.deliver(.failed(.mistake("node \(node) greeted the conductor, but the scenario's placement has no node \(node) (\(known))")), for: Self.startupKey)
            return
        }
        guard !greeted.contains(node), let directory = workDirectory else { return }
        let endpoint = options.startedNodes[node] ?? (announced.isEmpty ? Self.ipcEndpoint(of: node, in: directory) : announced)
        endpoints[node] = endpoint
        greeted.insert(node)
        await transport.connect(peer: node, endpoint: endpoint, serverKey: publicKeys[node])
        await transport.send(
            .hello(node: placement.conductor, runID: scenario.name, capabilities: options.capabilities.rawValue), to: node)
        await startup.deliver(.greeted(node), for: Self.startupKey)
        if let reason = silentBeforeGreeting[node] { await lost(node, "is gone (\(reason))") }
    }

    /// A CURVE handshake of the conductor's failed (libzmq's monitor): during set-up, the run
    /// cannot start as given, and the mistake is named at once.
    private func handshakeFailed(_ peer: String?, _ failure: HandshakeFailure) async {
        guard !shutDown, !setUpDone else { return }
        let conductor = placement.conductor, key = publicKeys[conductor] ?? ""
        let text: String
        switch (peer, failure) {
        case (nil, .keyRefused):
            return  // the ZAP handler's refusal, reported with the key (`refused`)
        case (_, .other(code: nil)):
            return  // a peer that hung up during a handshake: starting or stopping, nothing certain
        case (nil, .wrongKey):
            text = "a node tried to connect to the conductor \(conductor) with a public key for it that is not \(conductor)'s (\(key)): that node was given another \(conductor).pub"
        case (nil, .mechanismMismatch):
            text = "a node connected to the conductor \(conductor) without CURVE, which this run uses: every node of a run uses CURVE, or none does"
        case (nil, _):
            text = "a node's handshake with the conductor \(conductor) failed: \(failure)"
        case let (node?, .keyRefused):
            text = "node \(node) refused the conductor's CURVE key: \(conductor)'s public key \(key) is not among the keys given to node \(node)"
        case let (node?, .mechanismMismatch):
            text = "node \(node) does not use CURVE, which this run uses: every node of a run uses CURVE, or none does"
        case let (node?, _):
            text = "the CURVE handshake with node \(node) failed: \(failure)"
        }
        await startup.deliver(.failed(.mistake(text)), for: Self.startupKey)
    }

    /// The conductor's ZAP handler refused a CURVE client: during set-up, the run cannot start
    /// (that node would never greet), and the mistake is named at once.
    private func refused(_ key: String) async {
        guard !shutDown, !setUpDone else { return }
        let missing = workers.filter { !greeted.contains($0) }
        var text = "a node presented the CURVE public key \(key), which is not among the keys given to the conductor \(placement.conductor)"
        if !missing.isEmpty {
            text += " (not greeted yet: \(missing.joined(separator: ", ")); the keys given: "
                + publicKeys.filter { $0.key != placement.conductor }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        await startup.deliver(.failed(.mistake(text)), for: Self.startupKey)
    }

    /// Where a spawned node listens over ipc: its socket in the run's work folder. (A node that
    /// greets without saying where it listens is looked for there.)
    private static func ipcEndpoint(of node: String, in directory: URL) -> String {
        "ipc://\(directory.path)/\(node).sock"
    }

    private func takeCorrelation() -> UInt64 {
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

    /// Once a node is lost, every later call to it would only fault: the run stops at the end
    /// of the step in which that became known, with one line that says so (in the trace, and
    /// first among the faults).
    private func stopsAfter(step: Int) async -> Bool {
        let lost = workers.filter { transport.isGone($0) }
        guard !lost.isEmpty else { return false }
        let total = scenario.steps.count
        let during = step == 0 ? "the initial layout" : "step \(step) of \(total)"
        let rest = step >= total ? "" : step + 1 == total ? "; step \(total) was not run" : "; steps \(step + 1)–\(total) were not run"
        let summary = "\(lost.count == 1 ? "node" : "nodes") \(lost.joined(separator: ", ")) lost during \(during): the run stopped there\(rest)"
        stopSummary = summary
        await host.noteFault(summary)
        recorder.record(.fault(summary), controller: ControllerIDs.node(placement.conductor), cause: nil)
        return true
    }

    /// Every node's events so far, merged by causality.
    package func mergedEvents() async -> [TraceEvent] {
        for node in workers {
            // Nothing is lost silently: a node that cannot send its trace is a fault of the run
            // and a fault line in the merged trace, saying how much of it arrived.
            guard !transport.isGone(node) else {
                await traceMissing("node \(node) is gone: its trace is missing from the merged trace")
                continue
            }
            guard !refusedTraces.contains(node) else { continue }
            let correlation = takeCorrelation()
            let key = Self.replyKey(node, correlation)
            awaitedReplies.insert(key)
            await transport.send(.traceRequest, to: node, correlationID: correlation)
            await collectTrace(of: node, key: key)
            awaitedReplies.remove(key)
            traceTallies[key] = nil
            traceOverruns[key] = nil
            await control.discard(key)
        }
        return TraceMerge.merge([recorder.events] + workers.map { workerEvents[$0] ?? [] })
    }

    /// Takes the parts of `node`'s answer (reply key `key`) until the one marked last, or until
    /// a bound of `options.traceLimit` is passed, a part does not come, or one cannot be read.
    private func collectTrace(of node: String, key: String) async {
        var more = true
        var taken = 0
        let deadline = ContinuousClock.now.advanced(by: options.traceLimit.time)
        while more {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                await refuseRestOfTrace(of: node, "took more than \(options.traceLimit.time) to answer one TRACE-REQUEST, the most the conductor waits")
                break
            }
            guard let reply = await control.wait(for: key, timeout: min(.seconds(10), left)),
                  TraceDataCodec.messageBytes(of: reply.body) != nil else {
                let received = workerEvents[node]?.count ?? 0
                if ContinuousClock.now < deadline {
                    await traceMissing("node \(node) did not send its trace: the merged trace has \(received) of its events, and lacks the rest")
                    break
                }
                continue  // the whole answer's time is up: said above
            }
            // Counted as it arrived: the part that went past the limit is not taken, and
            // whatever followed it was dropped (no longer awaited).
            taken += 1
            if let overrun = traceOverruns[key], overrun.part == taken {
                await refuseRestOfTrace(of: node, "sent \(overrun.exceeded) in answer to one TRACE-REQUEST, the most the conductor takes")
                break
            }
            guard let part = TraceDataCodec.read(reply.body, from: node, runID: scenario.name) else { break }
            more = !part.last
            workerEvents[node, default: []].append(contentsOf: part.events)
            traceData.add(part)
            for fault in part.faults {
                await host.noteFault(fault)
            }
        }
    }

    /// `node`'s answer went past a bound of `options.traceLimit` (`why`): the rest is refused, the
    /// worker not asked again, and the fault says how much of its trace the merge has.
    private func refuseRestOfTrace(of node: String, _ why: String) async {
        refusedTraces.insert(node)
        let received = workerEvents[node]?.count ?? 0
        await traceMissing("node \(node) \(why) (TWP/1 §9.7): the rest was refused; the merged trace has \(received) of its events, and lacks the rest")
    }

    /// A worker's trace that did not arrive (in full): a fault of the run, and a fault line of
    /// the conductor's in the merged trace.
    private func traceMissing(_ text: String) async {
        // The trace is collected at each `expect` step and at the end: each loss is said once.
        guard reportedLosses.insert(text).inserted else { return }
        await host.noteFault(text)
        recorder.record(.fault(text), controller: ControllerIDs.node(placement.conductor), cause: nil)
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
            if let size = TraceDataCodec.messageBytes(of: message.body),
               let exceeded = traceTallies[key, default: TraceDataLimit.Tally()].add(messageBytes: size, within: options.traceLimit) {
                // This part goes past a bound: it is handed over only to say so, and nothing
                // after it is kept.
                traceOverruns[key] = (traceTallies[key]?.parts ?? 0, exceeded)
                awaitedReplies.remove(key)
            }
            await control.deliver(message, for: key)
        case .goodbye:
            await transport.answer(.goodbyeAck, to: peer, correlationID: message.header.correlationID)
        case .setup, .call, .return, .heartbeat, .traceRequest:
            break
        }
    }

    /// Says goodbye to every node, waits for the acknowledgements and the processes, kills what
    /// is left, closes the sockets and removes the run's folder. Safe to call twice.
    ///
    /// Every goodbye goes out first, then every wait runs against one deadline
    /// (`goodbyeTimeout`): nodes that do not answer cost the shutdown that deadline once, not
    /// once each.
    package func shutdown() async {
        guard !shutDown else { return }
        shutDown = true
        let deadline = ContinuousClock.now.advanced(by: options.goodbyeTimeout)
        // Every node that greeted — set up or not, a stranger too — is told goodbye, so that
        // none outlives the run (TWP/1 §9.8).
        var acknowledgements: [(node: String, key: String)] = []
        for node in workers.filter(greeted.contains) + strangers.keys.sorted() {
            if transport.isGone(node) { continue }
            let correlation = takeCorrelation()
            let key = Self.replyKey(node, correlation)
            awaitedReplies.insert(key)
            acknowledgements.append((node, key))
            await transport.send(.goodbye, to: node, correlationID: correlation)
        }
        // One at a time, but each only for what is left of the shared deadline: an answer that
        // comes while another is awaited is kept by the rendezvous until its turn.
        var acknowledged = Set<String>()
        for (node, key) in acknowledgements {
            let left = ContinuousClock.now.duration(to: deadline)
            if left > .zero, await control.wait(for: key, timeout: left) != nil { acknowledged.insert(node) }
            awaitedReplies.remove(key)
        }
        if strangersNotKept > 0 {
            recorder.record(
                .fault("\(strangersNotKept) more nodes the placement does not have greeted the conductor: beyond the first \(Self.strangersKept), they were not greeted back nor told goodbye"),
                controller: ControllerIDs.node(placement.conductor), cause: nil)
        }
        await control.cancelAll()
        await startup.cancelAll()
        await transport.stop()
        // A spawned node that has not greeted yet (the set-up failed first) cannot be told
        // goodbye, and has nothing to lose: it is stopped now rather than at the deadline.
        for (node, process) in children where !greeted.contains(node) && process.isRunning {
            kill(process.processIdentifier, SIGTERM)
        }
        // A node that acknowledged is on its way out: it gets a moment to exit by itself even
        // when its answer came just before the deadline — one moment for all of them.
        let exitDeadline = max(deadline, ContinuousClock.now.advanced(by: Self.exitGrace))
        for (node, process) in children {
            let until = acknowledged.contains(node) ? exitDeadline : deadline
            await Self.waitForExit(process, within: ContinuousClock.now.duration(to: until))
            SpawnedProcesses.shared.remove(process.processIdentifier)
        }
        if let workDirectory {
            try? FileManager.default.removeItem(at: workDirectory)
            SpawnedProcesses.shared.remove(folder: workDirectory)
        }
    }

    /// How long a node that acknowledged its goodbye at least has to exit before it is killed.
    static let exitGrace: Duration = .seconds(1)

    /// Waits for a process to exit, then kills it if it has not — at once when the waiting task
    /// is cancelled (a swallowed cancellation would spin until the deadline).
    static func waitForExit(_ process: Process, within limit: Duration) async {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while process.isRunning, ContinuousClock.now < deadline {
            do {
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                break
            }
        }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// This run from end to end: start, run, shut down — also when something fails. What the
    /// run leaves to read afterwards (`traceData`, `exitStatuses`) stays on the actor.
    package func conduct() async throws(DistributedRunError) -> ScenarioRun {
        do {
            try await start()
            let result = try await run()
            await shutdown()
            return result
        } catch {
            await shutdown()
            throw error
        }
    }

    /// One whole run: start, run, shut down (also when something fails).
    package static func run(_ scenario: Scenario, scenarioText: String, options: DistributedOptions) async throws(DistributedRunError) -> ScenarioRun {
        try await DistributedRun(scenario: scenario, scenarioText: scenarioText, options: options).conduct()
    }
}

/// The nodes this process spawned and the work folders it made (ipc sockets, CURVE secret
/// keys), so that an interrupted conductor takes the nodes down with it and leaves nothing behind.
package final class SpawnedProcesses: Sendable {
    package static let shared = SpawnedProcesses()
    private let ids = Mutex(Set<Int32>())
    private let folders = Mutex(Set<URL>())

    func add(_ id: Int32) { ids.withLock { _ = $0.insert(id) } }
    func remove(_ id: Int32) { ids.withLock { _ = $0.remove(id) } }
    func add(folder: URL) { folders.withLock { _ = $0.insert(folder) } }
    func remove(folder: URL) { folders.withLock { _ = $0.remove(folder) } }

    /// Sends SIGKILL to every node still running and removes every work folder (from a signal
    /// handler's queue).
    package func killAll() {
        for id in ids.withLock({ $0 }) { kill(id, SIGKILL) }
        for folder in folders.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }
}

import Synchronization
