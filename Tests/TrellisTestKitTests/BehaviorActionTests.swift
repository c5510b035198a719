import Foundation
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestKit

/// A custom presentation controller that acts as UIKit code does (SPEC §4.2): dismisses on a tap
/// on its dimming view, moves the presented view up by the keyboard's height, and animates
/// alongside its presentation with the transition coordinator.
struct ActingSheet: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width, 200)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        return Rect(origin: Point(x: 0, y: bounds.size.height - 200), size: Size(bounds.size.width, 200))
    }

    func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
        pc.superPresentationTransitionWillBegin()
        pc.transitionCoordinator?.animate(alongsideTransition: { _ in }, completion: { _ in })
    }

    func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
        pc.superDismissalTransitionWillBegin()
        pc.transitionCoordinator?.animate(alongsideTransition: nil, completion: { _ in })
    }

    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        switch action {
        case "dimmingTapped":
            pc.dismiss()
            return true
        case "keyboardWillShow":
            var frame = pc.presentedViewFrame
            frame.origin.y -= value?.number ?? 0
            pc.setPresentedViewFrame(frame)
            return true
        default:
            return false
        }
    }

    func valueType(forAction action: String) -> ActionValueType? {
        action == "keyboardWillShow" ? .number : nil
    }
}

/// A view controller that presents on a tap, and asks for things a rule refuses.
struct Tapper: ViewControllerBehavior {
    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
        switch action {
        case "tap":
            vc.present("Q", animated: false)
            return true
        case "close":
            vc.dismiss(animated: false)
            return true
        case "grow":
            vc.setPreferredContentSize(Size(100, 100))
            vc.note("asked")
            return true
        default:
            return false
        }
    }
}

/// A view controller that requests a presentation from inside a size transition.
struct PresentsOnRotation: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        vc.present("Q", animated: false)
        await vc.superViewWillTransition(to: size, with: coordinator)
    }
}

/// Dismisses itself as soon as it appears.
struct GoesAway: ViewControllerBehavior {
    func viewDidAppear(in vc: isolated any ViewControllerContext) {
        vc.dismiss(animated: false)
    }
}

/// Presents P again whenever it reappears: with `GoesAway`, a loop of requests that never ends.
struct BringsBack: ViewControllerBehavior {
    func viewDidAppear(in vc: isolated any ViewControllerContext) {
        vc.present("P", animated: false)
    }
}

/// Asks for each of the other requests on cue.
struct Asker: ViewControllerBehavior {
    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
        switch action {
        case "override": vc.setOverrideTraitCollection(TraitCollection(horizontalSizeClass: .regular), forChild: "A")
        case "overrideStranger": vc.setOverrideTraitCollection(nil, forChild: "Q")
        case "show": vc.show("Q")
        case "grow": vc.setPreferredContentSize(Size(100, 100))
        default: return false
        }
        return true
    }
}

/// Calls a presentation-controller super step outside its hook.
struct MisplacedSuper: PresentationControllerBehavior {
    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        pc.superPresentationTransitionWillBegin()
        return true
    }
}

