import Testing
import TrellisDistributed

/// What an interrupted conductor says of its nodes (`DistributedRun.interruptedNodes`): only
/// what it did — it stopped the nodes it started, told the ones started by hand goodbye.
struct InterruptedNodesTests {
    @Test func anInterruptedConductorSaysWhatItDidWithEachKindOfNode() {
        #expect(DistributedRun.interruptedNodes(spawned: 2, toldByHand: [], acknowledged: []) == "the nodes it started were stopped")
        #expect(DistributedRun.interruptedNodes(spawned: 0, toldByHand: ["b", "c"], acknowledged: ["b", "c"])
            == "the nodes started by hand (b, c) were told goodbye")
        #expect(DistributedRun.interruptedNodes(spawned: 1, toldByHand: ["b"], acknowledged: [])
            == "the nodes it started were stopped; the node started by hand (b) was told goodbye (b did not answer)")
        #expect(DistributedRun.interruptedNodes(spawned: 0, toldByHand: [], acknowledged: []) == nil)
    }

    @Test("interrupted while a step is under way: the trace lacks the other nodes' events of it, and says so; between steps, nothing")
    func theStepUnderWayIsSaid() {
        #expect(DistributedRun.stepUnderWayLacks(currentStep: 7, stepsEnded: 6, steps: 10, hasWorkers: true)
            == "the trace lacks the other nodes' events of step 7, which was under way (a node sends a step's events as it ends)")
        #expect(DistributedRun.stepUnderWayLacks(currentStep: 6, stepsEnded: 6, steps: 10, hasWorkers: true) == nil)
        #expect(DistributedRun.stepUnderWayLacks(currentStep: 7, stepsEnded: 6, steps: 10, hasWorkers: false) == nil)
        // The initial layout's events ship as it ends too.
        #expect(DistributedRun.stepUnderWayLacks(currentStep: 0, stepsEnded: 0, steps: 10, hasWorkers: true) == nil)
    }

}
