import Foundation
import Testing
import TrellisTestSupport

/// What a new user meets first: `--version`, `--help` with examples and no stray characters,
/// and file arguments that may be pipes or process substitutions.
@Suite("CLI conventions")
struct CLIConventionTests {
    static let commands: [[String]] = [
        [], ["run"], ["validate"], ["import"], ["node"], ["keys"], ["keys", "make"], ["bench"],
        ["trace"], ["trace", "show"], ["trace", "follow"], ["trace", "merge"], ["trace", "diff"], ["trace", "export"], ["trace", "convert"],
    ]

    @Test func versionPrintsTheVersion() async throws {
        let outcome = try await runTrellis(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdoutLines.count == 1)
        #expect(outcome.stdout.first?.isNumber == true)
    }

    /// The version printed is the newest one CHANGELOG.md records (its first `## [x.y.z]`
    /// heading), so a release cannot print one number and document another.
    @Test func versionIsTheChangelogsNewest() async throws {
        let outcome = try await runTrellis(["--version"])
        let changelog = try String(contentsOf: packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let released = changelog.split(separator: "\n").compactMap { line -> Substring? in
            guard line.hasPrefix("## ["), let close = line.firstIndex(of: "]") else { return nil }
            let name = line[line.index(line.startIndex, offsetBy: 4)..<close]
            return name == "Unreleased" ? nil : name
        }
        let newest = try #require(released.first, "CHANGELOG.md records no released version")
        #expect(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(newest))
    }

    @Test(arguments: commands)
    func helpHasExamplesAndNoStrayBackslashes(_ command: [String]) async throws {
        let outcome = try await runTrellis(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.contains("EXAMPLES:"))
        #expect(!outcome.stdout.contains("\\"))
        // Each example is one command line: none wrapped by the help's 80 columns.
        let lines = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "EXAMPLES:"))
        for line in lines[(start + 1)...].prefix(while: { !$0.isEmpty }) {
            #expect(line.hasPrefix("  trellis ") || line.hasPrefix("  swift "), "wrapped example line: \(line)")
        }
    }

    /// `bash -c` with the built binary, for process substitution and pipes.
    func shell(_ script: String) async throws -> ProcessOutcome {
        let binary = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        return try await runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script, "bash", binary.path], timeout: .seconds(60))
    }

    @Test func filesMayBePipesAndProcessSubstitutions() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("a.jsonl").path
        #expect(try await runTrellis(["run", "Examples/iphone-rotation.json", "--trace", trace]).status == 0)

        let diff = try await shell("\"$1\" trace diff '\(trace)' <(cat '\(trace)')")
        #expect(diff.status == 0, "\(diff.stderr)")
        let show = try await shell("cat '\(trace)' | \"$1\" trace show /dev/stdin")
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdoutLines.first == "R viewWillLayoutSubviews")
        let validate = try await shell("\"$1\" validate <(cat Examples/iphone-rotation.json)")
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.hasPrefix("ok: /dev/fd/"))
        let run = try await shell("cat Examples/iphone-rotation.json | \"$1\" run /dev/stdin")
        #expect(run.status == 0, "\(run.stderr)")
        let plain = try await runTrellis(["run", "Examples/iphone-rotation.json"])
        #expect(run.stdout == plain.stdout)
    }

    @Test("a scenario read from a pipe names its storyboard relative to the current directory")
    func storyboardFromAPipe() async throws {
        let scenario = #"{ "storyboard": "Tests/TrellisStoryboardTests/Storyboards/Tabs.storyboard", "steps": [] }"#
        let piped = try await shell("echo '\(scenario)' | \"$1\" validate /dev/stdin")
        #expect(piped.status == 0, "\(piped.stderr)")
        let substituted = try await shell("\"$1\" validate <(echo '\(scenario)')")
        #expect(substituted.status == 0, "\(substituted.stderr)")
        let missing = try await shell(#"echo '{ "storyboard": "Nowhere.storyboard" }' | "$1" validate /dev/stdin"#)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/dev/stdin:1:17: $.storyboard: cannot read the storyboard Nowhere.storyboard: no such file"), "\(missing.stderr)")
    }

    @Test("a TRELLIS_SOCKET_LAYER that names no layer is refused by name (exit 2) before any node starts; the two layers and unset run")
    func anUnknownSocketLayerIsRefused() async throws {
        for command in ["run Examples/popover-adaptation.json --transport zmq", "node --name b --bind ipc:///tmp/trellis-unused-b.sock"] {
            let refused = try await shell("TRELLIS_SOCKET_LAYER=zmq-please \"$1\" \(command)")
            #expect(refused.status == 2, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("TRELLIS_SOCKET_LAYER is \"zmq-please\": expected libzmq or zmtp"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
        }
        // In-process runs use no sockets: the variable is not read.
        let inProcess = try await shell("TRELLIS_SOCKET_LAYER=zmq-please \"$1\" run Examples/iphone-rotation.json")
        #expect(inProcess.status == 0, "\(inProcess.stderr)")
        let plain = try await runTrellis(["run", "Examples/popover-adaptation.json"])
        for layer in ["libzmq", "zmtp", ""] {
            let run = try await shell("TRELLIS_SOCKET_LAYER=\(layer) \"$1\" run Examples/popover-adaptation.json --transport zmq")
            #expect(run.status == 0, "\(layer): \(run.stderr)")
            #expect(run.stdout == plain.stdout, "\(layer)")
        }
    }

    @Test func aDirectoryOrAMissingFileIsRefusedByName() async throws {
        for arguments in [["validate", "Examples"], ["trace", "show", "Examples"]] {
            let outcome = try await runTrellis(arguments)
            #expect(outcome.status == 2)
            #expect(outcome.stderr.contains("Examples: is a directory, not a file"), "\(arguments): \(outcome.stderr)")
        }
        let missing = try await runTrellis(["trace", "show", "no-such.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no-such.jsonl: no such file"))
    }
}
