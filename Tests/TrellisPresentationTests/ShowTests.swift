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

    /// CONFORMANCE 28, SPEC §3.2 (turn 3, Apple's `showDetailViewController(_:sender:)`): collapsed
    /// in compact width, the split view forwards `showDetail` to the controller being replaced —
    /// its primary column, onto which the secondary is collapsed — and the navigation controller
    /// there pushes W, which takes that navigation controller's size and compact traits. No
    /// `show` line: the split view forwards the request, it does not start a `show` lookup.
    @Test("§3.2: show detail in compact width is forwarded to the primary navigation controller, which pushes")
    func showDetailInCompactWidthPushesOntoThePrimaryNavigationController() async throws {
        let stage = try await Stage(Self.split(Phone.window))
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "MV showDetail(W)",
            "M push(W)",
        ])
        #expect(await stage.node("M")?.children == ["MV", "W"])
        #expect(await stage.node("W")?.parent == "M")
        #expect(await stage.node("S")?.children == ["M", "D0"])
        #expect(await stage.node("W")?.presenting == nil)
        #expect(try await stage.controller("W").size == Phone.size)
        #expect(try await stage.controller("W").traitCollection == Phone.traits)
        #expect(await stage.window.frame(of: "W") == Rect(origin: .zero, size: Phone.size))
    }

    /// SPEC §3.2: collapsed, with a primary that is not a navigation controller, nothing else
    /// shows W: the split view presents it modally, from itself. So a navigation controller
    /// around the split view does not push it (the `show` fallback this replaces did): the full-
    /// screen presentation is made by the top of the split view's ancestry (R35), and W takes
    /// the window's size and traits.
    @Test("§3.2: show detail in compact width with a plain primary is presented modally by the split view")
    func showDetailInCompactWidthWithAPlainPrimaryIsPresentedModally() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "N",
          "controllers": {
            "N":  { "kind": "navigation", "children": ["S"] },
            "S":  { "kind": "split", "children": ["M", "D0"] },
            "M":  { "kind": "view" },
            "D0": { "kind": "view" },
            "W":  { "kind": "view" } },
          "steps": [ { "showDetail": "W", "from": "M" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "M showDetail(W)",
            "N present(W, style: fullScreen)",
        ])
        #expect(await stage.node("N")?.children == ["S"])
        #expect(await stage.node("S")?.children == ["M", "D0"])
        #expect(await stage.node("W")?.parent == nil)
        #expect(await stage.node("W")?.presenting == "N")
        #expect(try await stage.controller("W").size == Phone.size)
        #expect(try await stage.controller("W").traitCollection == Phone.traits)
    }

    /// SPEC §3.2 and R37: it is the split view that presents — a current-context W is presented
    /// in the context the split view defines, not by the window's root, and covers the split
    /// view's frame with the split view's traits.
    @Test("§3.2: a collapsed split view that defines a context presents a current-context detail itself")
    func showDetailInCompactWidthIsPresentedFromTheSplitView() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["S"] },
            "S":  { "kind": "split", "children": ["M", "D0"], "definesPresentationContext": true },
            "M":  { "kind": "view" },
            "D0": { "kind": "view" },
            "W":  { "kind": "view", "modalPresentationStyle": "overCurrentContext" } },
          "steps": [ { "showDetail": "W", "from": "M" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Self.showKinds) == [
            "M showDetail(W)",
            "S present(W, style: overCurrentContext)",
        ])
        #expect(await stage.node("W")?.presenting == "S")
        #expect(await stage.node("R")?.presented == nil)
        #expect(try await stage.controller("W").size == Phone.size)
        #expect(try await stage.controller("W").traitCollection == Phone.traits)
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
