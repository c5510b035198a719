import Synchronization
import TrellisTransport

/// A worker of an in-process run (`NodeLauncher.inProcess`): a `WorkerNode` on a task of its
/// own, bound on the run's loopback network, with what the conductor reads of a process — whether
/// it runs, the status it ended with — and the means to end it, as a signal ends a process.
final class InProcessNode: Sendable {
    /// What `run` returns when the conductor ended the node (`end`): no process status is
    /// negative, so it reads as one killed by a signal (`exitStatus` nil).
    static let endedCode: Int32 = -9

    private struct State {
        var task: Task<Void, Never>?
        /// What the node's `run` returned, once it has.
        var code: Int32?
    }

    let worker: WorkerNode
    private let state = Mutex(State())

    private init(worker: WorkerNode) {
        self.worker = worker
    }

    /// Starts the worker `launch` describes, on `network`; `exited` says why once it has ended
    /// (a worker that ends before the run is set up ends the set-up at once, as a process would).
    static func launch(
        _ launch: NodeLaunch, on network: LoopbackNetwork, exited: @escaping @Sendable (_ why: String) async -> Void
    ) -> InProcessNode {
        let node = InProcessNode(worker: WorkerNode(name: launch.node, registry: launch.registry))
        let task = Task {
            let code = await node.worker.run(
                bind: launch.bindEndpoint, peers: [(launch.conductor, launch.conductorEndpoint, nil)], curve: nil,
                conductor: launch.conductor, network: network)
            node.state.withLock { $0.code = code }
            await exited(code == endedCode ? "was ended by the conductor" : "exited with status \(code)")
        }
        node.state.withLock { $0.task = task }
        return node
    }

    var isRunning: Bool { state.withLock { $0.code == nil } }

    /// The status its `run` returned, once it has, unless the conductor ended it.
    var exitStatus: Int32? {
        state.withLock { $0.code.flatMap { $0 == Self.endedCode ? nil : $0 } }
    }

    /// Ends it soon (it was never greeted, so no goodbye can reach it).
    func terminate() {
        let worker = worker
        Task { await worker.end(code: Self.endedCode) }
    }

    /// Waits for it to end within `limit`, then ends it and waits for that — at once when the
    /// waiting task is cancelled. Ending takes no time a process's exit would: its transport
    /// stops, and nothing else runs.
    func waitForExit(within limit: Duration) async {
        guard let task = state.withLock({ $0.task }) else { return }
        let worker = worker
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await task.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            if await group.next() == false { await worker.end(code: Self.endedCode) }
            group.cancelAll()
        }
    }
}
