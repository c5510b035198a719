import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.9 (R60–R64) and CONFORMANCE 30–33: every expected frame is worked out by hand from
// the rule it tests.

private let frameKinds = ["frameOfPresentedViewInContainerView", "warning"]

@Suite("Frames: containers place children (R60, R61)")
struct ChildFrameTests {
    /// R61: a `row` puts each child at the right edge of the one before; `column` below; explicit
    /// origins where named; the window coordinates add every container's origin (R60).
    @Test func r61RowColumnAndOriginsPlaceChildren() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "R",
              "controllers": {
                "R": { "children": ["A", "B"], "layout": "row", "overrides": { "sizeForChild": { "fraction": [0.5, 1] } } },
                "A": {},
                "B": { "children": ["B1", "B2"], "layout": "column", "overrides": { "sizeForChild": { "fraction": [1, 0.25] } } },
                "B1": {}, "B2": { "children": ["X"], "layout": { "origins": { "X": [10, 20] } },
                                  "overrides": { "sizeForChild": { "fixed": [50, 40] } } },
                "X": {} },
              "steps": [ { "resizeWindow": [768, 1024] } ] }
            """)
        #expect(await stage.window.frame(of: "A") == Rect(x: 0, y: 0, width: 512, height: 768))
        #expect(await stage.window.frame(of: "B") == Rect(x: 512, y: 0, width: 512, height: 768))
        #expect(await stage.window.frame(of: "B2") == Rect(x: 0, y: 192, width: 512, height: 192))
        #expect(await stage.window.frame(of: "X") == Rect(x: 10, y: 20, width: 50, height: 40))
        #expect(await stage.window.windowFrame(of: "X") == Rect(x: 522, y: 212, width: 50, height: 40))
        try await stage.perform(step: 1)
        // Rotated: the halves are 384 wide, B's quarters 256 high.
        #expect(await stage.window.frame(of: "B") == Rect(x: 384, y: 0, width: 384, height: 1024))
        #expect(await stage.window.windowFrame(of: "B2") == Rect(x: 384, y: 256, width: 384, height: 256))
        #expect(await stage.window.windowFrame(of: "X") == Rect(x: 394, y: 276, width: 50, height: 40))
        #expect(await stage.window.windowFrame(of: "R") == Rect(x: 0, y: 0, width: 768, height: 1024))
    }

    /// R61: a regular split puts the secondary after the primary and the 1-point divider; collapsed, the primary
    /// alone at (0,0) — and a trait-only change that collapses or expands it lays the columns
    /// out (issue 14's fidelity bug: the primary had kept its 320 points).
    @Test func r61SplitColumnsAndATraitOnlyCollapse() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": {} },
              "steps": [ { "setTraits": { "horizontalSizeClass": "compact" } },
                         { "setTraits": { "horizontalSizeClass": "regular" } } ] }
            """)
        #expect(await stage.window.frame(of: "M") == Rect(x: 0, y: 0, width: 320, height: 768))
        #expect(await stage.window.frame(of: "D") == Rect(x: 321, y: 0, width: 703, height: 768))
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1) == [
            "S willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "M willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "S traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
            "M traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
            "S sizeForChild(M, parent: 1024x768) -> 1024x768",
            "M viewWillTransition(to: 1024x768)",
            "S viewWillLayoutSubviews",
            "S viewDidLayoutSubviews",
            "M viewWillLayoutSubviews",
            "M viewDidLayoutSubviews",
        ])
        #expect(try await stage.controller("M").size == Size(1024, 768))
        #expect(await stage.window.frame(of: "M") == Rect(x: 0, y: 0, width: 1024, height: 768))
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.sizeKinds) == [
            "S sizeForChild(M, parent: 1024x768) -> 320x768",
            "S sizeForChild(D, parent: 1024x768) -> 703x768",
            "M viewWillTransition(to: 320x768)",
        ])
        #expect(await stage.window.frame(of: "M") == Rect(x: 0, y: 0, width: 320, height: 768))
        #expect(await stage.window.frame(of: "D") == Rect(x: 321, y: 0, width: 703, height: 768))
    }

    /// R61: a Swift behaviour places its children itself in `viewDidLayoutSubviews`.
    @Test func r61BehaviourPlacesChildren() async throws {
        struct Stacked: ViewControllerBehavior {
            func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
                Size(parentSize.width, 100)
            }

            func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
                for (index, child) in vc.children.enumerated() {
                    vc.setOrigin(ofChild: child, to: Point(x: 0, y: vc.size.height - Double(index + 1) * 100))
                }
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Size(320, 568), windowTraits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular),
            root: "R", controllers: [
                ControllerDescription("R", children: ["A", "B"], behavior: Stacked()),
                ControllerDescription("A"), ControllerDescription("B"),
            ]))
        await window.start()
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 468, width: 320, height: 100))
        #expect(await window.frame(of: "B") == Rect(x: 0, y: 368, width: 320, height: 100))
        try await window.perform(.environmentChange(size: Size(568, 320), traits: nil))
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 220, width: 568, height: 100))
    }
}

