import Foundation
import Testing
import TrellisCLI
import TrellisDistributed
import TrellisRuntime
import TrellisTestSupport

/// SPEC §4.1, §8: a runner of one's own (`Tests/TestRunner`, the command line with Swift
/// behaviours registered) gives every command its behaviours; the plain `trellis` refuses a
/// scenario that names one.
@Suite("a runner's behaviours in every command")
struct RunnerTests {
    /// A right-aligned floored third (`Third`), a Swift note on R (`Noting`), a Swift adaptive
    /// delegate (`CompactFullScreen`), with `expect` steps only the Swift code satisfies.
    static let sidebar = """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["Content"], "behavior": "Noting" },
            "Content": { "kind": "view", "behavior": "CallsSuper" },
            "S": { "kind": "view", "modalPresentationStyle": "custom",
                   "presentationController": { "behavior": "Third" },
                   "adaptiveDelegate": { "behavior": "CompactFullScreen" } } },
          "steps": [
            { "present": "S", "from": "R", "animated": true },
            { "expect": [ "pc:S frameOfPresentedViewInContainerView -> 683,0 341x768" ] },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "expect": [ "pc:S adaptivePresentationStyle -> fullScreen", "R note laid out by Swift" ] } ] }
        """

    func scenarioFile(_ text: String = RunnerTests.sidebar) throws -> String {
        let url = try scratchDirectory().appendingPathComponent("named.json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func runRunner(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProcessOutcome {
        let binary = try #require(TrellisBinary.testRunnerURL, "trellis-test-runner was not built", sourceLocation: sourceLocation)
        return try await runProcess(binary, arguments, timeout: .seconds(60), sourceLocation: sourceLocation)
    }

    @Test("the plain trellis refuses a scenario naming a behaviour: exit 2, FILE:LINE:COLUMN: $.path and the advice, in validate, run and svg")
    func plainTrellisRefuses() async throws {
        let path = try scenarioFile()
        for arguments in [["validate", path], ["run", path], ["trace", "export", "--format", "svg", "--scenario", path, "--step", "1"]] {
            let outcome = try await runTrellis(arguments)
            #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            #expect(outcome.stderr.contains("\(path):4:"), "\(outcome.stderr)")
            #expect(outcome.stderr.contains("$.controllers.R.behavior: unknown view-controller behaviour \"Noting\""))
            #expect(outcome.stderr.contains("run it with the runner that registers it"))
            #expect(outcome.stdout.isEmpty, "nothing runs")
        }
    }

    @Test("the runner validates and runs it; its expect steps hold only with the Swift code; text and jsonl")
    func runnerRuns() async throws {
        let path = try scenarioFile()
        let validated = try await runRunner(["validate", path])
        #expect(validated.status == 0, "\(validated.stderr)")
        #expect(validated.stdout.hasPrefix("ok: \(path)"))
        let text = try await runRunner(["run", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdoutLines.contains("pc:S frameOfPresentedViewInContainerView -> 683,0 341x768"))
        #expect(text.stderr.isEmpty)
        let jsonl = try await runRunner(["run", path, "--format", "jsonl"])
        #expect(jsonl.status == 0)
        #expect(jsonl.stdoutLines.count == text.stdoutLines.count)
        #expect(jsonl.stdout.contains("\"laid out by Swift\""))
    }

    @Test("run --trace writes the capture the Swift behaviours made; trace show reads it back as the same lines")
    func runnerTrace() async throws {
        let path = try scenarioFile()
        let capture = try scratchDirectory().appendingPathComponent("run.jsonl").path
        let run = try await runRunner(["run", path, "--trace", capture])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try await runTrellis(["trace", "show", capture])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdoutLines.contains("R note laid out by Swift"))
        #expect(shown.stdoutLines.contains("pc:S frameOfPresentedViewInContainerView -> 683,0 341x768"))
        #expect(shown.stdoutLines.contains("pc:S sizeForChild(S, parent: 320x768) -> 320x768"))
    }

    /// Issue 24: a note written in a layout hook is caused by that hook's event, so `trace follow`
    /// names the hook as its cause and `show --tree` draws it under the hook — in-process, and
    /// over ZeroMQ with the noting controller on another node.
    @Test("a Swift note is caused by the layout hook it was written in: follow and show --tree say so", arguments: ["inproc", "zmq"])
    func noteIsCausedByItsHook(transport: String) async throws {
        let path = try scenarioFile("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": { "kind": "view", "children": ["Content"], "behavior": "Noting" },
                               "Content": { "kind": "view", "behavior": "Noting" } },
              "placement": { "Content": "b" },
              "steps": [ { "resizeWindow": [768, 1024] } ] }
            """)
        let trace = path + ".jsonl"
        let run = try await runRunner(["run", path, "--transport", transport, "--trace", trace])
        #expect(run.status == 0, "\(run.stderr)")
        let shown = try await runTrellis(["trace", "show", trace, "--ids"])
        let notes = shown.stdoutLines.filter { $0.hasSuffix("note laid out by Swift") }
        #expect(notes.count == 4, "\(shown.stdout)")
        for note in notes {
            let id = String(note.prefix { $0 != " " })
            let receiver = note.split(separator: " ")[1]
            let follow = try await runTrellis(["trace", "follow", trace, id])
            let lines = follow.stdoutLines
            let cause = lines.firstIndex(of: "event:").flatMap { $0 > 0 ? lines[$0 - 1] : nil }
            #expect(cause?.hasSuffix("  \(receiver) viewWillLayoutSubviews") == true, "\(follow.stdout)")
        }
        // In the tree, each note is one level under its controller's viewWillLayoutSubviews.
        let tree = try await runTrellis(["trace", "show", trace, "--tree"]).stdoutLines
        for (index, line) in tree.enumerated() where line.hasSuffix("note laid out by Swift") {
            let depth = line.prefix { $0 == " " }.count
            let receiver = line.dropFirst(depth).split(separator: " ")[0]
            let parent = tree[..<index].last { $0.prefix { $0 == " " }.count < depth }
            #expect(parent == String(repeating: " ", count: depth - 2) + "\(receiver) viewWillLayoutSubviews", "\(tree)")
        }
    }

    @Test("trace export --format svg --scenario draws the frames the Swift presentation controller gave")
    func runnerScreenPicture() async throws {
        let path = try scenarioFile()
        let outcome = try await runRunner(["trace", "export", "--format", "svg", "--scenario", path, "--step", "1"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("<svg") || outcome.stdout.contains("<svg"))
        // The presented sidebar: x 683, width 341, at the right edge of the 1024-point window.
        #expect(outcome.stdout.contains("x=\"683\"") && outcome.stdout.contains("width=\"341\""), "\(outcome.stdout.prefix(2000))")
    }

    @Test("a runner whose registry has a mistake (an empty name, a name twice) refuses every command with exit 2; a sound one runs")
    func registryMistakesAreRefused() async {
        struct Plain: ViewControllerBehavior {}
        let empty = BehaviorRegistry().viewController("", Plain())
        #expect(await TrellisCLI.run(arguments: ["behaviors"], registry: empty) == 2)
        let twice = BehaviorRegistry().viewController("A", Plain()).viewController("A", Plain())
        #expect(await TrellisCLI.run(arguments: ["--version"], registry: twice) == 2)
        #expect(await TrellisCLI.run(arguments: ["--version"], registry: BehaviorRegistry().viewController("A", Plain())) == 0)
    }

    @Test("behaviors lists what a program registers: the runner's by kind, none for the plain trellis")
    func listsBehaviors() async throws {
        let listed = try await runRunner(["behaviors"])
        #expect(listed.status == 0)
        // The test runner also registers the differential tester's behaviours (DifferentialBehaviors).
        #expect(listed.stdoutLines == [
            "viewController CallsSuper", "viewController Forwarding", "viewController Noting", "viewController Stashing",
            "viewController Suppressing", "presentationController Sidebar", "presentationController Third",
            "adaptiveDelegate CompactFullScreen", "adaptiveDelegate CompactSheet",
        ])
        let plain = try await runTrellis(["behaviors"])
        #expect(plain.status == 0 && plain.stdout.isEmpty)
    }

    @Test("the runner's exit statuses are the tool's: a failed expect 1, a usage error 2, a name it lacks 2")
    func runnerExitStatuses() async throws {
        let failing = try scenarioFile(Self.sidebar.replacingOccurrences(of: "683,0 341x768", with: "682,0 341x768"))
        #expect(try await runRunner(["run", failing]).status == 1)
        #expect(try await runRunner(["run"]).status == 2)
        let unknown = try scenarioFile(Self.sidebar.replacingOccurrences(of: "\"Third\"", with: "\"Thrd\""))
        let refused = try await runRunner(["validate", unknown])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("$.controllers.S.presentationController.behavior: unknown presentation-controller behaviour \"Thrd\" (did you mean \"Third\"?"))
    }

    @Test("a runner's help, usage errors and nodes go by its own name, not trellis's; the plain trellis keeps its own")
    func theRunnerGoesByItsOwnName() async throws {
        let help = try await runRunner(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: trellis-test-runner <subcommand>"), "\(help.stdout.prefix(400))")
        #expect(help.stdout.contains("trellis-test-runner run Examples/iphone-rotation.json"))
        let usage = try await runRunner(["run"])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("Usage: trellis-test-runner run"), "\(usage.stderr)")
        // A node of the runner that cannot listen says so under the runner's name.
        let node = try await runRunner(["node", "--name", "b", "--bind", "ipc:///nonexistent-trellis-folder/b.sock", "--peer", "main=ipc:///nonexistent-trellis-folder/main.sock"])
        #expect(node.status == 2)
        #expect(node.stderr.hasPrefix("trellis-test-runner node b: cannot listen on ipc:///nonexistent-trellis-folder/b.sock"), "\(node.stderr)")
        let bench = try await runRunner(["bench", "--help"])
        #expect(bench.stdout.contains("trellis-test-runner bench --quick"), "\(bench.stdout.suffix(400))")
        #expect(!bench.stdout.contains("trellis bench"))
        for command in [["trace", "--help"], ["trace", "show", "--help"], ["trace", "export", "--help"], ["trace", "convert", "--help"]] {
            let help = try await runRunner(command)
            #expect(help.stdout.contains("trellis-test-runner trace "), "\(command): \(help.stdout.suffix(400))")
            #expect(!help.stdout.contains("trellis trace"), "\(command)")
        }
        let plain = try await runTrellis(["--help"])
        #expect(plain.stdout.contains("USAGE: trellis <subcommand>"))
    }

    @Test("a program's name is the last component of its first argument; trellis when there is none", arguments: [
        ("/usr/local/bin/myapp-trellis", "myapp-trellis"), ("./runner", "runner"), ("trellis", "trellis"),
        ("", "trellis"), ("/", "trellis"), ("/opt/x/", "x"),
    ])
    func programName(argument: String, name: String) {
        #expect(ProgramName.name(fromFirstArgument: argument) == name)
        #expect(ProgramName.name(fromFirstArgument: nil) == "trellis")
    }
}
