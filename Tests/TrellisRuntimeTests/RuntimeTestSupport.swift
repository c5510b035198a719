import Synchronization
import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace

extension Window {
    /// Performs `event` and returns the canonical lines it produced.
    func lines(of event: WindowEvent) async throws -> [String] {
        let before = environment.recorder.count
        try await perform(event)
        return environment.recorder.events(after: before).map(\.canonicalLine)
    }
}

/// A thread-safe list of strings that coordinator blocks append to.
final class BlockLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}
