import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.5 "Presented sizes", R3 for custom presentation controllers, and R22/R27 for
// presented controllers (one level up: the presentation controller).

@Suite("R3 + R22 + R27: Presented sizes and one-level-up notifications")
struct PresentedSizeTests {
    static func present(_ style: String, window: String, extra: String = "", steps: String = "") -> String {
        """
        { \(window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "P":  { "kind": "view", "children": ["P1"], "modalPresentationStyle": "\(style)"\(extra) },
            "P1": { "kind": "view" } },
          "steps": [ { "present": "P", "from": "R" }\(steps) ] }
        """
    }

    /// The frame PC(P) gives P when P is presented: its size is the presented size (R2a: no
    /// sizeForChild is asked at presentation; the transition gives P its R62 frame).
    static func presentedFrame(_ json: String) async throws -> String? {
        let run = try await run(json)
        #expect(lines(run, step: 1, kinds: ["sizeForChild"]) == [])
        return lines(run, step: 1, kinds: ["frameOfPresentedViewInContainerView"]).first { $0.hasPrefix("pc:P ") }
    }

    @Test func pageSheetIsClampedToTheScreenInRegularWidth() async throws {
        let narrowPad = """
        "window": { "size": [694, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular",
                                                   "userInterfaceIdiom": "pad", "displayScale": 2 } }
        """
        #expect(try await Self.presentedFrame(Self.present("pageSheet", window: narrowPad))
                == "pc:P frameOfPresentedViewInContainerView -> 0,0 694x768")
    }

    @Test func formSheetUsesItsPreferredSizeClampedToTheScreen() async throws {
        #expect(try await Self.presentedFrame(Self.present("formSheet", window: Pad.window))
                == "pc:P frameOfPresentedViewInContainerView -> 242,74 540x620")
        #expect(try await Self.presentedFrame(Self.present("formSheet", window: Pad.window, extra: #", "preferredContentSize": [400, 300]"#))
                == "pc:P frameOfPresentedViewInContainerView -> 312,234 400x300")
        #expect(try await Self.presentedFrame(Self.present("formSheet", window: Pad.window, extra: #", "preferredContentSize": [2000, 2000]"#))
                == "pc:P frameOfPresentedViewInContainerView -> 0,0 1024x768")
    }

    /// R3: a custom presentation controller without a sizeForChild rule answers the size it
    /// received — the presenter's — when a rotation asks it; at presentation its frame is the
    /// container's bounds (R62).
    @Test("R3: custom presentation without a rule gives the parent size")
    func customPresentationWithoutARuleGivesTheParentSize() async throws {
        #expect(try await Self.presentedFrame(Self.present("custom", window: Phone.window))
                == "pc:P frameOfPresentedViewInContainerView -> 0,0 320x568")
        let rotated = try await run(Self.present("custom", window: Phone.window, steps: #", { "resizeWindow": [568, 320] }"#))
        #expect(lines(rotated, step: 2, kinds: ["sizeForChild"]).filter { $0.hasPrefix("pc:P ") }
                == ["pc:P sizeForChild(P, parent: 568x320) -> 568x320"])
    }

    /// A form sheet adapted to fullScreen is sized as fullScreen when the window rotates.
    @Test func adaptedFormSheetIsSizedAsFullScreenOnRotation() async throws {
        let run = try await run(Self.present("formSheet", window: Phone.window, steps: #", { "resizeWindow": [568, 320] }"#))
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
            "P sizeForChild(P1, parent: 568x320) -> 568x320",
            "P1 viewWillTransition(to: 568x320)",
        ])
    }

    /// R22: only a *different* value is reported.
    @Test("R22: setting the same preferred size sends nothing")
    func settingTheSamePreferredSizeSendsNothing() async throws {
        let run = try await run(Self.present("formSheet", window: Pad.window, extra: #", "preferredContentSize": [400, 300]"#,
                                             steps: #", { "setPreferredContentSize": { "controller": "P", "size": [400, 300] } }"#))
        #expect(lines(run, step: 2).isEmpty)
    }

    /// R22: a child of the presented controller reports to P, its parent — not to PC(P).
    @Test("R22: child of the presented reports to the presented only")
    func childOfThePresentedReportsToThePresentedOnly() async throws {
        let run = try await run(Self.present("formSheet", window: Pad.window,
                                             steps: #", { "setPreferredContentSize": { "controller": "P1", "size": [100, 100] } }"#))
        #expect(lines(run, step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "P preferredContentSizeDidChange(forChild: P1)",
        ])
    }

    /// R27: the fitting-size change of a presented controller goes one level up, to PC(P).
    @Test("R27: fitting size change of the presented goes to its presentation controller")
    func fittingSizeChangeOfThePresentedGoesToItsPresentationController() async throws {
        let run = try await run(Self.present("formSheet", window: Pad.window,
                                             steps: #", { "systemLayoutFittingSizeDidChange": "P" }"#))
        #expect(lines(run, step: 2, kinds: ["systemLayoutFittingSizeDidChange"]) == [
            "pc:P systemLayoutFittingSizeDidChange(forChild: P)",
        ])
    }
}
