import Foundation
import TrellisRuntime
import TrellisTransport

/// How the conductor starts the workers that were not started by hand: the one place a new kind
/// of node (in-process, over a loopback link) plugs in. Each case says how its nodes are started
/// (`launch`), stopped and waited for (`LaunchedNode`); a new case does not compile until every
/// one of those has decided.
package enum NodeLauncher: Sendable {
    /// Each worker is a `trellis node` process on this machine, running
    /// `DistributedOptions.nodeExecutable` (SPEC §7).
    case processes
    /// Each worker is a `WorkerNode` in this process, and every node of the run, the conductor
    /// too, talks over `network` (`LoopbackLink`): no socket, thread or process, each message
    /// still encoded and decoded. For the tests that compare placements and traces; CURVE,
    /// heartbeats and silence, and a killed node are ZeroMQ's, tested with `.processes`.
    case inProcess(LoopbackNetwork)
}

/// What the conductor tells a worker it starts: its name, where to listen, and whom to greet.
struct NodeLaunch: Sendable {
    /// How a launched node holds its CURVE keys, when the run uses CURVE.
    enum Keys: Sendable {
        /// The key folder made beforehand (`trellis keys make`): its own secret key and every
        /// node's public key are there.
        case folder(CurveKeyFolder)
        /// Keys made for this run: its secret key file, its NAME=KEY allow file, and the
        /// conductor's public key.
        case files(secretKey: URL, allow: URL, conductorKey: String)
    }

    var node: String
    var bindEndpoint: String
    var conductor: String
    var conductorEndpoint: String
    var keys: Keys?
    /// The Swift behaviours the conductor's program registers (SPEC §4.1): an in-process node
    /// is built with them; a process runs the conductor's own executable, which has the same.
    var registry: BehaviorRegistry
}

/// A worker the conductor launched, until it has exited.
enum LaunchedNode {
    case process(Process)
    case inProcess(InProcessNode)

    /// The operating system's id of the node's process, if it has one.
    var processIdentifier: Int32? {
        switch self {
        case let .process(process): return process.processIdentifier
        case .inProcess: return nil
        }
    }

    var isRunning: Bool {
        switch self {
        case let .process(process): return process.isRunning
        case let .inProcess(node): return node.isRunning
        }
    }

    /// The status it exited with by itself (not killed by a signal), once it has.
    var exitStatus: Int32? {
        switch self {
        case let .process(process):
            return !process.isRunning && process.terminationReason == .exit ? process.terminationStatus : nil
        case let .inProcess(node): return node.exitStatus
        }
    }

    /// Asks it to stop now (it was never greeted, so no goodbye can reach it).
    func terminate() {
        switch self {
        case let .process(process): kill(process.processIdentifier, SIGTERM)
        case let .inProcess(node): node.terminate()
        }
    }

    /// Waits for it to exit within `limit`, then kills it; it is no longer the conductor's to
    /// clean up after an interruption (`SpawnedProcesses`).
    func waitForExit(within limit: Duration) async {
        switch self {
        case let .process(process):
            await Self.waitForExit(process, within: limit)
            SpawnedProcesses.shared.remove(process.processIdentifier)
        case let .inProcess(node):
            await node.waitForExit(within: limit)
        }
    }

    /// Waits for a process to exit, then kills it if it has not — at once when the waiting task
    /// is cancelled (a swallowed cancellation would spin until the deadline).
    private static func waitForExit(_ process: Process, within limit: Duration) async {
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
}

extension NodeLauncher {
    /// Starts the worker `launch` describes; `exited` says why, once it has exited by itself
    /// (a worker that exits before the run is set up ends the set-up at once).
    func launch(
        _ launch: NodeLaunch, options: DistributedOptions, exited: @escaping @Sendable (_ why: String) async -> Void
    ) throws(DistributedRunError) -> LaunchedNode {
        switch self {
        case .processes:
            return try Self.launchProcess(launch, executable: options.nodeExecutable, exited: exited)
        case let .inProcess(network):
            // The conductor's own transport refused CURVE already (`startConductor`).
            guard launch.keys == nil else { throw .setup("node \(launch.node): \(LoopbackError.curve)") }
            return .inProcess(InProcessNode.launch(launch, on: network, exited: exited))
        }
    }

    /// Starts the conductor's transport where its workers will reach it: its ROUTER, or its
    /// endpoint on the loopback network. Returns where it listens.
    func startConductor(_ transport: NodeTransport, _ configuration: NodeIOConfiguration) async throws -> String {
        switch self {
        case .processes: return try await transport.start(configuration)
        case let .inProcess(network): return try await transport.start(configuration, on: network)
        }
    }

    /// `trellis node` for `launch`, registered with `SpawnedProcesses` so that an interrupted
    /// conductor takes it down with it.
    private static func launchProcess(
        _ launch: NodeLaunch, executable: String, exited: @escaping @Sendable (_ why: String) async -> Void
    ) throws(DistributedRunError) -> LaunchedNode {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var arguments = ["node", "--name", launch.node, "--bind", launch.bindEndpoint,
                         "--peer", "\(launch.conductor)=\(launch.conductorEndpoint)", "--conductor", launch.conductor,
                         "--setup-timeout", "60"]
        switch launch.keys {
        case let .folder(folder)?:
            arguments += ["--keys", folder.path]
        case let .files(secretKey, allow, conductorKey)?:
            arguments += ["--curve-secret-key", secretKey.path, "--curve-allow", allow.path,
                          "--peer-key", "\(launch.conductor)=\(conductorKey)"]
        case nil:
            break
        }
        process.arguments = arguments
        process.terminationHandler = { ended in
            let status = ended.terminationStatus
            Task { await exited("exited with status \(status)") }
        }
        do {
            try process.run()
        } catch {
            throw .setup("cannot start node \(launch.node) (\(executable)): \(error)")
        }
        SpawnedProcesses.shared.add(process.processIdentifier)
        return .process(process)
    }
}
