import Testing
import TrellisModel
@_spi(Testing) import TrellisRuntime
import TrellisTrace
@testable import TrellisTransport
import TrellisWire

/// A behaviour that acts, on a node that is not the conductor's: what `performAction` gives it,
/// and the requests it makes, which must reach the conductor's window (TWP §8.6).
private struct Closer: ViewControllerBehavior {
    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
        guard action == "close" else { return false }
        vc.dismiss(animated: false)
        vc.note("height \(Int(value?["height"]?.number ?? -1))")
        return true
    }

    func valueType(forAction action: String) -> ActionValueType? { action == "close" ? .object : nil }
}

@Suite struct ActionCallTests {
    static func host() async -> (NodeHost, TraceRecorder) {
        let recorder = TraceRecorder(node: "b")
        let environment = RuntimeEnvironment(recorder: recorder)
        let host = NodeHost(
            nodeName: "b", conductorNode: "a", environment: environment,
            transport: NodeTransport(nodeName: "b", recorder: recorder), profile: .ios8,
            placement: [ControllerID("C"): "b"])
        let controller = await Controller.standalone(
            ControllerDescription(ControllerID("C"), behavior: Closer()), children: [], presentationController: nil, environment: environment)
        await host.register([ControllerID("C"): controller])
        return (host, recorder)
    }

    static func perform(_ action: String, value: String) -> WireMessage {
        WireMessage(.call(target: WireAddress(node: "b", controller: "C", incarnation: 1), code: .performAction,
                          arguments: [.string(action), .string(value), .eventRef(WireEventRef(node: "a", sequence: 9))]),
                    correlationID: 1)
    }

    @Test("performAction: the value is read as JSON and checked against the behaviour's type; the outcome comes back")
    func performActionReadsTheValueAndReturnsTheOutcome() async {
        let (host, recorder) = await Self.host()
        #expect(await host.handle(Self.perform("close", value: #"{"height":216}"#)) == .ok([.string("handled"), .string(""), .string("")]))
        let lines = recorder.events.map(\.canonicalLine)
        #expect(Array(lines.prefix(2)) == ["C request dismiss", "C note height 216"])
        // Both caused by the action's event on the conductor.
        #expect(recorder.events.prefix(2).allSatisfy { $0.cause == EventRef(node: "a", sequence: 9) })
        // Before its RETURN, the node sent the request to the conductor's window (TWP §8.6): here
        // there is no conductor to reach, so that call is the run's fault.
        #expect(lines.count == 3)
        #expect(lines.last?.contains("behaviorRequest") == true)
        #expect(await host.handle(Self.perform("close", value: "216")) == .ok([.string("wrongValueType"), .string("object"), .string("number")]))
        #expect(await host.handle(Self.perform("close", value: "")) == .ok([.string("wrongValueType"), .string("object"), .string("")]))
        #expect(await host.handle(Self.perform("wave", value: "")) == .ok([.string("notHandled"), .string(""), .string("")]))
        guard case let .fault(text) = await host.handle(Self.perform("close", value: "{oops")) else {
            Issue.record("a value that is not JSON was taken")
            return
        }
        #expect(text.hasPrefix("performAction: the action's value is not JSON"))
    }

    @Test("only a node other than the conductor's, in a run naming a behaviour, looks for requests around its CALLs")
    func requestsAreLookedForOnlyWhereABehaviourCanMakeThem() async {
        let recorder = TraceRecorder(node: "b")
        let environment = RuntimeEnvironment(recorder: recorder)
        func host(_ node: String, namesBehaviors: Bool) -> NodeHost {
            NodeHost(
                nodeName: node, conductorNode: "a", environment: environment,
                transport: NodeTransport(nodeName: node, recorder: recorder), profile: .ios8, placement: [:], namesBehaviors: namesBehaviors)
        }
        #expect(host("b", namesBehaviors: true).sendsRequests)
        #expect(!host("b", namesBehaviors: false).sendsRequests)
        #expect(!host("a", namesBehaviors: true).sendsRequests)
        // A request queued where none is looked for stays unsent: no call, no fault.
        let quiet = host("b", namesBehaviors: false)
        environment.enqueueRequest(QueuedRequest(requester: "C", request: .dismiss(animated: false), event: EventRef(node: "b", sequence: 1)))
        await quiet.sendRequests()
        #expect(recorder.events.isEmpty)
        #expect(environment.takeRequests().count == 1)
    }

    @Test("each request survives the wire: written as its list, read back the same")
    func requestsRoundTrip() throws {
        let requests: [BehaviorRequest] = [
            .present("Q", animated: true, style: .formSheet), .present("Q", animated: false, style: nil),
            .dismiss(animated: true), .show("S"), .showDetail("D"), .setPreferredContentSize(Size(100, 200)),
            .setTraitOverride(child: "A", traits: TraitCollection(horizontalSizeClass: .regular)),
            .setTraitOverride(child: "A", traits: nil),
            .setPresentedViewFrame(Rect(x: 0, y: 152, width: 320, height: 200)),
        ]
        let value = CallValue<BehaviorRequest>.request
        for request in requests {
            var reader = CallReader(code: .behaviorRequest, values: [value.encode(request)], runNodes: ["a"])
            #expect(try value.decode(&reader) == request)
        }
        var unknown = CallReader(code: .behaviorRequest, values: [.list([.string("explode")])], runNodes: ["a"])
        #expect(throws: CallFault.self) { try value.decode(&unknown) }
    }

    @Test("an action's value crosses the wire exactly: 216.5004 stays 216.5004, not the trace's 216.5 (TWP §8, 0x0A)")
    func actionValuesRoundTripExactly() throws {
        let values: [ActionValue] = [
            .number(216.5004), .number(0.1), .number(-3), .number(1e-7), .number(123_456_789.123_456_79),
            .object([ActionMember("dy", .number(216.5004)), ActionMember("items", .array([.number(2.0005), .string("a\"b"), .null, .bool(true)]))]),
        ]
        let value = CallValue<ActionValue?>.actionValue
        for sent in values {
            var reader = CallReader(code: .performAction, values: [value.encode(sent)], runNodes: ["a"])
            #expect(try value.decode(&reader) == sent)
        }
        #expect(value.encode(.number(216.5004)) == .string("216.5004"))
        #expect(value.encode(.number(216)) == .string("216"))
        var none = CallReader(code: .performAction, values: [value.encode(nil)], runNodes: ["a"])
        #expect(try value.decode(&none) == nil)
        // The trace keeps its canonical text.
        #expect(ActionValue.number(216.5004).description == "216.5")
        #expect(!ActionValue.array([.number(.infinity)]).isJSON && ActionValue.number(216.5004).isJSON)
    }
}
