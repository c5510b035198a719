import Testing
import TrellisModel
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
        // Node b recorded one event of step 1 before it answered for step 0.
        let b = [Self.event("b", 1, lamport: 2, step: 0), Self.event("b", 2, lamport: 5, step: 1)]
        let step0 = live.take(through: 0, from: [("main", main), ("b", b)])
        #expect(step0.map(\.id) == [EventRef(node: "main", sequence: 1), EventRef(node: "b", sequence: 1)])
        #expect(live.handed(of: "main") == 1)
        #expect(live.handed(of: "b") == 1)
        // Step 1: what came after, merged by clock; node c had nothing.
        let more = [Self.event("b", 3, lamport: 3, step: 1)]
        let step1 = live.take(through: 1, from: [("main", Array(main.dropFirst())), ("b", Array(b.dropFirst()) + more), ("c", [])])
        #expect(step1.map(\.id.description) == ["b#3", "main#2", "b#2"])
        #expect(live.handed(of: "b") == 3)
        #expect(live.goesOn)
        live.stop()
        #expect(!live.goesOn)
    }
}
