import Foundation
import Testing

/// Debian's Python, which the interoperability check needs (only `struct` and `binascii`).
let systemPython = "/usr/bin/python3"

/// What one run of the Python check did.
struct PythonOutcome: Sendable {
    var status: Int32
    var output: String
    var timedOut: Bool
}

/// Owns the running process so that the watchdog task may kill it.
private final class WatchedProcess: @unchecked Sendable {
    let process: Process
    private let lock = NSLock()
    private var killed = false

    init(_ process: Process) { self.process = process }

    func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        killed = true
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
    }

    var wasKilled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }
}

/// Runs `executable` with `arguments` from the package root, stdout and stderr to one file, and
/// kills it once `timeout` has passed.
func runBounded(_ executable: String, _ arguments: [String], timeout: Duration) async throws -> PythonOutcome {
    let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-wire-\(UUID().uuidString).out")
    try Data().write(to: outputURL)
    defer { try? FileManager.default.removeItem(at: outputURL) }
    let handle = try FileHandle(forWritingTo: outputURL)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = handle
    process.standardError = handle
    let watched = WatchedProcess(process)
    let watchdog = Task {
        do { try await Task.sleep(for: timeout) } catch { return }
        watched.kill()
    }
    let status: Int32? = await withCheckedContinuation { continuation in
        process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(returning: nil)
        }
    }
    watchdog.cancel()
    try handle.close()
    let output = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
    return PythonOutcome(status: status ?? -1, output: status == nil ? "could not launch \(executable)" : output, timedOut: watched.wasKilled)
}

/// A Python client written from the protocol document alone reads and rewrites every golden vector.
@Suite struct PythonInteropTests {
    @Test(
        "Tests/Interop/wire_golden.py re-encodes every golden vector byte for byte",
        .enabled(if: FileManager.default.isExecutableFile(atPath: systemPython),
                 "skipped: \(systemPython) is not installed (apt-get install python3), so the document's Python check cannot run"))
    func pythonReencodesEveryVector() async throws {
        let outcome = try await runBounded(
            systemPython, ["Tests/Interop/wire_golden.py", "Protocols/vectors/wire"], timeout: .seconds(60))
        #expect(!outcome.timedOut, "wire_golden.py did not finish within 60 s")
        #expect(outcome.status == 0, "wire_golden.py failed:\n\(outcome.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: vectorDirectory.path).filter { $0.hasSuffix(".hex") }
        #expect(outcome.output.contains("\(files.count) vectors, 0 failed"), "\(outcome.output)")
    }

    @Test(
        "wire_golden.py notices a vector it cannot reproduce",
        .enabled(if: FileManager.default.isExecutableFile(atPath: systemPython),
                 "skipped: \(systemPython) is not installed (apt-get install python3), so the document's Python check cannot run"))
    func pythonNoticesAMismatch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-wire-vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // HEARTBEAT headers; in the second, reserved byte 7 is 0x01: read, ignored, written back as 0x00.
        let good = "5452" + "01" + "00" + "20" + "00" + "0000" + "0000000000000000" + "0000000000000015" + "00000001" + "00000000"
        let reserved = "5452" + "01" + "00" + "20" + "00" + "0001" + "0000000000000000" + "0000000000000015" + "00000001" + "00000000"
        try (good + "\n\n").write(to: directory.appendingPathComponent("a-good.hex"), atomically: true, encoding: .utf8)
        try (reserved + "\n\n").write(to: directory.appendingPathComponent("b-reserved.hex"), atomically: true, encoding: .utf8)
        let outcome = try await runBounded(
            systemPython, ["Tests/Interop/wire_golden.py", directory.path], timeout: .seconds(60))
        #expect(!outcome.timedOut)
        #expect(outcome.status == 1, "\(outcome.output)")
        #expect(outcome.output.contains("ok   a-good.hex"))
        #expect(outcome.output.contains("FAIL b-reserved.hex"))
        #expect(outcome.output.contains("2 vectors, 1 failed"))
    }
}
