import Foundation
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R2a (no size query outside a size transition) and R63 (a custom presentation keeps its
// presented view's frame, autoresized, unless it places it again); CONFORMANCE 30 and 38. Every
// expected frame is worked out by hand from the rule it tests.

/// The sizeForChild events of `events` that no size transition asked: a `sizeForChild` is asked
/// by a default `viewWillTransition` (R2, R7) of its own controller, so its cause is that event.
private func queriesOutsideSizeTransitions(_ events: [TraceEvent]) -> [String] {
    let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return events.filter { event in
        guard case .sizeForChild = event.message else { return false }
        guard let cause = event.cause.flatMap({ byID[$0] }), case .viewWillTransition = cause.message else { return true }
        return cause.controller != event.controller
    }.map(\.canonicalLine)
}

@Suite("R2a: SFC is asked only by a size transition")
struct NoInventedQueryTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples")

    static func exampleNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Every example — initial layouts, presentations of every style, pushes, tab switches,
    /// showDetail, adaptations — prints a sizeForChild line only under a viewWillTransition.
    @Test(arguments: exampleNames())
    func noExampleAsksOutsideASizeTransition(_ name: String) async throws {
        let scenario = try ScenarioDecoder.load(path: Self.examples.appendingPathComponent(name).path)
        let run = try await ScenarioRunner.run(scenario)
        #expect(queriesOutsideSizeTransitions(run.events) == [], "\(name)")
    }

    /// CONFORMANCE 38: a container with a sizeForChild rule lays its children out by the rule
    /// without a query; a form sheet, a popover, a custom presentation and a push print no
    /// sizeForChild line; the first rotation does.
    @Test func theFirstLayoutAndPresentationsAskNoSize() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "R",
              "controllers": {
                "R": { "children": ["A", "N"], "layout": "row", "overrides": { "sizeForChild": { "fraction": [0.5, 1] } } },
                "A": {}, "N": { "kind": "navigation", "children": ["N1"] }, "N1": {}, "N2": {},
                "F": { "modalPresentationStyle": "formSheet" },
                "P": { "modalPresentationStyle": "popover", "popoverSource": { "view": "A", "rect": [10, 10, 20, 20] } },
                "S": { "modalPresentationStyle": "custom",
                       "presentationController": { "sizeForChild": { "fraction": [0.5, 1] }, "frame": { "align": "right" } } } },
              "steps": [ { "present": "F", "from": "A" }, { "dismiss": "F" },
                         { "present": "P", "from": "A" }, { "dismiss": "P" },
                         { "present": "S", "from": "A" }, { "push": "N2", "onto": "N" },
                         { "resizeWindow": [768, 1024] } ] }
            """)
        try await stage.runAll()
        for step in 0...6 {
            #expect(stage.lines(step: step, kinds: ["sizeForChild"]) == [], "step \(step)")
        }
        // The rule still sized everything: R's halves, the sidebar, the pushed controller.
        #expect(stage.lines(step: 5, kinds: ["frameOfPresentedViewInContainerView"]) == [
            "pc:S frameOfPresentedViewInContainerView -> 512,0 512x768",
        ])
        #expect(stage.lines(step: 7, kinds: ["sizeForChild"]) == [
            "R sizeForChild(A, parent: 768x1024) -> 384x1024",
            "R sizeForChild(N, parent: 768x1024) -> 384x1024",
            "N sizeForChild(N2, parent: 384x1024) -> 384x1024",
            "pc:S sizeForChild(S, parent: 768x1024) -> 384x1024",
        ])
        #expect(queriesOutsideSizeTransitions(stage.events) == [])
    }

    /// A Swift container's layout sizes its children by its own SFC answer, recorded nowhere;
    /// what its SFC code writes (a note) still shows, under no query.
    @Test func aSwiftContainerSizesItsChildrenWithoutAQuery() async throws {
        struct Quarter: ViewControllerBehavior {
            func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
                Size(parentSize.width / 4, parentSize.height)
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [ControllerDescription("R", children: ["A"], behavior: Quarter()), ControllerDescription("A")]))
        await window.start()
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 256, height: 768))
        #expect(!window.environment.recorder.canonicalLines.contains { $0.contains("sizeForChild") })
    }

    /// WWDC 2014's sidebar asks its own size inside frameOfPresentedViewInContainerView: the
    /// query is traced, after the frame query and caused by it, at presentation and on rotation.
    @Test func aFrameThatAsksItsOwnSizeIsTracedUnderTheFrameQuery() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: ReadmeSidebar())),
            ]))
        await window.start()
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        try await window.perform(.environmentChange(size: Size(768, 1024), traits: nil))
        let events = window.environment.recorder.events
        let lines = events.map(\.canonicalLine).filter { $0.hasPrefix("pc:S sizeForChild") || $0.hasPrefix("pc:S frameOf") }
        #expect(lines == [
            "pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768",
            "pc:S sizeForChild(S, parent: 1024x768) -> 341.333x768",
            "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",   // R7, in the size transition
            "pc:S frameOfPresentedViewInContainerView -> 512,0 256x1024",
            "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",
        ])
        let frames = events.filter { if case .frameOfPresentedView = $0.message { true } else { false } }
        let nested = events.filter { event in
            guard case .sizeForChild = event.message, let cause = event.cause else { return false }
            return frames.contains { $0.id == cause }
        }
        #expect(nested.count == 2)
        #expect(await window.frame(of: "S") == Rect(x: 512, y: 0, width: 256, height: 1024))
    }
}

/// The README's Swift sidebar (its section "Frames"), kept compiling and checked: it asks its own
/// size in its frame and places the view again on every layout pass.
struct ReadmeSidebar: PresentationControllerBehavior {
    enum IncomingTraits: BehaviorStateKey { static let initialValue: TraitCollection? = nil }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator,
                        in pc: isolated any PresentationControllerContext) async {
        pc.state[IncomingTraits.self] = traits
        await pc.superWillTransition(to: traits, with: coordinator)
    }

    func size(forPresented child: ControllerID, parentSize: Size,
              in pc: isolated any PresentationControllerContext) -> Size {
        let traits = pc.state[IncomingTraits.self] ?? pc.traitCollection
        return traits.horizontalSizeClass == .compact ? parentSize
                                                      : Size(parentSize.width / 3, parentSize.height)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let size = pc.sizeForPresented(parentSize: bounds.size)   // traced under the frame query
        return PresentationRules.alignedFrame(.right, size: size, in: bounds)
    }

    /// `presentedView.frame = frameOfPresentedViewInContainerView` on every layout pass.
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }
}

@Suite("R63: a custom presentation keeps its frame unless it places it again")
struct KeptFrameTests {
    /// The WWDC sidebar's frame, without the layout override.
    struct FrameOnly: PresentationControllerBehavior {
        func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
            Size(parentSize.width / 3, parentSize.height)
        }

        func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
            let bounds = pc.containerViewBounds
            return PresentationRules.alignedFrame(.right, size: Size(bounds.size.width / 3, bounds.size.height), in: bounds)
        }
    }

    /// The same with the override the session adds.
    struct FrameAndLayout: PresentationControllerBehavior {
        func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
            FrameOnly().size(forPresented: child, parentSize: parentSize, in: pc)
        }

        func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
            FrameOnly().frameOfPresentedViewInContainerView(in: pc)
        }

        func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
            pc.applyFrameOfPresentedViewInContainerView()
        }
    }

    static func rotated(_ behavior: any PresentationControllerBehavior) async throws -> (Window, [String]) {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: behavior)),
            ]))
        await window.start()
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        #expect(await window.frame(of: "S")?.description == "682.667,0 341.333x768")
        let before = window.environment.recorder.count
        try await window.perform(.environmentChange(size: Size(768, 1024), traits: nil))
        let lines = window.environment.recorder.events(after: before).map(\.canonicalLine)
        return (window, lines.filter { $0.contains("frameOf") || $0.contains("warning") })
    }

    /// CONFORMANCE 30: overriding only the frame, the rotated sidebar is the autoresized frame
    /// (x and y kept, 341.333 − 256 wide, 768 + 256 high) and a warning names both sizes.
    @Test func withoutTheLayoutOverrideTheRotatedSidebarIsAutoresized() async throws {
        let (window, lines) = try await Self.rotated(FrameOnly())
        #expect(await window.frame(of: "S")?.description == "682.667,0 85.333x1024")
        #expect(lines == [
            "pc:S warning S keeps its frame 682.667,0 85.333x1024, autoresized with the container view, but sizeForChild gave 256x1024: "
                + "containerViewWillLayoutSubviews does not place it again",
        ])
    }

    /// Overriding both, the rotated sidebar is right-aligned at a third again, without a warning.
    @Test func withTheLayoutOverrideTheRotatedSidebarIsAThirdAtTheRight() async throws {
        let (window, lines) = try await Self.rotated(FrameAndLayout())
        #expect(await window.frame(of: "S") == Rect(x: 512, y: 0, width: 256, height: 1024))
        #expect(lines == ["pc:S frameOfPresentedViewInContainerView -> 512,0 256x1024"])
    }

    /// Autoresizing keeps the margins and never goes below zero.
    @Test func autoresizingKeepsTheOriginAndStopsAtZero() {
        let frame = Rect(x: 700, y: 10, width: 300, height: 200)
        #expect(PresentationRules.autoresizedFrame(frame, from: Size(1024, 768), to: Size(768, 1024))
            == Rect(x: 700, y: 10, width: 44, height: 456))
        #expect(PresentationRules.autoresizedFrame(frame, from: Size(1024, 768), to: Size(320, 568))
            == Rect(x: 700, y: 10, width: 0, height: 0))
    }

    /// Built-in styles place their view again in every layout pass; only a custom one does not.
    @Test func onlyBuiltInStylesReapplyTheirFrame() {
        #expect(ModalPresentationStyle.allCases.filter { !PresentationRules.reappliesFrameOnLayout($0) } == [.custom])
    }

    /// A frame a behaviour sets holds across a rotation, autoresized, and is checked against
    /// what the rotation's SFC told the presented controller.
    @Test func aFrameTheBehaviourSetIsAutoresizedToo() async throws {
        struct Mover: PresentationControllerBehavior {
            func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
                pc.setPresentedViewFrame(Rect(x: 100, y: 100, width: 400, height: 300))
                return true
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: Mover())),
            ]))
        await window.start()
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        try await window.perform(.action("move", on: "pc:S", value: nil))
        try await window.perform(.environmentChange(size: Size(768, 1024), traits: nil))
        #expect(await window.frame(of: "S") == Rect(x: 100, y: 100, width: 144, height: 556))
        #expect(window.environment.recorder.canonicalLines.contains {
            $0.hasPrefix("pc:S warning S keeps its frame 100,100 144x556, autoresized with the container view, but sizeForChild gave 768x1024")
        })
    }

    /// Placing the frame is the layout hook's job: asked elsewhere it is an error, not a move.
    @Test func applyingTheFrameOutsideTheLayoutHookIsAnError() async throws {
        struct Misplaced: PresentationControllerBehavior {
            func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
                pc.applyFrameOfPresentedViewInContainerView()
                return true
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: Misplaced())),
            ]))
        await window.start()
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        try await window.perform(.action("place", on: "pc:S", value: nil))
        #expect(window.environment.recorder.canonicalLines.contains {
            $0 == "pc:S error applyFrameOfPresentedViewInContainerView called outside containerViewWillLayoutSubviews (elsewhere, setPresentedViewFrame)"
        })
    }

    /// `"containerViewWillLayoutSubviews"` is a presentation controller's override, and only `"super"`.
    @Test func theScenarioOverrideIsSuperAndOnlyForPresentationControllers() throws {
        #expect(throws: ScenarioError.self) {
            try ScenarioDecoder.decode("""
                { \(Pad.window), "root": "R", "controllers": { "R": { "overrides": { "containerViewWillLayoutSubviews": "super" } } } }
                """, file: "inline")
        }
        #expect(throws: ScenarioError.self) {
            try ScenarioDecoder.decode("""
                { \(Pad.window), "root": "R", "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                  "presentationController": { "overrides": { "containerViewWillLayoutSubviews": "noSuper" } } } } }
                """, file: "inline")
        }
        let scenario = try ScenarioDecoder.decode("""
            { \(Pad.window), "root": "R", "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
              "presentationController": { "overrides": { "containerViewWillLayoutSubviews": "super" } } } } }
            """, file: "inline")
        #expect(scenario.controllers.first { $0.id == "S" }?.presentationController?.overrides.containerLayoutCallsSuper == true)
    }
}
