import Foundation
import Synchronization

/// What one conductor's run started and made — its node processes and its work folder (ipc
/// sockets, CURVE secret keys) — so that an interrupted conductor (SIGINT, SIGTERM) stops every
/// node it started and leaves nothing behind. One per run (`DistributedRun.spawned`), not one
/// per program: nothing global remembers process ids.
package final class SpawnedNodes: Sendable {
    private struct Contents {
        var processes: [NodeProcess] = []
        var folder: URL?
        var interruptingSignal: Int32?
    }

    private let contents = Mutex(Contents())

    package init() {}

    /// The signal that interrupted the conductor (`interrupted(by:)`), once one has: the run,
    /// which its stopped nodes end meanwhile, must not end the program with a status of its own.
    package var interruptingSignal: Int32? { contents.withLock { $0.interruptingSignal } }

    /// Notes that `signal` interrupted the conductor (the first one counts).
    package func interrupted(by signal: Int32) {
        contents.withLock { $0.interruptingSignal = $0.interruptingSignal ?? signal }
    }

    /// Keeps `process` to stop with the others; one started after an interruption (the run's
    /// set-up went on meanwhile) is stopped at once: `stopAll` may have looked already.
    func add(_ process: NodeProcess) {
        let late = contents.withLock { contents -> Bool in
            contents.processes.append(process)
            return contents.interruptingSignal != nil
        }
        if late { process.stop() }
    }

    /// How many node processes the run started so far (an interrupted run says it stopped
    /// them only when it started any).
    package var count: Int { contents.withLock { $0.processes.count } }
    func set(folder: URL?) { contents.withLock { $0.folder = folder } }

    /// Stops every node still running — SIGTERM, then SIGKILL after `NodeProcess.stopGrace` —
    /// waits until each has exited, and removes the work folder. Safe to call while the run goes
    /// on: the run then finds its nodes gone.
    package func stopAll() async {
        let (processes, folder) = contents.withLock { ($0.processes, $0.folder) }
        await withTaskGroup(of: Void.self) { group in
            for process in processes where process.isRunning {
                group.addTask { await process.waitForExit(within: .zero) }
            }
        }
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }
}
