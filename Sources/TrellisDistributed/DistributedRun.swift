import TrellisTransport
import Foundation
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace
import TrellisWire
import ZeroMQ

/// How a distributed run is laid out.
public struct DistributedOptions: Sendable {
    /// The kind of endpoint spawned nodes listen on.
    public enum EndpointKind: String, Sendable, CaseIterable {
        case ipc, tcp
    }

    public var endpointKind: EndpointKind = .ipc
    /// The `trellis` executable that spawned nodes run (`trellis node …`).
    public var nodeExecutable: String
    /// Nodes started by hand (`trellis node`), by name: where they listen. They must greet this
    /// conductor (`--peer <conductor>=<endpoint>`); the others are spawned on this machine.
    public var startedNodes: [String: String] = [:]
    /// Where the conductor listens; nil: a fresh ipc path, or loopback tcp with a free port.
    public var conductorEndpoint: String?
    public var heartbeatIntervalMilliseconds = 250
    public var peerTimeoutMilliseconds = 2_000
    /// How long nodes have to greet and to set up before the run fails.
    public var startupTimeout: Duration = .seconds(30)
    /// CURVE for the conductor; with `secureSpawnedNodes`, generated for it when nil.
    public var curve: CurveConfiguration?
    /// Run every spawned node with a fresh CURVE key pair, each allowing exactly the run's
    /// other nodes; nodes started by hand must then bring their keys (`startedNodeKeys`).
    public var secureSpawnedNodes = false
    /// The public keys of nodes started by hand, by name (with CURVE).
    public var startedNodeKeys: [String: String] = [:]

    public init(nodeExecutable: String) {
        self.nodeExecutable = nodeExecutable
    }
}

/// Why a distributed run failed.
public enum DistributedRunError: Error, Sendable, CustomStringConvertible {
    case setup(String)
    case run(ScenarioRunError)
    /// The run went through, but messages were lost to faults (a node gone, undeliverable calls).
    case faults([String], ScenarioRun)

