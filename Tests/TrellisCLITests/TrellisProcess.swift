import Foundation
import Testing

/// The package root, found from this file's path: Tests/TrellisCLITests/<this file>.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Finds the built `trellis` executable: next to the running test bundle (SwiftPM puts every
/// product of a build in one directory), else in the package's usual build directories.
enum TrellisBinary {
    static let url: URL? = locate()

    static func locate() -> URL? {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["TRELLIS_BINARY"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        // The running test process: .build*/<triple>/debug/TrellisPackageTests.xctest (Linux) or
        // .../debug/TrellisPackageTests.xctest/Contents/MacOS/TrellisPackageTests (macOS).
        var executables: [URL] = []
        if let exe = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            executables.append(URL(fileURLWithPath: exe))
        }
        if let main = Bundle.main.executableURL { executables.append(main) }
        if let first = CommandLine.arguments.first { executables.append(URL(fileURLWithPath: first)) }
        for executable in executables {
            var directory = executable.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory.appendingPathComponent("trellis"))
                directory = directory.deletingLastPathComponent()
            }
        }
        for buildDirectory in [".build-tests", ".build"] {
            candidates.append(packageRoot.appendingPathComponent(buildDirectory).appendingPathComponent("debug/trellis"))
        }
        return candidates.first { candidate in
            var isDirectory: ObjCBool = false
            return fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && !isDirectory.boolValue
                && fileManager.isExecutableFile(atPath: candidate.path)
        }
    }

    static var missingMessage: Comment {
        "the trellis executable was not found next to the test bundle nor in .build-tests/debug or .build/debug; build it with `swift build --build-tests` (or set TRELLIS_BINARY)"
    }
}

/// What one run of `trellis` did.
struct ProcessOutcome {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool

    var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Owns a running process so that the watchdog may kill it from another task.
private final class RunningProcess: @unchecked Sendable {
    let process: Process
    private let lock = NSLock()
    private var killed = false

    init(_ process: Process) { self.process = process }

    func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        killed = true
        #if canImport(Glibc) || canImport(Darwin)
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        #else
        process.terminate()
        #endif
    }

    var wasKilled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }
}

/// A scratch directory for one test's files.
func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// Runs `trellis` with `arguments` from the package root and waits for it to exit; a run that
/// takes longer than `timeout` is killed and reported as timed out.
func runTrellis(
    _ arguments: [String], timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
) async throws -> ProcessOutcome {
    let binary = try #require(TrellisBinary.url, TrellisBinary.missingMessage, sourceLocation: sourceLocation)
    return try await runProcess(binary, arguments, timeout: timeout, sourceLocation: sourceLocation)
}

/// Runs `binary` with `arguments` from the package root, standard input empty, and waits for it
/// to exit, killing it once `timeout` has passed.
func runProcess(
    _ binary: URL, _ arguments: [String], timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> ProcessOutcome {
    let directory = try scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outURL = directory.appendingPathComponent("stdout")
    let errURL = directory.appendingPathComponent("stderr")
    try Data().write(to: outURL)
    try Data().write(to: errURL)
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)

    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    let running = RunningProcess(process)

    // Bounds the wait: kills the process if it is still running after `timeout`. Cancelled
    // (and so returning at once) as soon as the process has exited.
    let watchdog = Task {
        do {
            try await Task.sleep(for: timeout)
        } catch {
            return
        }
        running.kill()
    }
    let status: Int32? = await withCheckedContinuation { continuation in
        process.terminationHandler = { finished in
            continuation.resume(returning: finished.terminationStatus)
        }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(returning: nil)
        }
    }
    watchdog.cancel()
    try outHandle.close()
    try errHandle.close()
    let launched = try #require(status, "could not launch \(binary.path)", sourceLocation: sourceLocation)
    return ProcessOutcome(
        status: launched,
        stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self),
        timedOut: running.wasKilled)
}
