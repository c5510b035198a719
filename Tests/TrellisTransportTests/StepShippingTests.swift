import Foundation
import Testing
import TrellisTestSupport
import TrellisScenario
import TrellisTrace
import TrellisDistributed
import TrellisTransport

/// Issue 27 item 1 (SPEC §10: nothing already delivered is lost): workers send each step's
/// events as the step ends, so a worker killed mid-run keeps, in the merged trace, every event
/// of the steps it finished; the trace and the summary say which node's events are missing, and
/// from which step.
@Suite(.distributedHangGuard)
struct StepShippingTests {
    /// Six resizes over main (the conductor, R), b (A) and c (B).
    static let sixSteps: String = {
        let steps = (0..<6).map { $0 % 2 == 0 ? #"{ "resizeWindow": [568, 320] }"# : #"{ "resizeWindow": [320, 568] }"# }
        return #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A", "B"] }, "A": {}, "B": {} }, "placement": { "A": "b", "B": "c" }, "steps": ["#
            + steps.joined(separator: ",") + "] }"
    }()

    @Test("a worker killed with kill -9 after step 2 leaves its events of steps 0–2 in the merged trace, and the fault step's survivors theirs")
    func aKilledWorkerKeepsTheStepsItFinished() async throws {
        let scenario = try ScenarioDecoder.decode(Self.sixSteps, file: "six.json")
        let inProcess = try await ScenarioRunner.run(scenario)
        var options = try options()
        // Once the conductor holds b's answer for step 2 (asked for as step 2 ended, with no
        // `expect` step anywhere), b is killed: the kill falls between steps, at a known point.
        options.afterEachStep = { run, step in
            guard step == 2, let victim = await run.processIDs["b"] else { return }
            await run.takeTraceOwed(by: "b")
            kill(victim, SIGKILL)
        }
        let run = DistributedRun(scenario: scenario, scenarioText: Self.sixSteps, options: options)
        let outcome: Result<ScenarioRun, DistributedRunError>
        do {
            outcome = .success(try await run.conduct())
        } catch {
            outcome = .failure(error)
        }
        let ids = await run.processIDs
        for id in ids.values { #expect(!processExists(id)) }
        guard case let .failure(.faults(faults, partial)) = outcome else {
            Issue.record("expected the run to fail with faults, got \(outcome)")
            return
        }
        // Step 3 calls b, which is declared gone; the summary says what the trace lacks.
        let summary = try #require(faults.first)
        #expect(summary == "node b lost during step 3 of 6: the run stopped there; steps 4–6 were not run; the trace lacks node b's events from step 3 on")
        #expect(partial.canonicalLines.contains("node:main fault \(summary)"))
        let bEvents = partial.events.filter { $0.id.node == "b" }
        #expect(faults.contains("node b is gone: the merged trace has its \(bEvents.count) events through the end of step 2, and lacks the rest, from step 3 on"), "\(faults)")
        // Every event of the completed steps, b's included, in the in-process order.
        let finished = { (events: [TraceEvent]) in events.filter { $0.step <= 2 }.map(\.canonicalLine) }
        #expect(finished(partial.events) == finished(inProcess.events))
        #expect((0...2).allSatisfy { step in bEvents.contains { $0.step == step } })
        #expect(!bEvents.contains { $0.step > 2 })
        // The survivor's events of the fault step.
        #expect(partial.events.contains { $0.id.node == "c" && $0.step == 3 })
        #expect(await run.exitStatuses["c"] == 0)
    }

    @Test("what an interrupted run keeps (eventsReceived) holds every node's events of the steps that ended, asking no node")
    func whatAnInterruptedRunKeeps() async throws {
        let scenario = try ScenarioDecoder.decode(Self.sixSteps, file: "six.json")
        let inProcess = try await ScenarioRunner.run(scenario)
        var options = try options()
        let kept = KeptEvents()
        // As step 3 ends every worker's answer for it has arrived (the next step waits for
        // them), unread: what a signal's handler takes there.
        options.afterEachStep = { run, step in
            guard step == 3 else { return }
            await kept.keep(await run.eventsReceived())
        }
        let run = DistributedRun(scenario: scenario, scenarioText: Self.sixSteps, options: options)
        let whole = try await run.conduct()
        let events = await kept.events
        let upToStep3 = { (events: [TraceEvent]) in events.filter { $0.step <= 3 }.map(\.canonicalLine) }
        #expect(events.map(\.canonicalLine) == upToStep3(inProcess.events))
        #expect((0...3).allSatisfy { step in events.contains { $0.id.node == "b" && $0.step == step } && events.contains { $0.id.node == "c" && $0.step == step } })
        #expect(!events.contains { $0.canonicalLine.contains(" fault ") })
        // Taking them early loses nothing at the end.
        #expect(whole.canonicalLines == inProcess.canonicalLines)
    }

    @Test("without shipping each step, the same kill takes all of b's events with it, and the trace says so")
    func withoutShippingTheKilledWorkersEventsAreMissing() async throws {
        let scenario = try ScenarioDecoder.decode(Self.sixSteps, file: "six.json")
        var options = try options()
        options.shipsEachStep = false
        options.afterEachStep = { run, step in
            guard step == 2, let victim = await run.processIDs["b"] else { return }
            kill(victim, SIGKILL)
        }
        let run = DistributedRun(scenario: scenario, scenarioText: Self.sixSteps, options: options)
        let outcome: Result<ScenarioRun, DistributedRunError>
        do {
            outcome = .success(try await run.conduct())
        } catch {
            outcome = .failure(error)
        }
        guard case let .failure(.faults(faults, partial)) = outcome else {
            Issue.record("expected the run to fail with faults, got \(outcome)")
            return
        }
        #expect(faults.first == "node b lost during step 3 of 6: the run stopped there; steps 4–6 were not run; the trace lacks node b's events from the initial layout on")
        #expect(faults.contains("node b is gone: the merged trace has none of its events"), "\(faults)")
        #expect(!partial.events.contains { $0.id.node == "b" })
    }
}

/// The events a run's hook took, for the test to read once the run ends.
private actor KeptEvents {
    var events: [TraceEvent] = []
    func keep(_ events: [TraceEvent]) { self.events = events }
}