    public var description: String {
        switch self {
        case let .setup(text): return "distributed run could not start: \(text)"
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
public actor DistributedRun {
    let scenario: Scenario
    let scenarioText: String
    let options: DistributedOptions
    let placement: Placement
    /// The losses of worker traces already reported (`traceMissing`).
    private var reportedLosses = Set<String>()
    let recorder: TraceRecorder
    let transport: NodeTransport
    let host: NodeHost
    private let control = Rendezvous<WireMessage>()
    private var children: [String: Process] = [:]
    private var workDirectory: URL?
    private var workerEvents: [String: [TraceEvent]] = [:]
    private var nextCorrelation: UInt64 = 1 << 32
    private var shutDown = false
    /// Every node's CURVE public key, when the run uses CURVE.
    private var publicKeys: [String: String] = [:]
    /// Workers that greeted the conductor: only they are told goodbye.
    private var greeted = Set<String>()
    /// What `stopsAfter` said when the run stopped because a node was lost.
    private var stopSummary: String?
    /// Where each node listens, once started (for tests and diagnostics).
    public private(set) var endpoints: [String: String] = [:]

    public init(scenario: Scenario, scenarioText: String, options: DistributedOptions) {
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
    public var workers: [String] { Array(placement.nodes.dropFirst()) }

    /// The process ids of the spawned nodes, by name (for tests that kill one).
    public var processIDs: [String: Int32] { children.mapValues(\.processIdentifier) }

    /// Starts and sets up every node. After it returns, `run()` may be called.
    public func start() async throws(DistributedRunError) {
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
            options.endpointKind == .ipc ? "ipc://\(directory.path)/\(node).sock" : "tcp://127.0.0.1:*"
        }
        // CURVE: a key pair per spawned node, each allowing every other node of the run.
        var nodeKeys: [String: (publicKey: String, secretKey: String)] = [:]
        var conductorCurve = options.curve
        if options.secureSpawnedNodes {
            do {
                if conductorCurve == nil {
                    let pair = try ZMQContext.curveKeyPair()
                    conductorCurve = CurveConfiguration(publicKey: pair.publicKey, secretKey: pair.secretKey, allowedPeerKeys: [])
                }
                for node in workers where options.startedNodes[node] == nil {
                    nodeKeys[node] = try ZMQContext.curveKeyPair()
                }
            } catch {
                throw .setup("cannot make CURVE keys: \(error)")
            }
            let workerKeys = Set(nodeKeys.values.map(\.publicKey)).union(options.startedNodeKeys.values)
            conductorCurve?.allowedPeerKeys.formUnion(workerKeys)
        }
        publicKeys = options.startedNodeKeys.merging(nodeKeys.mapValues(\.publicKey)) { first, _ in first }
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
            throw .setup("the conductor cannot listen: \(error)")
        }
        endpoints[placement.conductor] = conductorEndpoint
        let run = self
        let host = self.host
        await transport.setHandlers(
            call: { message, _ in await host.handle(message) },
            placement: NodeHost.placement(for:),
            control: { message, peer in await run.control(message, from: peer) },
            peerGone: { peer, reason in await host.noteFault("node \(peer) is gone: \(reason)") })

        // Spawn the nodes not started by hand; each greets the conductor.
        for node in workers where options.startedNodes[node] == nil {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: options.nodeExecutable)
            process.arguments = ["node", "--name", node, "--bind", endpoint(for: node),
                                 "--peer", "\(placement.conductor)=\(conductorEndpoint)", "--conductor", placement.conductor,
                                 "--setup-timeout", "60"]
            if let keys = nodeKeys[node], let conductorKey = conductorCurve?.publicKey {
                let secretFile = directory.appendingPathComponent("\(node).secret")
                let allowFile = directory.appendingPathComponent("\(node).allow")
                let allowed = [conductorKey] + nodeKeys.filter { $0.key != node }.map(\.value.publicKey) + options.startedNodeKeys.values
                do {
                    try CurveKeyFiles.writeSecret(keys.secretKey, to: secretFile)
                    try allowed.joined(separator: "\n").write(to: allowFile, atomically: true, encoding: .utf8)
                } catch {
                    throw .setup("cannot write the CURVE keys of node \(node): \(error)")
                }
                process.arguments? += ["--curve-secret-key", secretFile.path, "--curve-allow", allowFile.path,
                                       "--peer-key", "\(placement.conductor)=\(conductorKey)"]
            }
            // A node that exits before greeting ends the wait for its HELLO at once.
            let rendezvous = control
            process.terminationHandler = { ended in
                let status = ended.terminationStatus
                Task { await rendezvous.deliver(WireMessage(.error(code: WireErrorCode.setupFailed.rawValue, text: "node \(node) exited with status \(status)")), for: "hello:\(node)") }
            }
            do {
                try process.run()
            } catch {
                throw .setup("cannot start node \(node) (\(options.nodeExecutable)): \(error)")
            }
            children[node] = process
            SpawnedProcesses.shared.add(process.processIdentifier)
        }
        // Every worker greets; the conductor learns where it listens.
        var peers = [WirePeer(node: placement.conductor, endpoint: conductorEndpoint, publicKey: publicKeys[placement.conductor] ?? "")]
        for node in workers {
            let greeting = await control.wait(for: "hello:\(node)", timeout: options.startupTimeout)
            if let greeting, case let .error(_, text) = greeting.body { throw .setup(text) }
            guard let greeting, case let .hello(_, _, _, announced) = greeting.body else {
                throw .setup("node \(node) did not greet the conductor within \(options.startupTimeout)")
            }
            let endpoint = options.startedNodes[node] ?? (announced.isEmpty ? endpointHint(node, directory) : announced)
            peers.append(WirePeer(node: node, endpoint: endpoint, publicKey: publicKeys[node] ?? ""))
            endpoints[node] = endpoint
            greeted.insert(node)
            await transport.connect(peer: node, endpoint: endpoint, serverKey: publicKeys[node])
            await transport.send(.hello(node: placement.conductor, runID: scenario.name, capabilities: 0), to: node)
        }
        for node in workers {
            let correlation = takeCorrelation()
            if let refused = await transport.send(
                .setup(runID: scenario.name, node: node, scenarioJSON: scenarioText,
                       heartbeatIntervalMilliseconds: UInt32(options.heartbeatIntervalMilliseconds),
                       peerGoneTimeoutMilliseconds: UInt32(options.peerTimeoutMilliseconds), peers: peers),
                to: node, correlationID: correlation) {
                throw .setup("cannot send SETUP to node \(node): \(refused)")
            }
            guard let reply = await control.wait(for: "reply:\(correlation)", timeout: options.startupTimeout) else {
                throw .setup("node \(node) did not get ready within \(options.startupTimeout)")
            }
            if case let .error(_, text) = reply.body { throw .setup(text) }
        }
    }

    private func endpointHint(_ node: String, _ directory: URL) -> String {
        "ipc://\(directory.path)/\(node).sock"
    }

    private func takeCorrelation() -> UInt64 {
        defer { nextCorrelation += 1 }
        return nextCorrelation
    }

    /// Runs the steps; the trace is the merge of every node's events.
    public func run() async throws(DistributedRunError) -> ScenarioRun {
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
    public func mergedEvents() async -> [TraceEvent] {
        for node in workers {
            // Nothing is lost silently: a node that cannot send its trace is a fault of the run
            // and a fault line in the merged trace, saying how much of it arrived.
            guard !transport.isGone(node) else {
                await traceMissing("node \(node) is gone: its trace is missing from the merged trace")
                continue
            }
            let correlation = takeCorrelation()
            await transport.send(.traceRequest, to: node, correlationID: correlation)
            var more = true
            while more {
                guard let reply = await control.wait(for: "reply:\(correlation)", timeout: .seconds(10)),
                      case let .traceData(last, lines) = reply.body else {
                    let received = workerEvents[node]?.count ?? 0
                    await traceMissing("node \(node) did not send its trace: the merged trace has \(received) of its events, and lacks the rest")
                    break
                }
                more = !last
                var events: [TraceEvent] = []
                var unreadable = 0
                var otherRuns = Set<String>()
                TraceCaptureFormat.readLines(lines) { _, read in
                    switch read {
                    case let .success((event, runID)):
                        events.append(event)
                        if runID != scenario.name { otherRuns.insert(runID) }
                    case .failure: unreadable += 1
                    }
                }
                workerEvents[node, default: []].append(contentsOf: events)
                for _ in 0..<unreadable {
                    await host.noteFault("node \(node) sent an unreadable trace line")
                }
                // TWP §7.2: SETUP's run id is the run of every trace line a worker sends.
                for other in otherRuns.sorted() {
                    await host.noteFault("node \(node) sent trace lines of run \"\(other)\", not \"\(scenario.name)\"")
                }
            }
        }
        return TraceMerge.merge([recorder.events] + workers.map { workerEvents[$0] ?? [] })
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
                await transport.send(
                    .error(code: WireErrorCode.unexpectedCommand.rawValue, text: "HELLO names \(node) but came from \(peer): refused"),
                    to: peer, correlationID: message.header.correlationID)
                return
            }
            await control.deliver(message, for: "hello:\(peer)")
        case .ready, .traceData, .goodbyeAck, .error:
            await control.deliver(message, for: "reply:\(message.header.correlationID)")
        case .goodbye:
            await transport.send(.goodbyeAck, to: peer, correlationID: message.header.correlationID)
        case .setup, .call, .return, .heartbeat, .traceRequest:
            break
        }
    }