@Suite("Frames: frameOfPresentedViewInContainerView (R62–R64)")
struct PresentedFrameTests {
    /// R62: full-screen styles get the container's bounds; a form sheet its size centred; a
    /// page sheet 768 wide, centred, full height. CONFORMANCE 31: a form sheet keeps its size on
    /// rotation, so R4 skips its VWT — yet its container is laid out and the frame re-centred.
    @Test func r62BuiltInStylesAndR31FormSheetRecentred() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "F": { "modalPresentationStyle": "formSheet" },
                               "G": { "modalPresentationStyle": "pageSheet" }, "O": { "modalPresentationStyle": "overFullScreen" } },
              "steps": [ { "present": "F", "from": "R" }, { "resizeWindow": [768, 1024] }, { "dismiss": "F" },
                         { "present": "G", "from": "R" }, { "dismiss": "G" }, { "present": "O", "from": "R" } ] }
            """)
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:F frameOfPresentedViewInContainerView -> 242,74 540x620"])
        #expect(lines(run, step: 2, kinds: ["viewWillTransition", "containerViewWillLayoutSubviews"] + frameKinds) == [
            "R viewWillTransition(to: 768x1024)",
            "pc:F viewWillTransition(to: 768x1024)",
            "pc:F containerViewWillLayoutSubviews",
            "pc:F frameOfPresentedViewInContainerView -> 114,202 540x620",
        ])
        #expect(lines(run, step: 4, kinds: frameKinds) == ["pc:G frameOfPresentedViewInContainerView -> 0,0 768x1024"])
        #expect(lines(run, step: 6, kinds: frameKinds) == ["pc:O frameOfPresentedViewInContainerView -> 0,0 768x1024"])
    }

    /// R62, R63: a current-context presentation covers its context. Its tab hidden during a
    /// rotation, the context is sized when shown again (a refresh, no transition) and what it
    /// presents is laid out with it: re-framed to the context's new bounds — whether the context
    /// is the controller shown again (N) or one below it (V defines it, CONFORMANCE 23).
    @Test(arguments: [false, true])
    func r63ACurrentContextPresentationFollowsItsContextShownAgain(contextBelow: Bool) async throws {
        let run = try await run("""
            { \(Pad.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["N", "B"] }, "N": { "kind": "navigation", "children": ["V"] },
                               "V": { "definesPresentationContext": \(contextBelow) }, "B": {},
                               "S": { "modalPresentationStyle": "overCurrentContext" } },
              "steps": [ { "present": "S", "from": "V" }, { "select": "T", "index": 1 }, { "resizeWindow": [768, 1024] },
                         { "select": "T", "index": 0 } ] }
            """)
        #expect(lines(run, step: 1, kinds: ["present"]) == ["\(contextBelow ? "V" : "N") present(S, style: overCurrentContext)"])
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> 0,0 1024x768"])
        #expect(lines(run, step: 3, kinds: frameKinds) == [])
        #expect(lines(run, step: 4, kinds: ["viewWillLayoutSubviews", "containerViewWillLayoutSubviews"] + frameKinds) == [
            "N viewWillLayoutSubviews",
            "V viewWillLayoutSubviews",
            "pc:S containerViewWillLayoutSubviews",
            "pc:S frameOfPresentedViewInContainerView -> 0,0 768x1024",
            "S viewWillLayoutSubviews",
        ])
    }

    /// R62, CONFORMANCE 32: a popover below its source, centred on it, moved inside the window;
    /// above when below does not fit; beside when neither does; moved again after a rotation.
    @Test func r62PopoverBesideItsSource() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {},
                "P": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 200],
                       "popoverSource": { "view": "R", "rect": [980, 20, 40, 30] } },
                "Q": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 200],
                       "popoverSource": { "view": "R", "rect": [100, 700, 40, 40] } },
                "W": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 700],
                       "popoverSource": { "view": "R", "rect": [100, 300, 40, 40] } } },
              "steps": [ { "present": "P", "from": "R" }, { "resizeWindow": [768, 1024] }, { "dismiss": "P" },
                         { "present": "Q", "from": "R" }, { "dismiss": "Q" }, { "resizeWindow": [1024, 768] },
                         { "present": "W", "from": "R" } ] }
            """)
        // Below (y 50), centred on x 1000 → 850, moved left to fit: 1024 - 300 = 724.
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 724,50 300x200"])
        // Rotated to 768 wide: the source stays at x 980 (off the right edge): kept inside, 468.
        #expect(lines(run, step: 2, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 468,50 300x200"])
        // Q's source bottom is 740 and 200 more fit in 1024: below it; centred on x 120 → -30, moved to 0.
        #expect(lines(run, step: 4, kinds: frameKinds) == ["pc:Q frameOfPresentedViewInContainerView -> 0,740 300x200"])
        // W is 700 high in a 768 window: neither below 340 nor above 300 fits; to the right of
        // the source (x 140), centred vertically on 320 → -30, moved down inside the window: 0.
        #expect(lines(run, step: 7, kinds: frameKinds) == ["pc:W frameOfPresentedViewInContainerView -> 140,0 300x700"])
    }

    /// R62 with a source rect measured from its view's top right or bottom left corner (a bar
    /// button item's stand-in, SPEC §11): it stays at that corner when a rotation resizes the
    /// view, and the popover follows it; from the top left it would stay where it was.
    @Test func r62PopoverSourceMeasuredFromACornerFollowsIt() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {},
                "P": { "modalPresentationStyle": "popover", "preferredContentSize": [100, 100],
                       "popoverSource": { "view": "R", "rect": [100, 0, 44, 44], "corner": "topRight" } },
                "Q": { "modalPresentationStyle": "popover", "preferredContentSize": [100, 100],
                       "popoverSource": { "view": "R", "rect": [8, 0, 44, 44], "corner": "bottomLeft" } } },
              "steps": [ { "present": "P", "from": "R" }, { "resizeWindow": [768, 1024] }, { "dismiss": "P" },
                         { "present": "Q", "from": "R" }, { "resizeWindow": [1024, 768] } ] }
            """)
        // The source at 1024 - 144 = 880, 44 wide: the popover below it, centred on 902.
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 852,44 100x100"])
        // 768 wide: the source at 624, centred on 646 (measured from the left it would have
        // stayed at 880 and the popover been pushed in to 668).
        #expect(lines(run, step: 2, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 596,44 100x100"])
        // From the bottom left: the source's bottom on the window's, so the popover goes above it.
        #expect(lines(run, step: 4, kinds: frameKinds) == ["pc:Q frameOfPresentedViewInContainerView -> 0,880 100x100"])
        #expect(lines(run, step: 5, kinds: frameKinds) == ["pc:Q frameOfPresentedViewInContainerView -> 0,624 100x100"])
    }

    /// R62: current-context styles are placed in a container view that covers the context.
    @Test func r62CurrentContextCoversTheContext() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {},
                               "D": { "definesPresentationContext": true }, "P": { "modalPresentationStyle": "overCurrentContext" } },
              "steps": [ { "present": "P", "from": "D" } ] }
            """)
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 0,0 703x768"])
        #expect(await stage.window.windowFrame(of: "P") == Rect(x: 321, y: 0, width: 703, height: 768))
    }

    /// R62 for an adapted presentation: the frame of the style it adapted to.
    @Test func r62AdaptedPopoverTakesTheFrameOfItsAdaptiveStyle() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "P": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 200],
                                               "popoverSource": { "view": "R", "rect": [10, 10, 20, 20] } } },
              "steps": [ { "present": "P", "from": "R" },
                         { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } } ] }
            """)
        #expect(lines(run, step: 2, kinds: Lines.adaptationKinds + frameKinds) == [
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 320x768",
        ])
    }

    /// R62, CONFORMANCE 30: the seed's sidebar, a third of the width and right-aligned.
    @Test func r62RightAlignedSidebar() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                  "presentationController": { "sizeForChild": { "fraction": [0.3333333333333333, 1] }, "frame": { "align": "right" } } } },
              "steps": [ { "present": "S", "from": "R" }, { "resizeWindow": [768, 1024] }, { "resizeWindow": [1024, 768] } ] }
            """)
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768"])
        #expect(lines(run, step: 2, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> 512,0 256x1024"])
        #expect(lines(run, step: 3, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768"])
    }

    /// R62's other alignments and a fixed frame.
    @Test(arguments: [
        ("left", "0,284 200x200"), ("center", "412,284 200x200"), ("top", "412,0 200x200"), ("bottom", "412,568 200x200"),
    ])
    func r62FrameRuleAlignments(alignment: String, frame: String) async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                  "presentationController": { "sizeForChild": { "fixed": [200, 200] }, "frame": { "align": "\(alignment)" } } } },
              "steps": [ { "present": "S", "from": "R" } ] }
            """)
        #expect(lines(run, step: 1, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> \(frame)"])
    }

    /// R63, CONFORMANCE 33: only a sizeForChild rule — UIKit's default frame is the container's
    /// bounds, given at presentation (no size asked there, R2a); a rotation's sizeForChild
    /// tells S 300x400 while its frame stays the container's, autoresized: a warning names both.
    @Test func r63DefaultCustomFrameWarnsOfTheSizeMismatch() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                  "presentationController": { "sizeForChild": { "fixed": [300, 400] } } } },
              "steps": [ { "present": "S", "from": "R" }, { "resizeWindow": [768, 1024] } ] }
            """)
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1, kinds: frameKinds) == ["pc:S frameOfPresentedViewInContainerView -> 0,0 1024x768"])
        #expect(try await stage.controller("S").size == Size(1024, 768))
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: frameKinds) == [
            "pc:S warning S keeps its frame 0,0 768x1024, autoresized with the container view, but sizeForChild gave 300x400: "
                + "containerViewWillLayoutSubviews does not place it again",
        ])
        #expect(try await stage.controller("S").frame == Rect(x: 0, y: 0, width: 768, height: 1024))
    }

    /// R63: an override of `containerViewWillLayoutSubviews` that places the view once, then never
    /// again, leaves it where it was, autoresized with the container view (never below zero).
    @Test func r63OverrideThatStopsPlacingLeavesTheFrameAutoresized() async throws {
        struct Frozen: PresentationControllerBehavior {
            func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
                Size(200, 200)
            }

            func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
                PresentationRules.alignedFrame(.center, size: pc.presentedViewSize, in: pc.containerViewBounds)
            }

            func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
                // Lays the view out once, then never again.
                guard !pc.state[LaidOut.self] else { return }
                pc.state[LaidOut.self] = true
                pc.applyFrameOfPresentedViewInContainerView()
            }
        }
        enum LaidOut: BehaviorStateKey {
            static let initialValue = false
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Size(1024, 768), windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular),
            root: "R", controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom, presentationController: PresentationControllerDescription(behavior: Frozen())),
            ]))
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        #expect(await window.frame(of: "S") == Rect(x: 412, y: 284, width: 200, height: 200))
        try await window.perform(.environmentChange(size: Size(768, 1024), traits: nil))
        // 200 − 256 wide stops at 0; 200 + 256 high.
        #expect(await window.frame(of: "S") == Rect(x: 412, y: 284, width: 0, height: 456))
        let frameLines = window.environment.recorder.events.map(\.canonicalLine).filter { $0.contains("frameOfPresented") }
        #expect(frameLines == ["pc:S frameOfPresentedViewInContainerView -> 412,284 200x200"])
    }

    /// R64: the sheets and custom presentations dim their container view; popovers do not;
    /// full-screen styles remove or cover what is below and dim nothing.
    @Test func r64WhichStylesDim() {
        #expect(ModalPresentationStyle.allCases.filter(PresentationRules.dims) == [.pageSheet, .formSheet, .custom])
    }
}

