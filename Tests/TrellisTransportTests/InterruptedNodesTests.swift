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

}
