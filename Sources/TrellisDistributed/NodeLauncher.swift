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
enum LaunchedNode: Sendable {
    case process(NodeProcess)
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
        case let .process(process): return process.exitStatus
        case let .inProcess(node): return node.exitStatus
        }
    }

    /// Asks it to stop now (it was never greeted, so no goodbye can reach it): a process gets
    /// SIGTERM, then SIGKILL if it has not exited within `NodeProcess.stopGrace`.
    func terminate() {
        switch self {
        case let .process(process): process.stop()
        case let .inProcess(node): node.terminate()
        }
    }

    /// Waits for it to exit within `limit`, then stops it (a process: SIGTERM, then SIGKILL).
    func waitForExit(within limit: Duration) async {
        switch self {
        case let .process(process): await process.waitForExit(within: limit)
        case let .inProcess(node): await node.waitForExit(within: limit)
        }
    }
}

extension NodeLauncher {
    /// Starts the worker `launch` describes; `exited` says why, once it has exited by itself
    /// (a worker that exits before the run is set up ends the set-up at once).
    func launch(
        _ launch: NodeLaunch, options: DistributedOptions, spawned: SpawnedNodes, exited: @escaping @Sendable (_ why: String) async -> Void
    ) async throws(DistributedRunError) -> LaunchedNode {
        switch self {
        case .processes:
            return try await Self.launchProcess(launch, executable: options.nodeExecutable, spawned: spawned, exited: exited)
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

    /// `trellis node` for `launch`, added to its run's `spawned`, so that an interrupted
    /// conductor stops it.
    private static func launchProcess(
        _ launch: NodeLaunch, executable: String, spawned: SpawnedNodes, exited: @escaping @Sendable (_ why: String) async -> Void
    ) async throws(DistributedRunError) -> LaunchedNode {
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
        let process: NodeProcess
        do {
            process = try await NodeProcess.start(executable: executable, arguments: arguments, ended: exited)
        } catch {
            throw .setup("cannot start node \(launch.node) (\(executable)): \(error)")
        }
        spawned.add(process)
        return .process(process)
    }
}
