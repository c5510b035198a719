import Foundation
import Testing
import TrellisDistributed
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTransport
import TrellisWire

/// SPEC §4.1, TWP/1 §7.2 (1.3): the behaviours a node's controllers need are named in its SETUP;
/// a node whose program lacks one refuses (ERROR 8), and the run ends as set up wrongly, naming
/// the node and the behaviour, within seconds and with nothing left running.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct NamedBehaviorRunTests {
    /// b hosts A (Suppressing) and C, which is presented with the Sidebar presentation controller
    /// and the CompactSheet delegate; c hosts B, which names no behaviour.
    static let text = #"""
        { "window": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular", "userInterfaceIdiom": "pad" } },
          "root": "R",
          "controllers": {
            "R": { "children": ["A", "B"] },
            "A": { "behavior": "Suppressing" }, "B": {},
            "C": { "modalPresentationStyle": "custom", "presentationController": { "behavior": "Sidebar" },
                   "adaptiveDelegate": { "behavior": "CompactSheet" } }
          },
          "placement": { "A": "b", "B": "c", "C": "b" },
          "steps": [ { "present": "C", "from": "A" }, { "resizeWindow": [768, 1024] } ] }
        """#

    @Test("each node's SETUP names exactly the behaviours of the controllers it hosts and of their presentations")
    func eachNodeIsToldItsOwnBehaviours() throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        let placement = Placement(scenario)
        #expect(NodeBehaviors.needed(by: "b", in: scenario, placement: placement) == [
            WireBehavior(.viewController, "Suppressing"), WireBehavior(.presentationController, "Sidebar"),
            WireBehavior(.adaptiveDelegate, "CompactSheet"),
        ])
        #expect(NodeBehaviors.needed(by: "c", in: scenario, placement: placement).isEmpty)
        #expect(NodeBehaviors.needed(by: "main", in: scenario, placement: placement).isEmpty)
    }

    @Test("before decoding, a node reads the names the file gives (the decoder's reading): every controller's, not its own only")
    func namesInTheFileAreTheDecodersReading() throws {
        let named = NodeBehaviors.named(inScenarioJSON: Self.text)
        #expect(Set(named) == [WireBehavior(.viewController, "Suppressing"), WireBehavior(.presentationController, "Sidebar"),
                               WireBehavior(.adaptiveDelegate, "CompactSheet")])
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        #expect(ScenarioDecoder.behaviorNames(inJSON: Self.text) == scenario.behaviorNames)
        #expect(NodeBehaviors.named(inScenarioJSON: "{oops").isEmpty)
    }

    @Test("ERROR 8's text lists the first 20 names it lacks and how many more, so that it always encodes")
    func refusalOfManyNamesIsCapped() {
        let missing = (0..<5000).map { WireBehavior(.viewController, "Lacked\($0)") }
        let text = NodeBehaviors.refusal(node: "b", missing: missing, registry: BehaviorRegistry())
        #expect(text.hasPrefix("node b does not know the behaviours Lacked0 (view-controller behaviour), "))
        #expect(text.contains("Lacked19 (view-controller behaviour) … 4980 more: it registers no Swift behaviours"))
        #expect(!text.contains("Lacked20 "))
        #expect(text.utf8.count < 2000)
    }

    @Test("the conductor names, and starts its nodes as, the program it runs")
    func ownProgramIsTheExecutablesName() {
        #expect(DistributedRun.ownExecutable.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: DistributedRun.ownExecutable))
    }

    @Test("a runner's registry knows what it registers; a node lacking some says which, and what it has")
    func refusalNamesWhatIsLacked() {
        let named = [WireBehavior(.viewController, "Suppressing"), WireBehavior(.viewController, "Missing"),
                     WireBehavior(kind: 7, name: "Future"), WireBehavior(.adaptiveDelegate, "Suppressing")]
        let missing = NodeBehaviors.missing(named, in: DifferentialBehaviors.registry)
        #expect(missing == [WireBehavior(.viewController, "Missing"), WireBehavior(.adaptiveDelegate, "Suppressing"), WireBehavior(kind: 7, name: "Future")])
        let text = NodeBehaviors.refusal(node: "b", missing: missing, registry: BehaviorRegistry())
        #expect(text == "node b does not know the behaviours Missing (view-controller behaviour), Suppressing (adaptive delegate), Future (behaviour of kind 7): it registers no Swift behaviours (the plain trellis, or a runner without them)")
        #expect(NodeBehaviors.refusal(node: "b", missing: [missing[0]], registry: DifferentialBehaviors.registry)
            .hasPrefix("node b does not know the behaviour Missing (view-controller behaviour): it knows Forwarding (view-controller behaviour), "))
    }

    /// The plain `trellis` as a node (spawned from it, as a conductor that is not the runner
    /// would): node b refuses, node c (no behaviour) is set up; the run is a mistake naming b
    /// and what it lacks, and every node has exited when `conduct` returns.
    @Test("spawned from the plain trellis, a node refuses its behaviours: a mistake naming node and behaviour, nothing left running")
    func plainTrellisNodesRefuse() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        let run = DistributedRun(scenario: scenario, scenarioText: Self.text, options: try options())
        let began = ContinuousClock.now
        var failure: DistributedRunError?
        do {
            _ = try await run.conduct()
        } catch {
            failure = error
        }
        let took = began.duration(to: .now)
        guard case let .mistake(said)? = failure else {
            Issue.record("expected a set-up mistake, got \(String(describing: failure))")
            return
        }
        #expect(said.contains("node b does not know the behaviours Suppressing (view-controller behaviour), Sidebar (presentation-controller behaviour), CompactSheet (adaptive delegate)"), "\(said)")
        #expect(said.contains("every node of a run must be this conductor's own program"), "\(said)")
        // A hang guard, not a timing: the refusal itself is proved by the mistake's text (a node
        // that never answered would end as a set-up timeout, not a mistake). Under `taskset -c 0`
        // with the whole suite sharing the CPU, it took 22 s.
        #expect(took < .seconds(60), "took \(took)")
        for (node, id) in await run.processIDs {
            #expect(!processExists(id), "node \(node) (pid \(id)) outlived the run")
        }
        #expect(await run.exitStatuses["b"] == 2)
    }

    /// The same run over in-process nodes built with the registry: exactly the in-process trace,
    /// the behaviours' own lines included.
    @Test("with the behaviours on every node, the run gives exactly the in-process trace")
    func namedBehavioursOverLoopback() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        let expected = try await ScenarioRunner.run(scenario).canonicalLines
        #expect(expected.contains { $0.contains("frameOfPresentedViewInContainerView") && $0.contains("683,0 341x768") }, "\(expected.joined(separator: "\n"))")
        // The coordinator's blocks of Sidebar (node b) and Suppressing (node b, in portrait):
        // the zmq runs of this scenario below compare them too (TWP/1.4 §8.7).
        for line in ["pc:C alongsideTransition", "pc:C transitionCompletion", "A transitionCompletion"] {
            #expect(expected.contains { $0.hasPrefix(line) }, "no \(line) in \(expected.joined(separator: "\n"))")
        }
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: loopbackOptions()).canonicalLines
        #expect(distributed == expected, "\(DifferentialCheck.difference(expected, distributed))")
    }

    /// Stashing (node b) asks for a layout when its traits change (`setNeedsLayout`, TWP 1.7):
    /// the conductor's window carries it out with `layOutAgain` on node b, whose children (one on
    /// node c) take the width its traits give them.
    @Test("a behaviour's setNeedsLayout on another node: the layout pass there, and the in-process trace")
    func setNeedsLayoutOverLoopback() async throws {
        let text = #"""
            { "window": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular", "userInterfaceIdiom": "pad" } },
              "root": "R",
              "controllers": { "R": { "children": ["S"] }, "S": { "behavior": "Stashing", "children": ["A", "B"] }, "A": {}, "B": {} },
              "placement": { "S": "b", "B": "c" },
              "steps": [ { "setTraits": { "horizontalSizeClass": "compact" } } ] }
            """#
        let scenario = try ScenarioDecoder.decode(text, file: "layout.json", registry: DifferentialBehaviors.registry)
        let expected = try await ScenarioRunner.run(scenario).canonicalLines
        let step = expected.drop { !$0.hasPrefix("== step 1") }
        #expect(step.contains("S request setNeedsLayout"), "\(expected.joined(separator: "\n"))")
        #expect(step.contains("B viewWillLayoutSubviews"), "\(expected.joined(separator: "\n"))")
        let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: loopbackOptions()).canonicalLines
        #expect(distributed == expected, "\(DifferentialCheck.difference(expected, distributed))")
    }

    /// A runner lacking one name (the test runner has no "OnlyHere"): the conductor here
    /// registers it and node c hosts the controller naming it. Node b, set up first, refuses
    /// too: it needs only names it has, but it is not the conductor's program, and would fail
    /// to read the file's other name.
    @Test("nodes of a runner lacking one name refuse: a mistake naming the node and that behaviour alone")
    func aRunnerLackingANameRefuses() async throws {
        let registry = DifferentialBehaviors.registry.viewController("OnlyHere", DefaultBehavior())
        let text = Self.text.replacingOccurrences(of: #""B": {}"#, with: #""B": { "behavior": "OnlyHere" }"#)
        let began = ContinuousClock.now
        guard let said = try await Self.setUpMistake(text, registry: registry) else { return }
        #expect(said.hasPrefix("node b does not know the behaviour OnlyHere (view-controller behaviour): it knows "), "\(said)")
        #expect(began.duration(to: .now) < .seconds(60), "a hang guard; the mistake's text proves the refusal")
    }

    /// SPEC §4.1: a node must be the conductor's own runner, not one that happens to register
    /// the same names. The conductor here registers "Suppressing" with a type of its own; the
    /// test runner's nodes know the name with theirs (TWP/1 §7.2 implementations, 1.6).
    @Test("nodes of a runner with the same names and other code refuse: a mistake naming the behaviour and both types")
    func aRunnerWithTheSameNamesAndOtherTypesRefuses() async throws {
        let registry = DifferentialBehaviors.registry.viewController("Suppressing", Impostor())
        guard let said = try await Self.setUpMistake(Self.text, registry: registry) else { return }
        #expect(said.hasPrefix("node b was started from another runner than the conductor's (a hand-started node must be the same runner): Suppressing (view-controller behaviour) is "), "\(said)")
        #expect(said.contains("in the conductor's runner"), "\(said)")
        #expect(said.contains(String(reflecting: Impostor.self)), "\(said)")
    }

    /// Runs `text` with a conductor of `registry` and the test runner's nodes, and returns the
    /// set-up mistake it ended with (an issue, and nil, for anything else); every node it started
    /// has exited by then.
    static func setUpMistake(_ text: String, registry: BehaviorRegistry, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String? {
        let scenario = try ScenarioDecoder.decode(text, file: "named.json", registry: registry)
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: try runnerOptions())
        var failure: DistributedRunError?
        do {
            _ = try await run.conduct()
        } catch {
            failure = error
        }
        for (node, id) in await run.processIDs {
            #expect(!processExists(id), "node \(node) (pid \(id)) outlived the run", sourceLocation: sourceLocation)
        }
        guard case let .mistake(said)? = failure else {
            Issue.record("expected a set-up mistake, got \(String(describing: failure))", sourceLocation: sourceLocation)
            return nil
        }
        return said
    }

    /// CURVE needs nothing of its own with a runner: keys made per spawned node, the runner's
    /// processes, the in-process trace.
    @Test("with CURVE, a run of the runner's processes gives the in-process trace")
    func curveWithARunner() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        let expected = try await ScenarioRunner.run(scenario).canonicalLines
        var options = try runnerOptions()
        options.secureSpawnedNodes = true
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.text, options: options).canonicalLines
        #expect(distributed == expected, "\(DifferentialCheck.difference(expected, distributed))")
    }


    /// Node `node` started by hand as `program`, greeting main in `directory`; its standard
    /// error into NODE.err there.
    static func startByHand(_ node: String, _ program: URL, in directory: URL) throws -> Process {
        let process = Process()
        process.executableURL = program
        process.arguments = ["node", "--name", node, "--bind", "ipc://\(directory.path)/\(node).sock",
                             "--peer", "main=ipc://\(directory.path)/main.sock", "--conductor", "main"]
        let errors = directory.appendingPathComponent("\(node).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return process
    }

    /// The runner conducting `named.json` in `directory` with b and c started by hand.
    static func conductHandStarted(in directory: URL) async throws -> ProcessOutcome {
        let runner = try #require(TrellisBinary.testRunnerURL)
        return try #require(try await runBounded(runner, [
            "run", directory.appendingPathComponent("named.json").path, "--transport", "zmq", "--listen", "ipc://\(directory.path)/main.sock",
            "--node", "b=ipc://\(directory.path)/b.sock", "--node", "c=ipc://\(directory.path)/c.sock",
        ], timeout: .seconds(60)))
    }

    /// `trellis-test-runner run --transport zmq --node b=…` with b started by hand: the runner
    /// itself works; the plain `trellis` in its place is refused — the conductor exits 2 naming
    /// node b and the behaviour, and the node exits 2 — within seconds.
    @Test("hand-started nodes: the same runner joins; the plain trellis is refused, both exit 2", arguments: ["runner", "plain"])
    func handStartedNodes(program: String) async throws {
        let runner = try #require(TrellisBinary.testRunnerURL)
        let plain = try #require(TrellisBinary.url)
        let directory = try SetupFailureTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.text.write(to: directory.appendingPathComponent("named.json"), atomically: true, encoding: .utf8)
        let b = try Self.startByHand("b", program == "runner" ? runner : plain, in: directory)
        let c = try Self.startByHand("c", program == "runner" ? runner : plain, in: directory)
        defer { for node in [b, c] where node.isRunning { kill(node.processIdentifier, SIGKILL) } }
        let began = ContinuousClock.now
        let outcome = try await Self.conductHandStarted(in: directory)
        #expect(!outcome.timedOut)
        #expect(await processExits(b, within: .seconds(10)))
        #expect(await processExits(c, within: .seconds(10)))
        if program == "runner" {
            let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
            let expected = try await ScenarioRunner.run(scenario).canonicalLines
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stdoutLines == expected, "\(DifferentialCheck.difference(expected, outcome.stdoutLines))")
            #expect(b.terminationStatus == 0)
            return
        }
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("node b does not know the behaviours Suppressing (view-controller behaviour), Sidebar (presentation-controller behaviour), CompactSheet (adaptive delegate)"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("start a node by hand with the same runner"), "\(outcome.stderr)")
        #expect(began.duration(to: .now) < .seconds(60), "a hang guard; the mistake's text proves the refusal")
        #expect(b.terminationStatus == 2)
    }

    /// `text` with the nodes' parts swapped: c hosts the behaviours, b only B.
    static let swapped = text.replacingOccurrences(of: #""placement": { "A": "b", "B": "c", "C": "b" }"#, with: #""placement": { "A": "c", "B": "b", "C": "c" }"#)

    /// c is the plain `trellis` (it lacks the behaviours), b the runner, which needs none here:
    /// b can be set up before c refuses (it was in every run without the fix), and is then
    /// told, like a node not set up, why the run ends — in the conductor's words naming c —
    /// and exits 0 (issue 27 item 2: every node of a run whose set-up failed is told so). It
    /// once ended silently.
    @Test("a node set up before another refused its behaviours is told why the run ends, and exits 0", arguments: 0..<5)
    func aNodeSetUpBeforeAnotherRefusedIsTold(_ repetition: Int) async throws {
        let runner = try #require(TrellisBinary.testRunnerURL)
        let plain = try #require(TrellisBinary.url)
        let directory = try SetupFailureTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(Self.swapped != Self.text)
        try Self.swapped.write(to: directory.appendingPathComponent("named.json"), atomically: true, encoding: .utf8)
        let b = try Self.startByHand("b", runner, in: directory)
        let c = try Self.startByHand("c", plain, in: directory)
        defer { for node in [b, c] where node.isRunning { kill(node.processIdentifier, SIGKILL) } }
        let outcome = try await Self.conductHandStarted(in: directory)
        #expect(outcome.status == 2, "\(outcome.stderr)")
        try #require(await processExits(b, within: .seconds(10)), "node b was left running")
        try #require(await processExits(c, within: .seconds(10)), "node c was left running")
        let said = (try? String(contentsOf: directory.appendingPathComponent("b.err"), encoding: .utf8)) ?? ""
        #expect(said.contains("the run's set-up failed, says its conductor main: node c does not know the behaviours Suppressing"), "\(said)")
        #expect(b.terminationStatus == 0, "\(said)")
        #expect(c.terminationStatus == 2)
    }

    /// `trellis-test-runner run --transport zmq`: the nodes it spawns are itself (the running
    /// executable, not a `trellis` found elsewhere), so the behaviours run on them and the trace
    /// is the in-process one.
    @Test("a runner's zmq run spawns the runner: its nodes know its behaviours, the trace is the in-process one")
    func theRunnerSpawnsItself() async throws {
        let runner = try #require(TrellisBinary.testRunnerURL)
        let directory = try SetupFailureTests.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("named.json")
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        let outcome = try #require(try await runBounded(runner, ["run", file.path, "--transport", "zmq"], timeout: .seconds(60)))
        let scenario = try ScenarioDecoder.decode(Self.text, file: "named.json", registry: DifferentialBehaviors.registry)
        let expected = try await ScenarioRunner.run(scenario).canonicalLines
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdoutLines == expected, "\(DifferentialCheck.difference(expected, outcome.stdoutLines))")
    }

}

/// A view-controller behaviour registered under a name the test runner registers with another
/// type: what a different runner with the same names looks like to a node.
private struct Impostor: ViewControllerBehavior {}
