import Foundation
import Synchronization

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
