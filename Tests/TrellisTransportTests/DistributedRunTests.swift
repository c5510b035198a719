import Foundation
import Testing
import TrellisTestSupport
import TrellisModel
import TrellisScenario
import TrellisTrace
import TrellisTraceFiles
import TrellisDistributed
import TrellisTransport
import TrellisWire
import ZeroMQ

/// SPEC §7: a distributed run prints exactly the in-process trace; faults end it cleanly.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct DistributedRunTests {
    /// Every example goes over in-process nodes (a loopback network); a handful of them over
    /// ZeroMQ too, between processes, where each costs a second.
    static let examplesOverZeroMQ: Set<String> = ["iphone-rotation.json", "split-view.json", "popover-from-bar-button.json", "manual-forwarding.json"]
    static let placedExamplesOverZeroMQ: Set<String> = ["ipad-rotation.json", "one-third-sidebar.json", "chain-dismiss-middle.json"]

    @Test("every example over three in-process nodes gives the in-process trace, line for line", arguments: exampleFiles())
    func exampleOverLoopbackMatchesInProcess(_ file: URL) async throws {
        try await Self.expectExampleMatchesInProcess(file, over: .loopback)
    }

    @Test("examples over three processes give the in-process trace, line for line",
          arguments: exampleFiles().filter { examplesOverZeroMQ.contains($0.lastPathComponent) })
    func exampleMatchesInProcess(_ file: URL) async throws {
        try await Self.expectExampleMatchesInProcess(file, over: .zeroMQ)
    }

    static func expectExampleMatchesInProcess(_ file: URL, over medium: Medium) async throws {
        let (text, scenario) = try spreadOverThreeNodes(file)
        #expect(Placement(scenario).nodes.count == 3)
        let inProcess = try await ScenarioRunner.run(scenario)
        let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: try medium.options())
        #expect(distributed.canonicalLines == inProcess.canonicalLines)
        #expect(TraceDiff.compare(inProcess.events, distributed.events).isEmpty)
        #expect(distributed.failures == inProcess.failures)
        // The work really was spread: every node recorded something.
        #expect(Set(distributed.events.map(\.id.node)) == ["main", "b", "c"])
    }

    @Test("an example's own placement over in-process nodes gives the in-process trace", arguments: exampleFiles().filter(hasPlacement))
    func examplePlacementOverLoopbackMatchesInProcess(_ file: URL) async throws {
        try await Self.expectPlacementMatchesInProcess(file, over: .loopback)
    }

    @Test("an example's own placement over processes gives the in-process trace",
          arguments: exampleFiles().filter { placedExamplesOverZeroMQ.contains($0.lastPathComponent) })
    func examplePlacementMatchesInProcess(_ file: URL) async throws {
        try await Self.expectPlacementMatchesInProcess(file, over: .zeroMQ)
    }

    static func expectPlacementMatchesInProcess(_ file: URL, over medium: Medium) async throws {
        // A "storyboard" is read relative to the file, and into the text the nodes get (SPEC §11).
        let text = try ScenarioDecoder.jsonText(try String(contentsOf: file, encoding: .utf8), file: file.path)
        let scenario = try ScenarioDecoder.decode(text, file: file.lastPathComponent)
        #expect(Placement(scenario).nodes.count == 3)
        let inProcess = try await ScenarioRunner.run(scenario)
        let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: try medium.options())
        #expect(distributed.canonicalLines == inProcess.canonicalLines)
        #expect(distributed.failures.isEmpty)
    }

    @Test func theExamplesOverZeroMQAreExamples() {
        let names = Set(exampleFiles().map(\.lastPathComponent))
        #expect(Self.examplesOverZeroMQ.isSubset(of: names))
        #expect(Self.placedExamplesOverZeroMQ.isSubset(of: Set(exampleFiles().filter(hasPlacement).map(\.lastPathComponent))))
    }

    @Test func severalExamplesComeWithAPlacement() {
        #expect(exampleFiles().filter(hasPlacement).count >= 5)
    }

    @Test("a stranger that says something and hangs up is no lost node: the run goes on and succeeds", .tags(.slow), .selected(.slow))
    func aStrangerThatHangsUpDoesNotFailTheRun() async throws {
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-stranger-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = try options()
        options.conductorEndpoint = "ipc://\(directory.path)/main.sock"
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
        try await run.start()
        // "x" is heard once, then silent for good: the conductor's transport declares it gone
        // after the peer-gone timeout (2 s), which the test waits out — the timeout is what is tested.
        do {
            let context = try ZMQContext()
            let stranger = try rawDealer(in: context, routingID: "x", connectedTo: options.conductorEndpoint ?? "")
            try stranger.set(ZMQOption.linger, 1_000)
            _ = try stranger.send(WireMessage(.heartbeat).encode(), dontWait: false)
            stranger.close()
            context.terminate()
        }
        try await Task.sleep(for: .milliseconds(3_000))
        let outcome: Result<ScenarioRun, DistributedRunError>
        do {
            outcome = .success(try await run.run())
        } catch {
            outcome = .failure(error)
        }
        await run.shutdown()
        if case let .failure(error) = outcome { Issue.record("a stranger's silence failed the run: \(error)") }
    }

    @Test func aKilledNodeIsDeclaredGoneAndTheRunEndsWithAFault() async throws {
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        // The default peer-gone timeout (2 s): a shorter one declares a node starved on a busy
        // machine gone during set-up, which then fails the set-up (not what this test is about).
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: try options())
        try await run.start()
        let victim = try #require(await run.processIDs["b"])
        kill(victim, SIGKILL)
        let started = ContinuousClock.now
        let outcome: Result<ScenarioRun, DistributedRunError>
        do {
            outcome = .success(try await run.run())
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success:
            Issue.record("a run with a killed node succeeded")
        case let .failure(.faults(faults, partial)):
            #expect(faults.contains { $0.contains("node b") })
            // The transition that needed b completed with a fault event naming it.
            #expect(partial.events.contains { event in
                if case let .fault(text) = event.message { return text.contains("node b") }
                return false
            })
            // And the merged trace says that b's part of it is missing (issue 16: never silently).
            #expect(faults.contains("node b is gone: the merged trace has none of its events"))
            #expect(partial.canonicalLines.contains("node:main fault node b is gone: the merged trace has none of its events"))
        case let .failure(error):
            Issue.record("unexpected error: \(error)")
        }
        // Declared gone within the timeout, not hung: a hang guard with room for a busy machine
        // (the 2 s timeout itself is the transport's tests' to check, by an injected clock).
        #expect(started.duration(to: .now) < .seconds(60))
        await run.shutdown()
        let others = await run.processIDs.values
        for id in others { #expect(!processExists(id)) }
    }

    @Test func garbageFromARawSocketIsRejectedAndTheNodeKeepsServing() async throws {
        let file = packageRoot.appendingPathComponent("Examples/popover-adaptation.json")
        let (text, scenario) = try spreadOverThreeNodes(file)
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: try options())
        try await run.start()
        let target = try #require(await run.endpoints["b"])
        // A raw ZeroMQ peer sends malformed, truncated, oversized-count and wrong-version frames.
        let context = try ZMQContext()
        let raw = try rawDealer(in: context, routingID: "garbage", connectedTo: target)
        defer {
            raw.close()
            context.terminate()
        }
        var wrongVersion = WireMessage(.heartbeat).encode()
        wrongVersion[0][2] = 9
        var truncatedCall = WireMessage(.call(target: WireAddress(node: "b", controller: "P", incarnation: 1), code: .layout, arguments: [.none])).encode()
        truncatedCall[1].removeLast(2)
        var unknownCommand = WireMessage(.heartbeat).encode()
        unknownCommand[0][4] = 0x77
        // Each with the ERROR code that must answer it (TWP/1 §7.9).
        let garbage: [([[UInt8]], WireErrorCode)] = [
            ([[0x00]], .malformedHeader), ([[1, 2, 3], [4], [5]], .malformedHeader), (wrongVersion, .unsupportedVersion),
            (truncatedCall, .malformedBody), (unknownCommand, .unknownCommand),
        ]
        // Each one is answered with ERROR 1 ("malformed") through the node's ROUTER: waiting for
        // the answers (bounded by the suite's time limit) proves the node has seen them all.
        for (message, expectedCode) in garbage {
            try raw.send(message, dontWait: false)
            var items = [ZMQPollItem(.socket(raw))]
            try #require(try await pollGivingWay(&items, timeout: .seconds(30)) == 1)
            let answer = try #require(try raw.receive())
            let decoded = try WireMessage.decode(answer)
            guard case let .error(code, _) = decoded.body else {
                Issue.record("expected an ERROR, got \(decoded.body)")
                continue
            }
            #expect(code == expectedCode.rawValue)
        }

        let result = try await run.run()
        await run.shutdown()
        let inProcess = try await ScenarioRunner.run(scenario)
        let faults = result.canonicalLines.filter { $0.hasPrefix("node:b fault malformed message from garbage") }
        #expect(faults.count == garbage.count)
        // Apart from those fault lines, the run is the in-process one.
        #expect(result.canonicalLines.filter { !$0.hasPrefix("node:") } == inProcess.canonicalLines)
    }

    @Test func shutdownEndsEveryNodeWithinItsDeadline() async throws {
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/split-view.json"))
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: try options())
        try await run.start()
        let ids = await run.processIDs
        #expect(ids.count == 2)
        _ = try await run.run()
        let started = ContinuousClock.now
        await run.shutdown()
        #expect(started.duration(to: .now) < .seconds(12))  // goodbye acknowledged, not killed at the deadline
        for id in ids.values { #expect(!processExists(id)) }
        await run.shutdown()  // twice is harmless
    }

    /// TWP/1 §7.8, §11.2: a worker sends its trace as compact captures to a conductor whose
    /// HELLO announces that it reads them, and as JSON Lines (1.1's form) to one that does not;
    /// the merged trace is the same either way, and the compact form is a fraction of the bytes.
    @Test func workersSendTheFormTheConductorAnnounced() async throws {
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/split-view.json"))
        let inProcess = try await ScenarioRunner.run(scenario)
        var figures: [TraceDataStatistics] = []
        for capabilities in [WireCapabilities.compactTrace, []] {
            var options = try options()
            options.capabilities = capabilities
            let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
            do {
                try await run.start()
                let distributed = try await run.run()
                #expect(distributed.canonicalLines == inProcess.canonicalLines)
                #expect(TraceDiff.compare(inProcess.events, distributed.events).isEmpty)
            } catch {
                Issue.record("\(error)")
            }
            figures.append(await run.traceData)
            await run.shutdown()
        }
        let (compact, json) = (figures[0], figures[1])
        #expect(compact.events == json.events)
        #expect(compact.events > 0)
        #expect(compact.messageBytes * 3 < json.messageBytes, "compact \(compact), JSON Lines \(json)")
    }

    /// A node's large trace arrives whole and in order (in JSON Lines it took several parts of
    /// 4 MB; compact, TraceDataCodecTests cut parts small).
    @Test func aLargeTraceArrivesInParts() async throws {
        var controllers: [String] = []
        let count = 12_000
        for index in 0..<count {
            let children = (min(index * 8 + 1, count)..<min(index * 8 + 9, count)).map { "\"c\($0)\"" }.joined(separator: ",")
            controllers.append("\"c\(index)\":{\"children\":[\(children)]}")
        }
        let text = """
            {"window":{"size":[320,568]},"root":"c0","controllers":{\(controllers.joined(separator: ","))},
             "placement":{"c1":"b","c2":"c"},"steps":[{"resizeWindow":[568,320]},{"resizeWindow":[320,568]}]}
            """
        let scenario = try ScenarioDecoder.decode(text, file: "large.json")
        let inProcess = try await ScenarioRunner.run(scenario)
        let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: try options())
        #expect(distributed.events.filter { $0.id.node == "b" }.count > 20_000)  // well over 4 MB of capture lines
        #expect(distributed.canonicalLines == inProcess.canonicalLines)
    }

    @Test func aNodeThatCannotStartFailsTheRunWithAClearMessage() async throws {
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        var options = try options()
        options.nodeExecutable = "/nonexistent/trellis"
        do {
            _ = try await DistributedRun.run(scenario, scenarioText: text, options: options)
            Issue.record("a run whose nodes cannot start succeeded")
        } catch {
            #expect(error.description.contains("cannot start node"))
        }
    }
}

