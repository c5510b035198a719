import Testing
import TrellisModel
@_spi(Testing) import TrellisRuntime
import TrellisTrace
@testable import TrellisTransport
import TrellisWire

/// What a node does with a CALL's arguments before any controller sees them.
@Suite struct NodeHostCallTests {
    /// Node `b` of a run whose conductor is `a`, hosting controller `C` (and `D` placed on `c`).
    static func host() async -> (NodeHost, TraceRecorder) {
        let recorder = TraceRecorder(node: "b")
        let environment = RuntimeEnvironment(recorder: recorder)
        let host = NodeHost(
            nodeName: "b", conductorNode: "a", environment: environment,
            transport: NodeTransport(nodeName: "b", recorder: recorder), profile: .ios8,
            placement: [ControllerID("C"): "b", ControllerID("D"): "c"])
        let controller = await Controller.standalone(
            ControllerDescription(ControllerID("C")), children: [], presentationController: nil, environment: environment)
        await host.register([ControllerID("C"): controller])
        return (host, recorder)
    }

    static func layout(causedBy cause: WireEventRef) -> WireMessage {
        WireMessage(.call(target: WireAddress(node: "b", controller: "C", incarnation: 1), code: .layout,
                          arguments: [.eventRef(cause)]), correlationID: 1)
    }

    @Test("a cause naming a node of the run is taken; one naming no node of it is refused, and nothing is recorded")
    func causeMustNameANodeOfTheRun() async {
        let (host, recorder) = await Self.host()
        #expect(await host.handle(Self.layout(causedBy: WireEventRef(node: "c", sequence: 7))) == .ok([]))
        let recorded = recorder.events.count
        #expect(await host.handle(Self.layout(causedBy: WireEventRef(node: "stranger", sequence: 7)))
            == .fault("layout: cause stranger#7 names no node of this run"))
        #expect(recorder.events.count == recorded)
    }
}