@Suite("Behaviour hooks and state (SPEC §4)")
struct PresentationHookTests {
    /// The transition callbacks reach the behaviour; the adaptive delegate is code that sees the
    /// environment's traits and chooses the replacement.
    @Test func transitionCallbacksAndAnAdaptiveDelegateAsCode() async throws {
        struct Logged: PresentationControllerBehavior {
            func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) { pc.note("will begin") }
            func presentationTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) { pc.note("did end \(completed)") }
            func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) { pc.note("dismissal will begin") }
            func dismissalTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) { pc.note("dismissal did end") }
        }
        struct SheetInLandscapeOnly: AdaptivePresentationDelegate {
            func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
                pc.note("asked in h=\(traits.horizontalSizeClass) v=\(traits.verticalSizeClass)")
                return .style(traits.verticalSizeClass == .compact ? .formSheet : .fullScreen)
            }

            func viewControllerForAdaptivePresentationStyle(_ style: ModalPresentationStyle, in pc: isolated any PresentationControllerContext) -> AdaptiveReplacement? {
                style == .fullScreen ? .navigationController : nil
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Size(1024, 768), windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular),
            root: "R", controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: Logged()),
                                      adaptiveDelegate: SheetInLandscapeOnly()),
            ]))
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        try await window.perform(.environmentChange(size: nil, traits: TraitCollection(horizontalSizeClass: .compact)))
        #expect(await window.structure["wrap:S"] != nil)
        try await window.perform(.environmentChange(size: nil, traits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .compact)))
        #expect(await window.structure["wrap:S"] == nil)
        try await window.perform(.dismiss("S", animated: true))
        let notes = window.environment.recorder.events.map(\.canonicalLine).filter { $0.hasPrefix("pc:S note") || $0.hasPrefix("pc:S adaptive") }
        #expect(notes == [
            "pc:S note will begin",
            "pc:S note did end true",
            "pc:S note asked in h=compact v=regular",
            "pc:S adaptivePresentationStyle -> fullScreen",
            // Back in regular width nothing adapts, whatever the delegate answers (R48, R52).
            "pc:S note asked in h=regular v=compact",
            "pc:S adaptivePresentationStyle -> none",
            "pc:S note dismissal will begin",
            "pc:S note dismissal did end",
        ])
    }

    /// CONFORMANCE 34: a presentation controller keeps the traits `willTransition` announced and
    /// sizes its presented controller from them in the same combined transition (full width in
    /// compact); its own `traitCollection` still reports the old traits there (R14).
    @Test func statefulBehaviourUsesTheIncomingTraits() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Size(1024, 768), windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular),
            root: "R", controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: TraitAwareSidebar())),
            ]))
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        try await window.perform(.environmentChange(size: Size(320, 768), traits: TraitCollection(horizontalSizeClass: .compact)))
        let lines = window.environment.recorder.events.map(\.canonicalLine)
        #expect(lines.contains("pc:S note sizing with h=compact while traitCollection says h=regular"))
        #expect(lines.contains("pc:S sizeForChild(S, parent: 320x768) -> 320x768"))
        #expect(lines.contains("pc:S frameOfPresentedViewInContainerView -> 0,0 320x768"))
        try await window.perform(.environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .regular)))
        #expect(await window.frame(of: "S")?.description == "682.667,0 341.333x768")
    }

    /// Issue 14: the Swift behaviour of a custom presentation adapted to another style is not
    /// asked as if it were still custom: the adaptive style's built-in size and frame apply.
    @Test func anAdaptedCustomPresentationIsNotAskedAsCustom() async throws {
        struct Counting: PresentationControllerBehavior {
            func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
                pc.note("asked for a size")
                return Size(100, 100)
            }

            func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
                pc.note("asked for a frame")
                return Rect(Size(100, 100))
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Size(1024, 768), windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular),
            root: "R", controllers: [
                ControllerDescription("R"),
                ControllerDescription("S", modalPresentationStyle: .custom,
                                      presentationController: PresentationControllerDescription(behavior: Counting()),
                                      adaptiveDelegate: AdaptiveDelegate(answer: .style(.fullScreen))),
            ]))
        try await window.perform(.present("S", from: "R", animated: true, style: nil))
        let before = window.environment.recorder.count
        try await window.perform(.environmentChange(size: Size(320, 768), traits: TraitCollection(horizontalSizeClass: .compact)))
        let lines = window.environment.recorder.events(after: before).map(\.canonicalLine)
        #expect(!lines.contains { $0.contains("asked for") })
        #expect(lines.contains("pc:S sizeForChild(S, parent: 320x768) -> 320x768"))
        #expect(await window.frame(of: "S") == Rect(x: 0, y: 0, width: 320, height: 768))
    }

    /// CONFORMANCE 35 (R48): adaptation is keyed on the presentation's environment, not on the
    /// presented controller's traits, which the override pins to regular.
    @Test func r48AdaptationFollowsTheEnvironmentNotTheOverride() async throws {
        let run = try await run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                  "presentationController": { "overrideTraits": { "horizontalSizeClass": "regular" } },
                  "adaptiveDelegate": { "style": "fullScreen" } } },
              "steps": [ { "present": "S", "from": "R" }, { "setTraits": { "horizontalSizeClass": "compact" } } ] }
            """)
        #expect(lines(run, step: 2, kinds: Lines.adaptationKinds) == [
            "pc:S adaptivePresentationStyle -> fullScreen",
            "pc:S willPresentWithAdaptiveStyle(fullScreen)",
        ])
        // The presented controller's traits do not change: the override keeps h=regular.
        #expect(lines(run, step: 2, kinds: ["willTransition"]).filter { $0.hasPrefix("S ") }.isEmpty)
    }

    /// Issue 14: a popover whose preferred size changed while it was adapted and wrapped comes
    /// back in regular width at its current preferred size.
    @Test func aWrappedPopoverComesBackAtItsCurrentPreferredSize() async throws {
        let stage = try await Stage("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "P": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 200],
                                               "popoverSource": { "view": "R", "rect": [10, 10, 20, 20] },
                                               "adaptiveDelegate": { "wrapIn": "navigation" } } },
              "steps": [ { "present": "P", "from": "R" },
                         { "setTraits": { "horizontalSizeClass": "compact" } },
                         { "setPreferredContentSize": { "controller": "P", "size": [250, 350] } },
                         { "setTraits": { "horizontalSizeClass": "regular" } } ] }
            """)
        try await stage.runAll()
        #expect(try await stage.controller("P").size == Size(250, 350))
        #expect(stage.lines(step: 4, kinds: frameKinds) == ["pc:P frameOfPresentedViewInContainerView -> 0,30 250x350"])
    }
}

/// The seed's sidebar as a stateful behaviour: a third of the width and right-aligned in
/// regular width, the whole width in compact — decided from the traits `willTransition`
/// announced, kept in the behaviour's state until the layout pass.
struct TraitAwareSidebar: PresentationControllerBehavior {
    enum IncomingTraits: BehaviorStateKey {
        static let initialValue: TraitCollection? = nil
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        pc.state[IncomingTraits.self] = traits
        await pc.superWillTransition(to: traits, with: coordinator)
    }

    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        let traits = pc.state[IncomingTraits.self] ?? pc.traitCollection
        if traits != pc.traitCollection {
            pc.note("sizing with h=\(traits.horizontalSizeClass) while traitCollection says h=\(pc.traitCollection.horizontalSizeClass)")
        }
        return traits.horizontalSizeClass == .compact ? parentSize : Size(parentSize.width / 3, parentSize.height)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        PresentationRules.alignedFrame(.right, size: pc.presentedViewSize, in: pc.containerViewBounds)
    }

    /// The seed's override: the frame again on every layout pass (R63).
    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        pc.applyFrameOfPresentedViewInContainerView()
    }
}