@Suite struct BehaviorActionTests {
    @Test("override, show and preferred-size requests are the steps they stand for; a stranger child is a warning")
    func otherRequests() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R", behavior: Asker()) { ViewController("A") }
            ViewController("Q", modalPresentationStyle: .overFullScreen)
        })
        await store.action("override", on: "R")
        store.expect([
            "R action(override)",
            "R request setTraitOverride child A h=regular",
            "A willTransition(to: h=regular v=regular idiom=phone scale=2)",
            "A traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
        ], kinds: ["action", "request", "willTransition", "traitCollectionDidChange"])
        await store.action("overrideStranger", on: "R")
        store.expect(["R action(overrideStranger)", "R request setTraitOverride child Q removed", "R warning setTraitOverride: Q is not a child of R"])
        await store.action("show", on: "R")
        store.expect(["R action(show)", "R request show Q", "R show(Q)", "R present(Q, style: overFullScreen)"],
                     kinds: ["action", "request", "show", "present"])
        await store.action("grow", on: "R")
        store.expect(["R action(grow)", "R request setPreferredContentSize 100x100"])
        #expect(await store.state(of: "R")?.preferredContentSize == Size(100, 100))
        await store.finish()
    }

    @Test("a presentation controller's super step called outside its hook is an error line")
    func misplacedSuperStep() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R")
            ViewController("S", modalPresentationStyle: .custom, presentationController: PresentationControllerDescription(behavior: MisplacedSuper()))
        })
        await store.present("S", from: "R", animated: false)
        store.skipReceivedEvents()
        await store.action("anything", on: "pc:S")
        store.expect(["pc:S action(anything)", "pc:S error superTransitionCallback called outside transitionCallback"])
        await store.finish()
    }

    @Test("requests that keep causing requests stop at the limit with an error; the window goes on")
    func runAwayRequestsStop() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R", behavior: BringsBack())
            ViewController("P", behavior: GoesAway(), modalPresentationStyle: .fullScreen)
        })
        store.exhaustivity = .off
        await store.present("P", from: "R", animated: false)
        let lines = store.received.map(\.canonicalLine)
        // A request from a hook without a super step is caused by that hook's event.
        let appeared = try #require(store.received.first { $0.canonicalLine == "P viewDidAppear" })
        let request = try #require(store.received.first { $0.canonicalLine == "P request dismiss" })
        #expect(request.cause == appeared.id)
        // 1000 carried out (P dismisses, R presents, in turn); the 1001st, P's, is not.
        #expect(lines.filter { $0 == "P request dismiss" }.count == BehaviorRequests.limitPerEvent / 2 + 1)
        #expect(lines.last == "P error more than \(BehaviorRequests.limitPerEvent) behaviour requests in one event: 1 left undone")
        store.skipReceivedEvents()
        // The window still takes events.
        await store.resizeWindow(to: Size(568, 320))
        #expect(store.received.contains { $0.canonicalLine == "R viewWillTransition(to: 568x320)" })
        store.skipReceivedEvents()
    }

    private func sheetWindow() -> HierarchyDescription {
        HierarchyDescription(.iPhonePortrait) {
            ViewController("R")
            ViewController(
                "S", modalPresentationStyle: .custom,
                presentationController: PresentationControllerDescription(shouldPresentInFullscreen: true, behavior: ActingSheet()))
        }
    }

    @Test("an action dismisses a presentation from behaviour code, after perform returns")
    func actionDismissesFromBehaviourCode() async throws {
        let store = try await TraceTestStore(sheetWindow())
        await store.present("S", from: "R", animated: false)
        store.skipReceivedEvents()
        await store.action("dimmingTapped", on: "pc:S")
        // The request is caused by the action, and the dismissal by the request.
        let action = try #require(store.received.first { $0.message == .action(name: "dimmingTapped", value: "") })
        let request = try #require(store.received.first { $0.message == .request("dismiss animated") })
        let dismissal = try #require(store.received.first { $0.message == .dismiss("S") })
        #expect(request.cause == action.id)
        #expect(dismissal.cause == request.id)
        store.expect([
            "pc:S action(dimmingTapped)",
            "pc:S request dismiss animated",
            "R dismiss(S)",
            "pc:S dismissalTransitionWillBegin(animated: true)",
            "S viewWillDisappear",
            "S viewDidDisappear",
            "pc:S dismissalTransitionDidEnd(completed: true)",
            "pc:S transitionCompletion",
            "R dismissCompletion(S)",
        ], kinds: nil)
        #expect(await store.window.structure["R"]?.presented == nil)
        await store.finish()
    }

    @Test("the coordinator in presentationTransitionWillBegin: alongside and completion at the transition's end")
    func coordinatorInPresentationTransitionWillBegin() async throws {
        let store = try await TraceTestStore(sheetWindow())
        await store.present("S", from: "R", animated: true)
        store.expect([
            "pc:S presentationTransitionWillBegin(animated: true)",
            "pc:S presentationTransitionDidEnd(completed: true)",
            "pc:S alongsideTransition",
            "pc:S transitionCompletion",
        ], kinds: ["presentationTransitionWillBegin", "presentationTransitionDidEnd", "alongsideTransition", "transitionCompletion"])
        await store.finish()
    }

    @Test("a keyboard action sets the presented view's frame; its value's type is checked")
    func keyboardMovesThePresentedView() async throws {
        let store = try await TraceTestStore(sheetWindow())
        await store.present("S", from: "R", animated: false)
        store.skipReceivedEvents()
        await store.action("keyboardWillShow", on: "pc:S", value: .number(216))
        store.expect([
            "pc:S action(keyboardWillShow, value: 216)",
            "pc:S request setPresentedViewFrame 0,152 320x200",
            "pc:S frameOfPresentedViewInContainerView -> 0,152 320x200",
        ])
        let state = try #require(await store.window.presentationController(presenting: "S"))
        #expect(await state.presentedViewFrame == Rect(origin: Point(x: 0, y: 152), size: Size(320, 200)))
        // The presented controller's own frame moved with it (no layout: its size is the same).
        await store.expectState(of: "S", ExpectedState(frame: Rect(origin: Point(x: 0, y: 152), size: Size(320, 200))))
        await store.action("keyboardWillShow", on: "pc:S", value: .string("tall"))
        store.expect([
            "pc:S action(keyboardWillShow, value: \"tall\")",
            "pc:S error action keyboardWillShow on pc:S: its behaviour expects a number value, got a string",
        ])
        await store.action("keyboardWillShow", on: "pc:S")
        store.expect([
            "pc:S action(keyboardWillShow)",
            "pc:S error action keyboardWillShow on pc:S: its behaviour expects a number value, got none",
        ])
        // Nothing moved.
        #expect(await state.presentedViewFrame == Rect(origin: Point(x: 0, y: 152), size: Size(320, 200)))
        await store.finish()
    }

    @Test("an action nobody handles is a warning; one on a controller not in the window is a warning; one on an unknown id is refused at its line")
    func unhandledAndAbsentTargetsAreWarnings() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A") }
            ViewController("Q", modalPresentationStyle: .fullScreen)
        })
        await store.action("swipe", on: "A", value: .object([ActionMember("dx", .number(3))]))
        store.expect([
            "A action(swipe, value: {\"dx\":3})",
            "A warning action swipe on A was not handled (its behaviour's perform returned false)",
        ])
        await store.action("tap", on: "Q")
        store.expect(["R warning action tap: Q is not in the window"])
        await store.action("tap", on: "pc:Q")
        store.expect(["R warning action tap: pc:Q is not in the window (Q is not presented)"])
        // A typo is no controller of the window: refused, as a present of it is, at the line.
        for target: ControllerID in ["nobody", "pc:nobody"] {
            let line = #line + 2
            await withKnownIssue {
                await store.action("tap", on: target)
            } matching: { issue in
                issue.isAt(line: line, fileID: #fileID) && issue.text.contains("the window refused action tap on \(target)")
                    && issue.text.contains("unknown controller \"nobody\"")
            }
            #expect(store.received.map(\.canonicalLine).last == #"R error unknown controller "nobody""#)
            store.skipReceivedEvents()
        }
        await store.finish()
    }

    @Test("requests that break a rule: present while presenting (R30), dismiss with nothing presented")
    func requestsUnderTheRulesOfSteps() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R", behavior: Tapper()) { ViewController("A") }
            ViewController("P", modalPresentationStyle: .overFullScreen)
            ViewController("Q", modalPresentationStyle: .fullScreen)
        })
        await store.action("close", on: "R")
        store.expect([
            "R action(close)",
            "R request dismiss",
            "R warning dismiss: R has nothing to dismiss",
        ])
        await store.present("P", from: "R")
        store.skipReceivedEvents()
        await store.action("tap", on: "R")
        store.expect([
            "R action(tap)",
            "R request present Q",
            "R warning Attempt to present Q on R (from R) which is already presenting P",
        ])
        #expect(await store.window.structure["R"]?.presented == "P")
        await store.finish()
    }

    @Test("a request made inside a transition is carried out after the whole transition, in the same step")
    func requestInsideATransitionWaitsForItsEnd() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A", behavior: PresentsOnRotation()) }
            ViewController("Q", modalPresentationStyle: .overFullScreen)
        })
        await store.resizeWindow(to: Size(568, 320))
        let lines = store.received.map(\.canonicalLine)
        let request = try #require(lines.firstIndex(of: "A request present Q"))
        let lastLayout = try #require(lines.lastIndex { $0.hasSuffix("viewDidLayoutSubviews") && !$0.hasPrefix("Q") })
        let present = try #require(lines.firstIndex(of: "R present(Q, style: overFullScreen)"))
        #expect(request < lastLayout)
        #expect(lastLayout < present)
        store.skipReceivedEvents()
        await store.finish()
    }

    @Test("a request that fails is an error under the window's root, as the same step's is (SPEC §4.2)")
    func failedRequestIsTheRootsError() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A", behavior: Tapper()) }
        })
        store.exhaustivity = .off
        await store.action("tap", on: "A")
        #expect(store.received.map(\.canonicalLine).last == #"R error unknown controller "Q""#)
        store.skipReceivedEvents()
    }

    @Test("the single-controller kits report what an action requested")
    func singleControllerKitsReportRequests() async {
        let vc = await ControllerUnderTest("R", behavior: Tapper(), size: Size(320, 568))
        let report = await vc.action("grow")
        #expect(report.requests == [.setPreferredContentSize(Size(100, 100))])
        #expect(report.notes == ["asked"])
        #expect(report.lines == ["R action(grow)", "R request setPreferredContentSize 100x100", "R note asked"])
        let unhandled = await vc.action("nothing")
        #expect(unhandled.requests.isEmpty)
        #expect(unhandled.lines.last == "R warning action nothing on R was not handled (its behaviour's perform returned false)")

        let pc = await PresentationControllerUnderTest(
            presented: "S", style: .custom, description: PresentationControllerDescription(behavior: ActingSheet()),
            containerSize: Size(320, 568))
        let tapped = await pc.action("dimmingTapped")
        #expect(tapped.requests == [.dismiss(animated: true)])
        let wrongType = await pc.action("keyboardWillShow", value: .bool(true))
        #expect(wrongType.requests.isEmpty)
        #expect(wrongType.lines.last == "pc:S error action keyboardWillShow on pc:S: its behaviour expects a number value, got a boolean")
        let anArray = await pc.action("keyboardWillShow", value: .array([]))
        #expect(anArray.lines.last == "pc:S error action keyboardWillShow on pc:S: its behaviour expects a number value, got an array")
    }
}

