import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R13–R18 and R22–R26 as they meet presentation controllers. CONFORMANCE 12, 13, 14.

@Suite("R13–R18 + R22–R26: Traits and preferred sizes across presentation controllers")
struct PresentedTraitsAndPreferredSizeTests {
    static let overriddenScale = """
    { \(Phone.window), "root": "R",
      "controllers": {
        "R":  { "kind": "view", "children": ["C1"] },
        "C1": { "kind": "view" },
        "P":  { "kind": "view", "modalPresentationStyle": "custom",
                "presentationController": { "overrideTraits": { "displayScale": 1.5 } } } },
      "steps": [
        { "present": "P", "from": "R" },
        { "setTraits": { "displayScale": 3 } } ] }
    """

    /// CONFORMANCE 12 — R18: the PC's override applies to P only. The screen scale goes 2 → 3:
    /// R, C1 and the presentation controller (whose environment is the window) change; P keeps
    /// 1.5 and hears nothing.
    @Test("R18: presentation controller trait override shields the presented only")
    func presentationControllerTraitOverrideShieldsThePresentedOnly() async throws {
        let run = try await run(Self.overriddenScale)
        #expect(lines(run, step: 2, kinds: Lines.traitKinds) == [
            "R willTransition(to: h=compact v=regular idiom=phone scale=3)",
            "C1 willTransition(to: h=compact v=regular idiom=phone scale=3)",
            "pc:P willTransition(to: h=compact v=regular idiom=phone scale=3)",
            "R traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "C1 traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "pc:P traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
        ])
        #expect(events(run.events, step: 2, on: "P").isEmpty)
    }

    @Test func presentationControllerTraitOverrideLeavesThePresenterAlone() async throws {
        let stage = try await Stage(Self.overriddenScale)
        try await stage.perform(step: 1)
        #expect(try await stage.controller("P").traitCollection.displayScale == 1.5)
        #expect(try await stage.controller("R").traitCollection.displayScale == 2)
        #expect(try await stage.controller("C1").traitCollection.displayScale == 2)
        try await stage.perform(step: 2)
        #expect(try await stage.controller("P").traitCollection.displayScale == 1.5)
        #expect(try await stage.controller("P").traitCollection.horizontalSizeClass == .compact)
        #expect(try await stage.controller("R").traitCollection.displayScale == 3)
        #expect(try await stage.controller("C1").traitCollection.displayScale == 3)
    }

    /// SPEC R18 — a current-context presentation inherits the context controller's traits, a
    /// full-screen one the window's, whoever calls `present`.
    @Test("R18: current context inherits the contexts traits and full screen the windows")
    func currentContextInheritsTheContextsTraitsAndFullScreenTheWindows() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"], "traitOverrides": { "X": { "displayScale": 3 } } },
            "X": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" },
            "Q": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "present": "Q", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(await stage.node("P")?.presenting == "X")
        #expect(await stage.node("Q")?.presenting == "R")
        #expect(try await stage.controller("V").traitCollection.displayScale == 3)
        #expect(try await stage.controller("P").traitCollection.displayScale == 3)
        #expect(try await stage.controller("Q").traitCollection.displayScale == 2)
    }

    static func preferredSize(grant: String) -> String {
        """
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "P":  { "kind": "view", "children": ["P1"], "modalPresentationStyle": "custom",
                    "presentationController": { "sizeForChild": { "fixed": [300, 400] }, "frame": { "align": "center" }, "grant": \(grant) } },
            "P1": { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setPreferredContentSize": { "controller": "P", "size": [300, 500] } } ] }
        """
    }

    /// CONFORMANCE 13 — R22, R24–R26: PCS goes to PC(P), which grants half the change:
    /// a receipt VWT(300×450) that P forwards down, then the layout; P keeps asking 300×500.
    @Test("R22 + R24 + R26: partial grant sends a receipt then resizes")
    func partialGrantSendsAReceiptThenResizes() async throws {
        let stage = try await Stage(Self.preferredSize(grant: #"{ "fraction": 0.5 }"#))
        try await stage.perform(step: 1)
        #expect(try await stage.controller("P").size == Size(300, 400))
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
            "P viewWillTransition(to: 300x450)",
            "P sizeForChild(P1, parent: 300x450) -> 300x450",
            "P1 viewWillTransition(to: 300x450)",
        ])
        // The receipt precedes the change (R10, R25): P's layout comes after its VWT.
        let step = stage.lines(step: 2)
        let receipt = position(of: "P viewWillTransition(to: 300x450)", in: step)
        let layout = position(of: "P viewWillLayoutSubviews", in: step)
        #expect(receipt != nil && layout != nil && receipt! < layout!)
        #expect(try await stage.controller("P").size == Size(300, 450))
        #expect(await stage.pc("P")?.presentedViewFrame.size == Size(300, 450))
        #expect(try await stage.controller("P").preferredContentSize == Size(300, 500))
        #expect(try await stage.controller("R").size == Size(320, 568))
    }

    /// CONFORMANCE 14 — R25: nothing granted, no receipt, no VWT anywhere.
    @Test("R25: ignored preferred size sends no receipt")
    func ignoredPreferredSizeSendsNoReceipt() async throws {
        let stage = try await Stage(Self.preferredSize(grant: #""none""#))
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
        ])
        #expect(try await stage.controller("P").size == Size(300, 400))
        #expect(try await stage.controller("P").preferredContentSize == Size(300, 500))
    }

    /// §3.4 default grants — a popover's presentation controller grants the request, clamped
    /// to the screen; the popover's size then follows its preferred size on rotation (R7).
    @Test("R24: popover grants preferred size clamped to the screen")
    func popoverGrantsPreferredSizeClampedToTheScreen() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setPreferredContentSize": { "controller": "P", "size": [400, 500] } },
            { "setPreferredContentSize": { "controller": "P", "size": [2000, 500] } },
            { "resizeWindow": [768, 1024] } ] }
        """)
        try await stage.perform(step: 1)
        #expect(try await stage.controller("P").size == Size(320, 480))
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
            "P viewWillTransition(to: 400x500)",
        ])
        #expect(try await stage.controller("P").size == Size(400, 500))
        try await stage.perform(step: 3)
        #expect(stage.lines(step: 3, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
            "P viewWillTransition(to: 1024x500)",
        ])
        try await stage.perform(step: 4)
        #expect(stage.lines(step: 4, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 768x1024)",
            "pc:P viewWillTransition(to: 768x1024)",
            "pc:P sizeForChild(P, parent: 768x1024) -> 768x500",
            "P viewWillTransition(to: 768x500)",
        ])
        #expect(try await stage.controller("P").preferredContentSize == Size(2000, 500))
    }

    /// §3.4 default grants — a form sheet grants in regular width.
    @Test func formSheetGrantsPreferredSizeInRegularWidth() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setPreferredContentSize": { "controller": "P", "size": [600, 700] } } ] }
        """)
        try await stage.perform(step: 1)
        #expect(try await stage.controller("P").size == Size(540, 620))
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
            "P viewWillTransition(to: 600x700)",
        ])
        #expect(try await stage.controller("P").size == Size(600, 700))
    }

    /// §3.4 default grants — full-screen styles ignore the request (R25: no receipt).
    @Test(arguments: ["fullScreen", "overFullScreen"])
    func fullScreenStylesIgnorePreferredSize(style: String) async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "\(style)" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setPreferredContentSize": { "controller": "P", "size": [300, 300] } } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "pc:P preferredContentSizeDidChange(forChild: P)",
        ])
        #expect(try await stage.controller("P").size == Size(1024, 768))
    }

    /// R22 — exactly one level up: inside its adaptive wrapper, P's container is the wrapper,
    /// not the presentation controller.
    @Test("R22: preferred size of a wrapped presented goes to the wrapper")
    func preferredSizeOfAWrappedPresentedGoesToTheWrapper() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] },
                   "adaptiveDelegate": { "wrapIn": "navigation" } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "setPreferredContentSize": { "controller": "P", "size": [300, 300] } } ] }
        """)
        #expect(lines(run, step: 3, kinds: ["preferredContentSizeDidChange"]) == [
            "wrap:P preferredContentSizeDidChange(forChild: P)",
        ])
    }
}
