import Foundation
import Synchronization

/// Where this package lives on disk, found from this file's path (Tests/Support/<file>).
public let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What one run of a child process did.
public struct ProcessOutcome: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// The process was still running at the deadline and was killed.
    public var timedOut: Bool

    public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Kills a process from the watchdog task. Holds only the process id behind a lock, so it is
/// Sendable without `@unchecked`.
final class ProcessKiller: Sendable {
    private let state = Mutex<(pid: Int32?, exited: Bool, killed: Bool, due: Bool)>((nil, false, false, false))

    /// Records the pid, and kills at once when the deadline passed while `run()` was still
    /// launching (on a loaded machine a launch took longer than a 200 ms bound, and the
    /// watchdog, finding no pid, left the process running unbounded).
    func started(_ pid: Int32) {
        state.withLock { state in
            state.pid = pid
            if state.due { Self.kill(&state) }
        }
    }
    func exited() { state.withLock { $0.exited = true } }

    func kill() { state.withLock { Self.kill(&$0) } }

    private static func kill(_ state: inout (pid: Int32?, exited: Bool, killed: Bool, due: Bool)) {
        state.due = true
        guard let pid = state.pid, !state.exited else { return }
        state.killed = true
        _ = Foundation.kill(pid, SIGKILL)
    }

    var wasKilled: Bool { state.withLock { $0.killed } }
}

/// A scratch directory for one test's files.
public func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Runs `executable` from the package root with standard input empty and waits for it to exit,
/// killing it once `timeout` has passed: every test's wait on a child process is bounded. Returns
/// nil when the process could not be launched.
public func runBounded(_ executable: URL, _ arguments: [String], timeout: Duration) async throws -> ProcessOutcome? {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    let killer = ProcessKiller()
    // Cancelled as soon as the process has exited. On a Dispatch queue, not the cooperative pool:
    // tests that keep the pool's threads busy (a long synchronous test on each of two cores)
    // delayed a `Task.sleep` watchdog by a minute on a loaded machine.
    let watchdog = DispatchWorkItem { killer.kill() }
    let (seconds, attoseconds) = timeout.components
    let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: watchdog)
    let status: Int32? = await withCheckedContinuation { continuation in
        process.terminationHandler = { finished in
            killer.exited()
            continuation.resume(returning: finished.terminationStatus)
        }
        do {
            try process.run()
            killer.started(process.processIdentifier)
        } catch {
            process.terminationHandler = nil
            continuation.resume(returning: nil)
        }
    }
    watchdog.cancel()
    try outHandle.close()
    try errHandle.close()
    guard let status else { return nil }
    return ProcessOutcome(
        status: status,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
        timedOut: killer.wasKilled)
}

/// The built `trellis` executable: next to the running test bundle (SwiftPM puts every product
/// of a build in one directory), else in the package's usual build directories.
public enum TrellisBinary {
    public static let url: URL? = locate()
    /// The test runner (`Tests/TestRunner`): the command line with the tests' Swift behaviours
    /// registered, as a user's runner (SPEC §4.1).
    public static let testRunnerURL: URL? = locate("trellis-test-runner", override: "TRELLIS_TEST_RUNNER")

    static func locate(_ name: String = "trellis", override variable: String = "TRELLIS_BINARY") -> URL? {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment[variable], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        var executables: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executables.append(URL(fileURLWithPath: exe))
        }
        if let first = CommandLine.arguments.first { executables.append(URL(fileURLWithPath: first)) }
        for executable in executables {
            var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent(name))
                directory = directory.deletingLastPathComponent()
            }
        }
        for buildDirectory in [".build-tests", ".build"] {
            candidates.append(packageRoot.appendingPathComponent(buildDirectory).appendingPathComponent("debug/\(name)"))
        }
        return candidates.first { candidate in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && FileManager.default.isExecutableFile(atPath: candidate.path)
        }
    }

    public static let missingMessage =
        "the trellis executable was not found next to the test bundle nor in .build-tests/debug or .build/debug; build it with `swift build --build-tests` (or set TRELLIS_BINARY)"
}

/// Starts `process` (its arguments and outputs set), sends it `signal` once `ready` holds of its
/// process id —
/// looked at every 20 ms, for at most `readyWithin`; signalled then all the same, and the test
/// fails on what it reads — and returns its exit status, nil when it could not start. A process
/// still there 90 s after the signal is killed (a hang guard; the status then says so). The
/// watcher is a thread of its own: on a loaded machine a watcher on the cooperative pool was
/// delayed past the process's own deadlines.
public func runSignalled(
    _ process: Process, signal: Int32, readyWithin: TimeInterval = 60, when ready: @escaping @Sendable (Int32) -> Bool
) async -> Int32? {
    await withCheckedContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(returning: nil)
            return
        }
        let pid = process.processIdentifier
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(readyWithin)
            while Date() < deadline, !ready(pid) { usleep(20_000) }
            kill(pid, signal)
            let hangGuard = Date().addingTimeInterval(90)
            while Date() < hangGuard, kill(pid, 0) == 0 { usleep(100_000) }
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }
}