/// SPEC §4.2 with a registry: a scenario file names the behaviours, the test kit builds from the
/// file or from the registry's names, and an `action` step dismisses from behaviour code.
@Suite struct RegisteredActionTests {
    static let registry = BehaviorRegistry()
        .presentationController("Sheet", ActingSheet())
        .viewController("Tapper", Tapper())
        .adaptiveDelegate("Full", AdaptiveDelegate(answer: .style(.fullScreen)))

    static let scenario = """
        { "scenario": "sheet", "window": { "size": [320, 568] }, "root": "R",
          "controllers": {
            "R": {},
            "S": { "modalPresentationStyle": "custom", "presentationController": { "behavior": "Sheet" } } },
          "steps": [
            { "present": "S", "from": "R", "animated": false },
            { "action": "dimmingTapped", "on": "pc:S" },
            { "expect": ["pc:S action(dimmingTapped)", "pc:S request dismiss animated", "R dismiss(S)", "R dismissCompletion(S)"] }
          ] }
        """

    @Test("a scenario's action step dismisses a presentation from behaviour code, its expect step holds")
    func scenarioActionDismisses() async throws {
        let run = try await ScenarioRunner.run(try ScenarioDecoder.decode(Self.scenario, file: "sheet.json", registry: Self.registry))
        #expect(run.passed, "\(run.failures)")
        #expect(run.canonicalLines.contains("== step 2: action dimmingTapped on pc:S"))
    }

