import Foundation
import Synchronization
import Testing
import TrellisModel
import TrellisScenario
import TrellisTrace
@testable import TrellisDistributed

/// `trellis run --transport zmq` prints each step as the conductor has every node's events of
/// it (`LiveSteps`): what is handed on is the start of each node's events through the step,
/// merged by causality, and a node's events of a later step wait for that step.
@Suite struct LiveStepsTests {
    static func event(_ node: String, _ sequence: UInt64, lamport: UInt64, step: Int) -> TraceEvent {
        TraceEvent(id: EventRef(node: node, sequence: sequence), lamport: lamport, cause: nil, controller: "R", transition: nil,
                   step: step, message: .layout(.viewWillLayoutSubviews), time: 0)
    }

    @Test("each step's events from every node, merged; a node's events of the next step are kept for it")
    func handsOnStepByStep() {
        var live = LiveSteps()
        let main = [Self.event("main", 1, lamport: 1, step: 0), Self.event("main", 2, lamport: 4, step: 1)]
        // Node b recorded one event of step 1 before it answered for step 0: it waits for step 1.
        let b = [Self.event("b", 1, lamport: 2, step: 0), Self.event("b", 2, lamport: 5, step: 1)]
        let step0 = live.take(through: 0, from: [("main", main), ("b", b)])
        #expect(step0.map(\.id.description) == ["main#1", "b#1"])
        #expect(live.handed(of: "main") == 1)
        #expect(live.handed(of: "b") == 1)
        // Step 1: what came after, merged by clock; then b's first of step 2 waits again.
        let more = [Self.event("b", 3, lamport: 6, step: 1), Self.event("b", 4, lamport: 7, step: 2)]
        let step1 = live.take(through: 1, from: [("main", Array(main.dropFirst())), ("b", Array(b.dropFirst()) + more), ("c", [])])
        #expect(step1.map(\.id.description) == ["main#2", "b#2", "b#3"])
        #expect(live.handed(of: "b") == 3)
        #expect(live.handed(of: "c") == 0)
        #expect(live.goesOn)
        live.stop()
        #expect(!live.goesOn)
    }

    @Test("why the handing on stops: an interruption or a refused trace before lateness; late answers; nothing")
    func whyItStops() {
        // Interrupted (said as empty: the interruption says itself), the step's answers were cut
        // short: no "took longer" notice beside it.
        #expect(DistributedRun.handingOnStops(arrived: false, stopsShort: "", step: "step 7", waitedMilliseconds: 2000) == "")
        #expect(DistributedRun.handingOnStops(arrived: false, stopsShort: "node b's trace was refused", step: "step 7", waitedMilliseconds: 2000)
            == "node b's trace was refused")
        #expect(DistributedRun.handingOnStops(arrived: false, stopsShort: nil, step: "step 7", waitedMilliseconds: 2000)
            == "the nodes' events of step 7 took longer than 2000 ms to arrive")
        #expect(DistributedRun.handingOnStops(arrived: true, stopsShort: "", step: "step 7", waitedMilliseconds: 2000) == "")
        #expect(DistributedRun.handingOnStops(arrived: true, stopsShort: nil, step: "step 7", waitedMilliseconds: 2000) == nil)
    }

    /// What a run hands on, and why it stopped.
    final class Handed: Sendable {
        let events = Mutex<[TraceEvent]>([])
        let stops = Mutex<[String]>([])
    }

    static let text = #"""
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": { "R": { "children": ["A", "B"] }, "A": {}, "B": {} },
          "placement": { "A": "b", "B": "c" },
          "steps": [ { "resizeWindow": [568, 320] }, { "resizeWindow": [320, 568] }, { "resizeWindow": [568, 320] } ] }
        """#

    static func options(_ handed: Handed) -> DistributedOptions {
        var options = loopbackOptions()
        // A step's events are waited for this long before printing stops as "late": a bound no
        // loaded or pinned machine reaches, so that only the cause each test makes stops it (the
        // wait ends as soon as they arrive).
        options.peerTimeoutMilliseconds = 30_000
        options.stepTraced = { events in handed.events.withLock { $0 += events } }
        options.stepTracingStopped = { reason in handed.stops.withLock { $0.append(reason) } }
        return options
    }

    @Test("a run hands on every step as it ends: the start of its merged trace, all of it but what the end adds")
    func aRunHandsOnItsTrace() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "live.json")
        let handed = Handed()
        let run = try await DistributedRun.run(scenario, scenarioText: Self.text, options: Self.options(handed))
        let events = handed.events.withLock { $0 }
        #expect(handed.stops.withLock { $0 }.isEmpty)
        #expect(events.map(\.id) == run.events.prefix(events.count).map(\.id))
        // Every step's header and the workers' events of the last step were handed on.
        #expect(events.contains { $0.canonicalLine == "== step 3: resizeWindow 568x320" })
        #expect(events.contains { $0.id.node == "c" && $0.step == 3 })
    }

    @Test("a worker whose trace is refused stops the handing on, said once; the run's trace still has what arrived")
    func aRefusedTraceStopsIt() async throws {
        let scenario = try ScenarioDecoder.decode(Self.text, file: "live.json")
        let handed = Handed()
        var options = Self.options(handed)
        options.traceLimit = TraceDataLimit(bytes: 64, parts: 4096)
        do {
            _ = try await DistributedRun.run(scenario, scenarioText: Self.text, options: options)
            Issue.record("a trace past its bound is a fault of the run")
        } catch {
            guard case .faults = error else { throw error }
        }
        let stops = handed.stops.withLock { $0 }
        #expect(stops.count == 1, "\(stops)")
        #expect(stops.first?.hasSuffix("'s trace was refused") == true, "\(stops)")
        #expect(handed.events.withLock { $0 }.isEmpty)
    }
}
