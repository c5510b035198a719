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

    /// A `layout` CALL (TWP/1.1 §8: rect frame, cause) to `C`.
    static func layout(causedBy cause: WireEventRef, frame: Rect = Rect(x: 0, y: 0, width: 320, height: 568)) -> WireMessage {
        WireMessage(.call(target: WireAddress(node: "b", controller: "C", incarnation: 1), code: .layout,
                          arguments: [.rect(frame), .eventRef(cause)]), correlationID: 1)
    }

    @Test("a failed call to the conductor's window is a fault of the window's node, node:<conductor> (TWP/1 §9.3 rule 5)")
    func aFailedWindowCallIsTheConductorNodesFault() async throws {
        let (host, recorder) = await Self.host()
        // The transport never started: the call to the window on `a` fails at once.
        #expect(await host.windowTransition(animated: false) == nil)
        let fault = try #require(recorder.events.last)
        #expect(fault.controller == ControllerID("node:a"))
        #expect(fault.canonicalLine.hasPrefix("node:a fault windowTransition to the window on node a failed: "))
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

    @Test("layout takes the frame's size: callbacks when it changes, none when it does not")
    func layoutAppliesTheFramesSize() async {
        let (host, recorder) = await Self.host()
        let cause = WireEventRef(node: "a", sequence: 3)
        #expect(await host.handle(Self.layout(causedBy: cause, frame: Rect(x: 10, y: 20, width: 320, height: 568))) == .ok([]))
        let afterFirst = recorder.events.count
        #expect(afterFirst == 2)  // viewWillLayoutSubviews, viewDidLayoutSubviews
        // Only the origin moves: the size is the one applied, so no callbacks.
        #expect(await host.handle(Self.layout(causedBy: cause, frame: Rect(x: 0, y: 64, width: 320, height: 568))) == .ok([]))
        #expect(recorder.events.count == afterFirst)
    }

    @Test("the 1.0 forms of layout, initialLayout and refresh are refused, naming the rect they lack")
    func olderFormsAreRefused() async {
        let (host, recorder) = await Self.host()
        let target = WireAddress(node: "b", controller: "C", incarnation: 1)
        let cause = WireValue.eventRef(WireEventRef(node: "a", sequence: 3))
        let traits = WireValue.traits(.unspecified)
        let calls: [(WireCallCode, [WireValue], String)] = [
            (.layout, [cause], "layout: argument 1 must be a rect, got eventref"),
            (.initialLayout, [.size(Size(320, 568)), traits, cause], "initialLayout: argument 1 must be a rect or none, got size"),
            (.refresh, [.size(Size(320, 568)), traits, cause], "refresh: argument 1 must be a rect, got size"),
        ]
        for (code, arguments, fault) in calls {
            #expect(await host.handle(WireMessage(.call(target: target, code: code, arguments: arguments), correlationID: 1))
                == .fault(fault))
        }
        #expect(recorder.events.isEmpty)
    }

    @Test("a CALL with more arguments than its code takes is a fault, and nothing is done (TWP/1 §8)")
    func extraArgumentsAreRefused() async {
        let (host, recorder) = await Self.host()
        let target = WireAddress(node: "b", controller: "C", incarnation: 1)
        let cause = WireValue.eventRef(WireEventRef(node: "a", sequence: 3))
        #expect(await host.handle(WireMessage(.call(target: target, code: .snapshot, arguments: [.bool(true)]), correlationID: 1))
            == .fault("snapshot: 1 argument, expected none"))
        #expect(await host.handle(WireMessage(
            .call(target: target, code: .layout, arguments: [.rect(Rect(x: 0, y: 0, width: 320, height: 568)), cause, .none]),
            correlationID: 2)) == .fault("layout: 3 arguments, expected 2"))
        #expect(recorder.events.isEmpty)
        // Exactly as many is served.
        guard case .ok(let results) = await host.handle(WireMessage(.call(target: target, code: .snapshot, arguments: []), correlationID: 3)) else {
            Issue.record("a snapshot without arguments was refused")
            return
        }
        #expect(results.count == 4)
    }

    @Test("a CALL reaches only what its declaration says it goes to, and what cannot take it answers a fault")
    func callsGoOnlyToTheirRecipients() async {
        let (host, recorder) = await Self.host()
        func handle(_ controller: String, incarnation: UInt32 = 1, _ code: WireCallCode, _ arguments: [WireValue]) async -> WireResult {
            await host.handle(WireMessage(
                .call(target: WireAddress(node: "b", controller: controller, incarnation: incarnation), code: code, arguments: arguments),
                correlationID: 1))
        }
        #expect(await handle("C", .adaptForPresentation, [.none]) == .fault("adaptForPresentation: C is not a presentation controller"))
        #expect(await handle("C", .wrapperChanged, [.string("P"), .none]) == .fault("wrapperChanged goes to the window, not to C"))
        #expect(await handle("", incarnation: 0, .windowTransition, [.bool(true)]) == .fault("undeliverable: no window on node b"))
        #expect(await handle("C", incarnation: 2, .select, [.int(0), .none])
            == .fault("undeliverable: stale incarnation 2 of C (now 1)"))
        #expect(await handle("X", .select, [.int(0), .none]) == .fault("undeliverable: no controller X on node b"))
        // Every argument the table lists is read, a makePresentationController's cause too (TWP §8).
        #expect(await handle("C", .makePresentationController, [
            .string("formSheet"), .size(Size(320, 568)), .traits(.unspecified), .size(Size(320, 568)),
        ]) == .fault("makePresentationController: argument 5 (an event ref or none) is missing"))
        #expect(recorder.events.isEmpty)
    }
}
