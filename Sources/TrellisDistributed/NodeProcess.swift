import Foundation
import Subprocess
import Synchronization

/// A `trellis node` process the conductor started, supervised with swift-subprocess: the kernel
/// says when it ends (a pidfd on Linux), nothing polls it, and it is stopped the well-kept way —
/// SIGTERM, which a node answers with a goodbye, then SIGKILL if it has not exited within
/// `stopGrace`. Nothing global remembers it: its run holds it (`SpawnedNodes`), and an
/// interrupted conductor stops it through that run.
final class NodeProcess: Sendable {
    /// How long a node asked to stop (SIGTERM) has to say goodbye and exit before SIGKILL. A
    /// node bounds its own goodbye below this (`WorkerNode.goodbyeGrace`).
    static let stopGrace: Duration = .seconds(1)

    /// The operating system's id of the process (for messages and tests; it is never signalled
    /// by this id: swift-subprocess signals through the pidfd, which cannot name a reused id).
    let processIdentifier: Int32
    /// The task that spawned the process and waits for its end; cancelling it runs the teardown
    /// (SIGTERM, `stopGrace`, SIGKILL). It ends once the process has exited and been reaped.
    private let supervision: Task<Void, Never>
    private let outcome: Outcome

    /// How the process ended, once it has: set by the supervising task before it ends.
    private final class Outcome: Sendable {
        let status = Mutex<TerminationStatus?>(nil)
    }

    private init(processIdentifier: Int32, supervision: Task<Void, Never>, outcome: Outcome) {
        self.processIdentifier = processIdentifier
        self.supervision = supervision
        self.outcome = outcome
    }

    /// Spawns `executable` with `arguments`, its standard output and error this process's own.
    /// `ended` hears how it ended (`description(of:)`), once it has, whoever ended it. Throws
    /// what swift-subprocess says when it cannot be spawned.
    static func start(
        executable: String, arguments: [String], ended: @escaping @Sendable (_ why: String) async -> Void
    ) async throws -> NodeProcess {
        var platform = PlatformOptions()
        platform.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: stopGrace)]
        let configuration = Configuration(
            executable: .path(.init(executable)), arguments: Arguments(arguments), platformOptions: platform)
        let outcome = Outcome()
        let (spawned, spawnedSink) = AsyncStream.makeStream(of: Result<Int32, any Error>.self)
        let supervision = Task {
            var started = false
            do {
                let result = try await Subprocess.run(
                    configuration, input: .none, output: .currentStandardOutput, error: .currentStandardError
                ) { execution in
                    started = true
                    spawnedSink.yield(.success(execution.processIdentifier.value))
                    spawnedSink.finish()
                }
                outcome.status.withLock { $0 = result.terminationStatus }
                await ended(description(of: result.terminationStatus))
            } catch {
                // Before the spawn: it never ran. After it: swift-subprocess could not watch it
                // (its teardown has killed it), which is an end too.
                if !started {
                    spawnedSink.yield(.failure(error))
                    spawnedSink.finish()
                } else {
                    outcome.status.withLock { $0 = .signaled(SIGKILL) }
                    await ended("could not be watched (\(error)) and was killed")
                }
            }
        }
        var iterator = spawned.makeAsyncIterator()
        switch await iterator.next() {
        case let .success(id)?:
            return NodeProcess(processIdentifier: id, supervision: supervision, outcome: outcome)
        case let .failure(error)?:
            throw error
        case nil:
            // The stream ends only after one of the two above was yielded.
            throw CancellationError()
        }
    }

    /// Whether it has not ended yet.
    var isRunning: Bool { outcome.status.withLock { $0 == nil } }

    /// The status it exited with by itself (not ended by a signal), once it has.
    var exitStatus: Int32? {
        switch outcome.status.withLock({ $0 }) {
        case let .exited(code)?: return code
        case .signaled?, nil: return nil
        }
    }

    /// Stops it now: SIGTERM (a node says goodbye), then SIGKILL after `stopGrace`. Returns at
    /// once; `waitForExit` waits for it.
    func stop() {
        supervision.cancel()
    }

    /// Waits until it has exited, at most `limit`; if it has not by then, stops it (SIGTERM,
    /// then SIGKILL) and waits for that. A waiting task that is cancelled stops it at once.
    func waitForExit(within limit: Duration) async {
        // The deadline stops it; its end (awaited below) cancels the deadline. A task group
        // would not do: it waits for every child, and the one awaiting the end would hold the
        // group until the process exits by itself.
        let deadline = Task {
            do { try await Task.sleep(for: limit) } catch { return }
            self.stop()
        }
        let supervision = self.supervision
        await withTaskCancellationHandler {
            await supervision.value
        } onCancel: {
            self.stop()
        }
        deadline.cancel()
    }

    /// How a process ended, in the words the conductor's messages use ("node b …").
    static func description(of status: TerminationStatus) -> String {
        switch status {
        case let .exited(code): return "exited with status \(code)"
        case let .signaled(signal): return "was killed by signal \(signal)"
        }
    }
}