    @Test("a store from a scenario file and a registry")
    func storeFromAScenarioFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("acting-sheet-\(UInt32.random(in: 0...UInt32.max)).json").path
        try Self.scenario.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try await TraceTestStore(try ScenarioRunner.hierarchy(ofFile: path, registry: Self.registry))
        await store.present("S", from: "R", animated: false)
        store.skipReceivedEvents()
        await store.action("dimmingTapped", on: "pc:S")
        store.expect(["pc:S action(dimmingTapped)", "pc:S request dismiss animated", "R dismiss(S)", "R dismissCompletion(S)"],
                     kinds: ["action", "request", "dismiss", "dismissCompletion"])
        #expect(await store.window.structure["S"]?.presenting == nil)
        await store.finish()
    }

    @Test("the builder and the single-controller kits take registered behaviours and Swift delegates")
    func kitsTakeRegisteredBehaviours() async throws {
        let registry = Self.registry
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R", behavior: registry.registeredViewController("Tapper"))
            ViewController("Q", modalPresentationStyle: .formSheet, adaptiveDelegate: registry.registeredAdaptiveDelegate("Full"))
        })
        await store.action("tap", on: "R")
        store.expect(["R action(tap)", "R request present Q", "R present(Q, style: formSheet)"], kinds: ["action", "request", "present"])
        await store.setTraits(TraitCollection(horizontalSizeClass: .compact))
        store.expect(["pc:Q adaptivePresentationStyle -> fullScreen"], kinds: ["adaptivePresentationStyle"])
        await store.finish()

        let pc = await PresentationControllerUnderTest(
            presented: "S", style: .custom,
            description: PresentationControllerDescription(behavior: registry.registeredPresentationController("Sheet")),
            containerSize: Size(320, 568))
        #expect(await pc.action("dimmingTapped").requests == [BehaviorRequest.dismiss(animated: true)])
        let vc = await ControllerUnderTest("R", behavior: registry.registeredViewController("Tapper"), size: Size(320, 568))
        #expect(await vc.action("tap").requests == [BehaviorRequest.present("Q", animated: false, style: nil)])
    }

    @Test("a name the registry lacks fails the test where it is asked for")
    func unknownNameFails() {
        withKnownIssue {
            _ = Self.registry.registeredPresentationController("Nope")
        } matching: { $0.description.contains("no presentation-controller behaviour is registered as \"Nope\"") }
    }
}