    /// Says goodbye to every node, waits (bounded) for the acknowledgements and the processes,
    /// kills what is left, closes the sockets and removes the run's folder. Safe to call twice.
    public func shutdown() async {
        guard !shutDown else { return }
        shutDown = true
        for node in workers where greeted.contains(node) {
            if transport.isGone(node) { continue }
            let correlation = takeCorrelation()
            await transport.send(.goodbye, to: node, correlationID: correlation)
            _ = await control.wait(for: "reply:\(correlation)", timeout: .seconds(5))
        }
        await control.cancelAll()
        await transport.stop()
        for (_, process) in children {
            await Self.waitForExit(process, within: .seconds(5))
            SpawnedProcesses.shared.remove(process.processIdentifier)
        }
        if let workDirectory {
            try? FileManager.default.removeItem(at: workDirectory)
            SpawnedProcesses.shared.remove(folder: workDirectory)
        }
    }

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

    /// One whole run: start, run, shut down (also when something fails).
    public static func run(_ scenario: Scenario, scenarioText: String, options: DistributedOptions) async throws(DistributedRunError) -> ScenarioRun {
        let run = DistributedRun(scenario: scenario, scenarioText: scenarioText, options: options)
        do {
            try await run.start()
            let result = try await run.run()
            await run.shutdown()
            return result
        } catch {
            await run.shutdown()
            throw error
        }
    }
}

/// The nodes this process spawned and the work folders it made (ipc sockets, CURVE secret
/// keys), so that an interrupted conductor takes the nodes down with it and leaves nothing behind.
public final class SpawnedProcesses: Sendable {
    public static let shared = SpawnedProcesses()
    private let ids = Mutex(Set<Int32>())
    private let folders = Mutex(Set<URL>())

    func add(_ id: Int32) { ids.withLock { _ = $0.insert(id) } }
    func remove(_ id: Int32) { ids.withLock { _ = $0.remove(id) } }
    func add(folder: URL) { folders.withLock { _ = $0.insert(folder) } }
    func remove(folder: URL) { folders.withLock { _ = $0.remove(folder) } }

    /// Sends SIGKILL to every node still running and removes every work folder (from a signal
    /// handler's queue).
    public func killAll() {
        for id in ids.withLock({ $0 }) { kill(id, SIGKILL) }
        for folder in folders.withLock({ $0 }) { try? FileManager.default.removeItem(at: folder) }
    }
}

import Synchronization
