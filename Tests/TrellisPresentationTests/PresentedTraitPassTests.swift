import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R13, R14, R16, R18 and the last line of §3.7 across presented chains: the trait passes
// visit presentation controllers in the same depth-first order as VWT.

@Suite("R13–R18: Trait passes through presented chains")
struct PresentedTraitPassTests {
    /// R13/R14: a rotation (v: regular → compact) is three whole-tree passes — WTT, VWT,
    /// TCDC — each visiting the presented chain after the presenter's children.
    @Test("R13 + R14: rotation is three depth first passes including the presented chain")
    func rotationIsThreeDepthFirstPassesIncludingThePresentedChain() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1"] },
            "C1": { "kind": "view" },
            "P":  { "kind": "view", "children": ["P1"], "modalPresentationStyle": "fullScreen" },
            "P1": { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
        """)
        let to = "h=compact v=compact idiom=phone scale=2"
        let previous = "h=compact v=regular idiom=phone scale=2"
        #expect(lines(run, step: 2, kinds: Lines.traitKinds + Lines.sizeKinds) == [
            "R willTransition(to: \(to))",
            "C1 willTransition(to: \(to))",
            "pc:P willTransition(to: \(to))",
            "P willTransition(to: \(to))",
            "P1 willTransition(to: \(to))",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 568x320",
            "C1 viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
            "P sizeForChild(P1, parent: 568x320) -> 568x320",
            "P1 viewWillTransition(to: 568x320)",
            "R traitCollectionDidChange(previous: \(previous))",
            "C1 traitCollectionDidChange(previous: \(previous))",
            "pc:P traitCollectionDidChange(previous: \(previous))",
            "P traitCollectionDidChange(previous: \(previous))",
            "P1 traitCollectionDidChange(previous: \(previous))",
        ])
        // fullScreen never adapts (§3.7).
        #expect(lines(run, step: 2, kinds: Lines.adaptationKinds).isEmpty)
    }

    /// R16 + R18: a current-context presentation lives in its context's traits. The context X
    /// keeps regular width through an override, so when the window goes compact neither X, V,
    /// PC(P) nor P hears of it (and PC(P) does not adapt), while the full-screen Q, in the
    /// window's traits, does — after R's children, in R's presented chain.
    @Test("R16 + R18: current context presentation follows its context not the window")
    func currentContextPresentationFollowsItsContextNotTheWindow() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"],
                   "traitOverrides": { "X": { "horizontalSizeClass": "regular" } } },
            "X": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" },
            "Q": { "kind": "view", "modalPresentationStyle": "overFullScreen" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "present": "Q", "from": "V" },
            { "setTraits": { "horizontalSizeClass": "compact" } } ] }
        """)
        try await stage.runAll()
        #expect(await stage.node("P")?.presenting == "X")
        #expect(await stage.node("Q")?.presenting == "R")
        let to = "h=compact v=regular idiom=pad scale=2"
        let previous = "h=regular v=regular idiom=pad scale=2"
        #expect(stage.lines(step: 3, kinds: Lines.traitKinds) == [
            "R willTransition(to: \(to))",
            "pc:Q willTransition(to: \(to))",
            "Q willTransition(to: \(to))",
            "R traitCollectionDidChange(previous: \(previous))",
            "pc:Q traitCollectionDidChange(previous: \(previous))",
            "Q traitCollectionDidChange(previous: \(previous))",
        ])
        #expect(stage.lines(step: 3, kinds: Lines.adaptationKinds).isEmpty)
        #expect(await stage.pc("P")?.style == .currentContext)
        #expect(try await stage.controller("P").traitCollection.horizontalSizeClass == .regular)
        #expect(try await stage.controller("Q").traitCollection.horizontalSizeClass == .compact)
    }

    /// R17 + R18: changing the context's override changes what the current-context
    /// presentation inherits: X's subtree first, then X's presented chain.
    @Test("R17 + R18: context trait override reaches its current context presentation")
    func contextTraitOverrideReachesItsCurrentContextPresentation() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"] },
            "X": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "setTraitOverride": { "container": "R", "child": "X", "traits": { "displayScale": 3 } } } ] }
        """)
        let to = "h=regular v=regular idiom=pad scale=3"
        let previous = "h=regular v=regular idiom=pad scale=2"
        #expect(lines(run, step: 2, kinds: Lines.traitKinds) == [
            "X willTransition(to: \(to))",
            "V willTransition(to: \(to))",
            "pc:P willTransition(to: \(to))",
            "P willTransition(to: \(to))",
            "X traitCollectionDidChange(previous: \(previous))",
            "V traitCollectionDidChange(previous: \(previous))",
            "pc:P traitCollectionDidChange(previous: \(previous))",
            "P traitCollectionDidChange(previous: \(previous))",
        ])
    }

    static func customWithDelegate(pcOverride: String) -> String {
        """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "custom",
                   "adaptiveDelegate": { "style": "overFullScreen" },
                   "presentationController": { "overrides": { "willTransition": "\(pcOverride)" } } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setTraits": { "horizontalSizeClass": "compact" } } ] }
        """
    }

    /// §3.7: a custom presentation adapts when its delegate says so.
    @Test func customPresentationAdaptsWhenTheDelegateSaysSo() async throws {
        let stage = try await Stage(Self.customWithDelegate(pcOverride: "super"))
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
        ])
        #expect(await stage.pc("P")?.style == .overFullScreen)
    }

    /// §3.7, last line: a presentation controller whose WTT override skips super neither
    /// forwards nor adapts.
    @Test func presentationControllerSkippingSuperNeitherForwardsNorAdapts() async throws {
        let stage = try await Stage(Self.customWithDelegate(pcOverride: "noSuper"))
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["willTransition"]) == [
            "R willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "pc:P willTransition(to: h=compact v=regular idiom=pad scale=2)",
        ])
        #expect(stage.lines(step: 2, kinds: ["suppressed"]) == ["pc:P suppressed willTransition (cut: P)"])
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds).isEmpty)
        #expect(await stage.pc("P")?.style == .custom)
    }

    /// R18 — a full-screen presentation made by P, whose own traits come from its PC's
    /// override (scale 1.5), lives in the window's traits, not P's: a scale change reaches
    /// PC(P2) and P2, never P.
    @Test("R18: full screen presentation from an overridden presented lives in the windows traits")
    func fullScreenPresentationFromAnOverriddenPresentedLivesInTheWindowsTraits() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "custom",
                    "presentationController": { "overrideTraits": { "displayScale": 1.5 } } },
            "P2": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "present": "P2", "from": "P" },
            { "setTraits": { "displayScale": 3 } } ] }
        """)
        try await stage.perform(step: 1)
        try await stage.perform(step: 2)
        #expect(await stage.node("P2")?.presenting == "P")
        #expect(try await stage.controller("P2").traitCollection.displayScale == 2)
        try await stage.perform(step: 3)
        let to = "h=compact v=regular idiom=phone scale=3"
        let previous = "h=compact v=regular idiom=phone scale=2"
        #expect(stage.lines(step: 3, kinds: Lines.traitKinds) == [
            "R willTransition(to: \(to))",
            "pc:P willTransition(to: \(to))",
            "pc:P2 willTransition(to: \(to))",
            "P2 willTransition(to: \(to))",
            "R traitCollectionDidChange(previous: \(previous))",
            "pc:P traitCollectionDidChange(previous: \(previous))",
            "pc:P2 traitCollectionDidChange(previous: \(previous))",
            "P2 traitCollectionDidChange(previous: \(previous))",
        ])
        #expect(try await stage.controller("P").traitCollection.displayScale == 1.5)
        #expect(try await stage.controller("P2").traitCollection.displayScale == 3)
    }

    /// R16: a controller whose traits do not change gets no trait messages, but its subtree is
    /// still visited: X (pinned to scale 3 by R's override) and P, presented over X's context,
    /// stay silent, while P2, which P presents full screen in the window's traits, changes.
    @Test("R16: unchanged context is still walked to a presentation in the windows traits")
    func unchangedContextIsStillWalkedToAPresentationInTheWindowsTraits() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["X"], "traitOverrides": { "X": { "displayScale": 3 } } },
            "X":  { "kind": "view", "definesPresentationContext": true },
            "P":  { "kind": "view", "modalPresentationStyle": "overCurrentContext" },
            "P2": { "kind": "view", "modalPresentationStyle": "overFullScreen" } },
          "steps": [
            { "present": "P", "from": "X" },
            { "present": "P2", "from": "P" },
            { "setTraits": { "displayScale": 4 } } ] }
        """)
        let to = "h=regular v=regular idiom=pad scale=4"
        let previous = "h=regular v=regular idiom=pad scale=2"
        #expect(lines(run, step: 3, kinds: Lines.traitKinds) == [
            "R willTransition(to: \(to))",
            "pc:P2 willTransition(to: \(to))",
            "P2 willTransition(to: \(to))",
            "R traitCollectionDidChange(previous: \(previous))",
            "pc:P2 traitCollectionDidChange(previous: \(previous))",
            "P2 traitCollectionDidChange(previous: \(previous))",
        ])
    }

    /// R48 + R18: a current-context presentation adapts when its *context's* width changes,
    /// here through the context's trait override (ios8: currentContext → fullScreen).
    @Test("R48 + R18: current context adapts when its context goes compact")
    func currentContextAdaptsWhenItsContextGoesCompact() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"] },
            "X": { "kind": "view", "definesPresentationContext": true },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" } },
          "steps": [
            { "present": "P", "from": "X" },
            { "setTraitOverride": { "container": "R", "child": "X", "traits": { "horizontalSizeClass": "compact" } } } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Lines.adaptationKinds).isEmpty)
        #expect(stage.lines(step: 2, kinds: ["willTransition"] + Lines.adaptationKinds) == [
            "X willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "pc:P willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "pc:P adaptivePresentationStyle -> fullScreen",
            "pc:P willPresentWithAdaptiveStyle(fullScreen)",
            "P willTransition(to: h=compact v=regular idiom=pad scale=2)",
        ])
        #expect(await stage.pc("P")?.style == .fullScreen)
    }
}
