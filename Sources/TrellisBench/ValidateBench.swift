import Foundation
import TrellisJSON
import TrellisScenario

/// `trellis validate` at scale (issue 27): a flat scenario — a root `view` with leaf children,
/// each `{"kind":"view"}`, as `scripts/flat-scenario.py` writes it — validated beside reading
/// the same file with the JSON reader alone, the floor of any validation of it.
package enum ValidateBench {
    /// The flat scenario of `count` leaves (at least one), one controller a line.
    package static func flatScenario(count: Int) -> String {
        var text = "{\"scenario\":\"flat: one root view with \(count) leaves\",\n"
        text.reserveCapacity(count * 40 + 200)
        text += "\"window\":{\"size\":[320,568]},\"root\":\"root\",\n\"controllers\":{\n\"root\":{\"kind\":\"view\",\"children\":[\n"
        for index in 0..<max(1, count) { text += (index == 0 ? "\"c" : ",\n\"c") + String(index) + "\"" }
        text += "]},\n"
        for index in 0..<max(1, count) { text += (index == 0 ? "\"c" : ",\n\"c") + String(index) + "\":{\"kind\":\"view\"}" }
        text += "}}\n"
        return text
    }

    /// The best of `rounds` turns of each: seconds to validate the file at `path` as
    /// `trellis validate` does (read, decode, check, and free what was made), and seconds to
    /// read it and parse it with `JSONParser` alone (and free the tree).
    package static func seconds(path: String, rounds: Int) throws -> (validate: Double, parse: Double) {
        var validate = Double.infinity, parse = Double.infinity
        for _ in 0..<rounds {
            var start = ContinuousClock.now
            try readAndParse(path)
            parse = min(parse, seconds(since: start))
            start = ContinuousClock.now
            try decode(path)
            validate = min(validate, seconds(since: start))
        }
        return (validate, parse)
    }

    /// The most memory `executable` with `arguments` held resident, in bytes (its own
    /// `ru_maxrss`, from `wait4`), its output thrown away; nil when it could not be started or
    /// did not exit 0. On Linux that peak counts the caller's own resident set at the spawn (the
    /// high-water mark of the memory the child starts in is kept across exec): call it from a
    /// small process (`trellis bench --memory-probe validate`).
    package static func peakResidentBytes(executable: String, arguments: [String]) -> Int? {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid = pid_t()
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, executable, &actions, nil, argv, environ) == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { return nil }
        }
        // Exited (the low seven bits zero) with status 0; `ru_maxrss` is in KiB on Linux, bytes on Darwin.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
        #if os(Linux)
        return Int(usage.ru_maxrss) * 1024
        #else
        return Int(usage.ru_maxrss)
        #endif
    }

    private static func readAndParse(_ path: String) throws {
        _ = try JSONParser.parse(bytes: try FileBytes.read(path))
    }

    private static func decode(_ path: String) throws {
        _ = try ScenarioDecoder.load(path: path)
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
