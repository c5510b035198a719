import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.2 and §3.8 (R55–R57). CONFORMANCE 28.

@Suite("R55–R57: show and showDetail")
struct ShowTests {
    static let showKinds = ["show", "showDetail", "push", "replaceDetail", "present"]

    /// CONFORMANCE 28 — V inside navigation controller N: `V.show(W)` pushes W onto N; no
    /// presentation, no presentation controller.
    @Test func showInsideANavigationControllerPushes() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "N",
          "controllers": {
            "N": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "W": { "kind": "view" } },
          "steps": [ { "show": "W", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "V show(W)",
            "N push(W)",
        ])
        #expect(await stage.node("W")?.parent == "N")
        #expect(await stage.node("N")?.children == ["V", "W"])
        #expect(await stage.node("W")?.presenting == nil)
        #expect(await stage.node("N")?.presented == nil)
        #expect(await stage.pc("W") == nil)
        #expect(try await stage.controller("N").children == ["V", "W"])
    }

    /// CONFORMANCE 28 and SPEC R55 — nobody handles `show`: the window's root presents W
    /// modally (not V, not V's parent), in the profile's default style.
    @Test("R55: show with no handler makes the window root present modally")
    func showWithNoHandlerMakesTheWindowRootPresentModally() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"] },
            "X": { "kind": "view", "children": ["V"] },
            "V": { "kind": "view" },
            "W": { "kind": "view" } },
          "steps": [ { "show": "W", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "V show(W)",
            "R present(W, style: fullScreen)",
        ])
        #expect(await stage.node("W")?.presenting == "R")
        #expect(await stage.node("R")?.presented == "W")
        #expect(await stage.node("V")?.presented == nil)
        #expect(await stage.node("X")?.presented == nil)
        #expect(await stage.node("W")?.parent == nil)
        #expect(await stage.pc("W") != nil)
    }

    static func split(_ window: String) -> String {
        """
        { \(window), "root": "S",
          "controllers": {
            "S":  { "kind": "split", "children": ["M", "D0"] },
            "M":  { "kind": "navigation", "children": ["MV"] },
            "MV": { "kind": "view" },
            "D0": { "kind": "view" },
            "W":  { "kind": "view" } },
          "steps": [ { "showDetail": "W", "from": "MV" } ] }
        """
    }

    /// CONFORMANCE 28 — R56: in regular width the split view controller replaces its detail.
    @Test("R56: show detail in regular width replaces the detail")
    func showDetailInRegularWidthReplacesTheDetail() async throws {
        let stage = try await Stage(Self.split(Pad.window))
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "MV showDetail(W)",
            "S replaceDetail(W)",
        ])
        #expect(await stage.node("S")?.children == ["M", "W"])
        #expect(await stage.node("W")?.parent == "S")
        #expect(await stage.node("D0")?.parent == nil)
        #expect(await stage.node("M")?.children == ["MV"])
        #expect(await stage.node("W")?.presenting == nil)
        #expect(try await stage.controller("W").size == Size(703, 768))
    }

    /// CONFORMANCE 28 — R57: collapsed in compact width, `showDetail` falls back to `show`,
    /// which pushes W onto the primary navigation controller.
    @Test("R57: show detail in compact width pushes onto the primary navigation controller")
    func showDetailInCompactWidthPushesOntoThePrimaryNavigationController() async throws {
        let stage = try await Stage(Self.split(Phone.window))
        try await stage.runAll()
        let produced = stage.lines(step: 1, kinds: Self.showKinds)
        #expect(produced.first == "MV showDetail(W)")
        #expect(produced.last == "M push(W)")
        #expect(!produced.contains { $0.contains("replaceDetail") || $0.contains("present(") })
        #expect(await stage.node("M")?.children == ["MV", "W"])
        #expect(await stage.node("W")?.parent == "M")
        #expect(await stage.node("S")?.children == ["M", "D0"])
        #expect(await stage.node("W")?.presenting == nil)
    }

    /// SPEC R55 — the lookup walks parents, then a presented controller's presenter: from
    /// inside P, presented by the navigation controller N, `show` pushes onto N.
    @Test("R55: show from inside a presented controller continues at its presenter")
    func showFromInsideAPresentedControllerContinuesAtItsPresenter() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "N",
          "controllers": {
            "N":  { "kind": "navigation", "children": ["V"] },
            "V":  { "kind": "view" },
            "P":  { "kind": "view", "children": ["PV"], "modalPresentationStyle": "overFullScreen" },
            "PV": { "kind": "view" },
            "W":  { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "show": "W", "from": "PV" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: Self.showKinds) == [
            "PV show(W)",
            "N push(W)",
        ])
        #expect(await stage.node("N")?.children == ["V", "W"])
        #expect(await stage.node("W")?.parent == "N")
    }

    /// SPEC R56/R57 — no split view controller handles `showDetail`: the window's root
    /// presents modally.
    @Test("R56 + R57: show detail with no handler makes the window root present modally")
    func showDetailWithNoHandlerMakesTheWindowRootPresentModally() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["V"] },
            "V": { "kind": "view" },
            "W": { "kind": "view" } },
          "steps": [ { "showDetail": "W", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "V showDetail(W)",
            "R present(W, style: fullScreen)",
        ])
        #expect(await stage.node("W")?.presenting == "R")
        #expect(await stage.node("V")?.presented == nil)
    }
}