@Suite struct PlacementTests {
    @Test func unplacedControllersLiveWithTheirParentOrPresenter() throws {
        let scenario = try ScenarioDecoder.decode("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": { "children": ["A1"] }, "A1": {}, "P": {}, "Q": {} },
              "placement": { "A": "b", "P": "c" },
              "steps": [ { "present": "Q", "from": "A1" } ] }
            """, file: "inline")
        let placement = Placement(scenario)
        #expect(placement.conductor == "main")
        #expect(placement.nodeOf == ["R": "main", "A": "b", "A1": "b", "P": "c", "Q": "b"])
        #expect(placement.nodes == ["main", "b", "c"])
    }

    @Test func thePlacedRootNamesTheConductor() throws {
        let scenario = try ScenarioDecoder.decode("""
            { "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": {} }, "placement": { "R": "a" } }
            """, file: "inline")
        #expect(Placement(scenario).conductor == "a")
    }

    /// SPEC §7, authority: a HELLO speaks for the node whose routing id it came from. Peer "b"
    /// (started by hand) greeting as "c" is refused, so the conductor is still waiting for b's
    /// greeting when its start-up time runs out (accepted, it would have gone on to SETUP and
    /// failed waiting for READY instead).
    @Test func aHelloNamingAnotherNodeIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-hello-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
        let scenario = try ScenarioDecoder.decode(text, file: "hello.json")
        var options = try options()
        options.conductorEndpoint = "ipc://\(directory.path)/main.sock"
        options.startedNodes = ["b": "ipc://\(directory.path)/b.sock"]
        options.startupTimeout = .seconds(3)
        let context = try ZMQContext()
        defer { context.terminate() }
        let listener = try context.socket(.router)
        defer { listener.close() }
        try listener.set(ZMQOption.linger, 0)
        try listener.bind("ipc://\(directory.path)/b.sock")
        let impostor = try context.socket(.dealer)
        defer { impostor.close() }
        try impostor.set(ZMQOption.linger, 0)
        try impostor.set(ZMQOption.routingID, text: "b")
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
        let started = Task { () -> String? in
            do {
                try await run.start()
                return nil
            } catch {
                return "\(error)"
            }
        }
        try impostor.connect("ipc://\(directory.path)/main.sock")
        _ = try impostor.send(WireMessage(.hello(node: "c", runID: "", capabilities: 0, endpoint: "ipc://\(directory.path)/b.sock")).encode(), dontWait: false)
        let failure = await started.value
        await run.shutdown()
        #expect(failure?.contains("node b did not greet the conductor") == true, "\(failure ?? "started")")
    }
}
