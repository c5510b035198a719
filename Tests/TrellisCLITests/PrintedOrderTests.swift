import Testing
import TrellisModel
import TrellisTrace
@testable import TrellisCLI

/// `LiveTrace.close` warns when what was printed as the run went is not the start of the run's
/// trace: `PrintedOrder` tells two sequences of events apart by their ids and order.
@Suite struct PrintedOrderTests {
    static func event(_ node: String, _ sequence: UInt64) -> TraceEvent {
        TraceEvent(id: EventRef(node: node, sequence: sequence), lamport: sequence, cause: nil, controller: "R", transition: nil,
                   step: 0, message: .layout(.viewWillLayoutSubviews), time: 0)
    }

    @Test("the same events in the same order are the same order; swapped, another event or one more are not")
    func tellsOrdersApart() {
        let a = Self.event("b", 1), b = Self.event("c", 1), c = Self.event("b", 2)
        let order = PrintedOrder().adding([a, b])
        #expect(order == PrintedOrder().adding([a]).adding([b]))
        #expect(order != PrintedOrder().adding([b, a]))
        #expect(order != PrintedOrder().adding([a, c]))
        #expect(order != PrintedOrder().adding([a, b, c]))
        // A node name is ended, so that "b" + 1 and "b1" + … cannot meet.
        #expect(PrintedOrder().adding([Self.event("b", 0x31)]) != PrintedOrder().adding([Self.event("b1", 0)]))
    }

    @Test("close prints what the run's trace holds beyond what was printed and returns the count, once; it tells a printed start that is not the trace's")
    func closePrintsTheRest() {
        let all = [Self.event("main", 1), Self.event("b", 1), Self.event("main", 2)]
        let live = LiveTrace(recorder: nil, jsonLines: false, runID: "r")
        #expect(live.printedStartDiffered == nil)
        live.printNext(Array(all.prefix(2)))
        #expect(live.close(with: all) == 3)
        #expect(live.printedStartDiffered == false)
        live.printNext([Self.event("main", 3)])
        #expect(live.close(with: all) == 3)
        // Printed in another order than the trace's, or more than it has: said (a warning).
        let swapped = LiveTrace(recorder: nil, jsonLines: false, runID: "r")
        swapped.printNext([all[1], all[0]])
        #expect(swapped.close(with: all) == 3)
        #expect(swapped.printedStartDiffered == true)
        let more = LiveTrace(recorder: nil, jsonLines: false, runID: "r")
        more.printNext(all)
        #expect(more.close(with: Array(all.prefix(1))) == 3)
        #expect(more.printedStartDiffered == true)
    }
}
