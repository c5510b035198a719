import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.5: who presents (R35, R37, R39), one presentation at a time (R28–R30), refusals
// (R31) and the shape of the hierarchy (R32, R33). CONFORMANCE 20–24, 27.

@Suite("R28–R39: Choosing the presenter")
struct PresenterSelectionTests {
    /// CONFORMANCE 20 — R35: C1 does not cover the screen, so its full-screen presentation is
    /// made by R; only R's link is set; P is sized to the window; the completion runs on C1.
    @Test("R35: full screen presentation from a child is rerouted to the root")
    func fullScreenPresentationFromAChildIsReroutedToTheRoot() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1"],
                    "overrides": { "sizeForChild": { "fraction": [0.5, 0.5] } } },
            "C1": { "kind": "view" },
            "P":  { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "C1", "style": "fullScreen" },
            { "resizeWindow": [568, 320] } ] }
        """)
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1, kinds: ["present", "presentCompletion", "sizeForChild", "frameOfPresentedViewInContainerView"]) == [
            "R present(P, style: fullScreen)",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 320x568",
            "C1 presentCompletion(P)",
        ])
        #expect(await stage.node("R")?.presented == "P")
        #expect(await stage.node("P")?.presenting == "R")
        #expect(await stage.node("C1")?.presented == nil)
        #expect(try await stage.controller("C1").size == Size(160, 284))
        #expect(try await stage.controller("P").size == Size(320, 568))
        #expect(await stage.pc("P")?.presentedViewFrame.size == Size(320, 568))

        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 284x160",
            "C1 viewWillTransition(to: 284x160)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
        ])
    }

    /// CONFORMANCE 21 (direct) — R30: A presents B; `A.present(C)` is refused with a warning;
    /// nothing reaches C, no completion, state unchanged.
    @Test("R30: presenting while presenting is refused with a warning")
    func presentingWhilePresentingIsRefusedWithAWarning() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "A",
          "controllers": {
            "A": { "kind": "view" },
            "B": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "C": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "B", "from": "A" },
            { "present": "C", "from": "A" } ] }
        """)
        try await stage.perform(step: 1)
        let before = await stage.window.structure
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2) == ["A warning Attempt to present C on A (from A) which is already presenting B"])
        #expect(await stage.window.structure == before)
        #expect(await stage.node("A")?.presented == "B")
        #expect(await stage.node("C")?.presenting == nil)
        #expect(await stage.pc("C") == nil)
    }

    @Test("R31: presenting from a tab the tab bar controller does not show is refused, nothing changed and no appearance callback; selected, it appears as it never disappeared")
    func presentingFromAHiddenTabIsRefused() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "T",
          "controllers": {
            "T": { "kind": "tab", "children": ["A", "B"] }, "A": {}, "B": { "definesPresentationContext": true },
            "Q": { "modalPresentationStyle": "currentContext" } },
          "steps": [ { "present": "Q", "from": "B" }, { "select": "T", "index": 1 } ] }
        """)
        let before = await stage.window.structure
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1) == ["B error Attempt to present Q on B whose view is not in the window hierarchy"])
        #expect(await stage.window.structure == before)
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2).filter { $0.hasPrefix("B view") && $0.contains("Appear") } == ["B viewWillAppear", "B viewDidAppear"])
        #expect(!stage.lines(step: 2).contains { $0.contains("Disappear") && $0.hasPrefix("B ") })
    }

    @Test("R31, §3.2: a collapsed split view's secondary (and what it holds) presents nothing, its state unchanged; expanded, it presents")
    func presentingFromACollapsedSecondaryIsRefused() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["M", "N"] }, "M": {}, "N": { "kind": "navigation", "children": ["D"] }, "D": {},
            "Q": { "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "present": "Q", "from": "D" },
            { "present": "Q", "from": "M" },
            { "dismiss": "Q" },
            { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } },
            { "present": "Q", "from": "D" } ] }
        """)
        try await stage.perform(step: 1)
        let before = await stage.window.structure.nodes
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2) == ["D error Attempt to present Q on D whose view is not in the window hierarchy"])
        #expect(await stage.window.structure.nodes == before)
        // The primary is shown: it presents (through the split, R35).
        try await stage.perform(step: 3)
        #expect(stage.lines(step: 3).first == "S present(Q, style: formSheet)")
        try await stage.perform(step: 4)
        try await stage.perform(step: 5)
        try await stage.perform(step: 6)
        #expect(stage.lines(step: 6).first == "S present(Q, style: formSheet)")
        #expect(stage.lines(step: 6).last == "D presentCompletion(Q)")
    }

    /// CONFORMANCE 21 (rerouted) — the warning names the presenter after rerouting and the
    /// controller called.
    @Test func reroutedPresentingWhilePresentingNamesBothControllers() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1"] },
            "C1": { "kind": "view" },
            "Q":  { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "Q", "from": "R" },
            { "present": "P", "from": "C1" } ] }
        """)
        try await stage.perform(step: 1)
        let before = await stage.window.structure
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2) == ["R warning Attempt to present P on R (from C1) which is already presenting Q"])
        #expect(await stage.window.structure == before)
        #expect(await stage.node("R")?.presented == "Q")
        #expect(await stage.node("C1")?.presented == nil)
        #expect(await stage.node("P")?.presenting == nil)
    }

    /// CONFORMANCE 22 — R37 with no context definer: the window's root presents and PC(P)
    /// works with the root's size (the context controller's size, §3.5).
    @Test("R37: current context without a definer is presented by the root")
    func currentContextWithoutADefinerIsPresentedByTheRoot() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"],
                   "overrides": { "sizeForChild": { "fraction": [0.5, 1] } } },
            "X": { "kind": "view", "children": ["V"] },
            "V": { "kind": "view" },
            "P": { "kind": "view" } },
          "steps": [ { "present": "P", "from": "V", "style": "currentContext" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: ["present", "sizeForChild", "frameOfPresentedViewInContainerView", "presentCompletion"]) == [
            "R present(P, style: currentContext)",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 1024x768",
            "V presentCompletion(P)",
        ])
        #expect(await stage.node("R")?.presented == "P")
        #expect(await stage.node("P")?.presenting == "R")
        #expect(await stage.node("V")?.presented == nil)
    }

    /// CONFORMANCE 22, navigation variant — X defines the context by default: X presents, P
    /// covers only X, and on rotation PC(P) is visited inside X's subtree: before X's later
    /// sibling Y and before R's own presented chain (R5, R6).
    @Test("R5 + R6: current context in a navigation controller is visited inside its subtree")
    func currentContextInANavigationControllerIsVisitedInsideItsSubtree() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X", "Y"],
                   "overrides": { "sizeForChild": { "fraction": [0.5, 1] } } },
            "X": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "Y": { "kind": "view" },
            "P": { "kind": "view" },
            "Q": { "kind": "view", "modalPresentationStyle": "overFullScreen" } },
          "steps": [
            { "present": "P", "from": "V", "style": "currentContext" },
            { "present": "Q", "from": "R" },
            { "resizeWindow": [768, 1024] } ] }
        """)
        try await stage.perform(step: 1)
        #expect(stage.lines(step: 1, kinds: ["present", "sizeForChild", "frameOfPresentedViewInContainerView", "presentCompletion"]) == [
            "X present(P, style: currentContext)",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 512x768",
            "V presentCompletion(P)",
        ])
        #expect(await stage.node("X")?.presented == "P")
        #expect(await stage.node("P")?.presenting == "X")
        #expect(try await stage.controller("P").size == Size(512, 768))
        try await stage.perform(step: 2)
        #expect(await stage.node("R")?.presented == "Q")
        try await stage.perform(step: 3)
        #expect(stage.lines(step: 3, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 768x1024)",
            "R sizeForChild(X, parent: 768x1024) -> 384x1024",
            "X viewWillTransition(to: 384x1024)",
            "X sizeForChild(V, parent: 384x1024) -> 384x1024",
            "V viewWillTransition(to: 384x1024)",
            "pc:P viewWillTransition(to: 384x1024)",
            "pc:P sizeForChild(P, parent: 384x1024) -> 384x1024",
            "P viewWillTransition(to: 384x1024)",
            "R sizeForChild(Y, parent: 768x1024) -> 384x1024",
            "Y viewWillTransition(to: 384x1024)",
            "pc:Q viewWillTransition(to: 768x1024)",
            "pc:Q sizeForChild(Q, parent: 768x1024) -> 768x1024",
            "Q viewWillTransition(to: 768x1024)",
        ])
    }

    /// CONFORMANCE 23 — R37 starts at the receiver: V defines the context and presents itself;
    /// overCurrentContext keeps V's views (R41), so no presenter appearance callbacks (R42).
    @Test("R37 + R41 + R42: receiver that defines the context presents over itself")
    func receiverThatDefinesTheContextPresentsOverItself() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["V"] },
            "V": { "kind": "view", "definesPresentationContext": true },
            "P": { "kind": "view", "modalPresentationStyle": "overCurrentContext" } },
          "steps": [ { "present": "P", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: ["present"] + Lines.appearanceKinds) == [
            "V present(P, style: overCurrentContext)",
            "P viewWillAppear",
            "P viewDidAppear",
            "V presentCompletion(P)",
        ])
        #expect(await stage.node("V")?.presented == "P")
        #expect(await stage.node("P")?.presenting == "V")
        #expect(await stage.node("R")?.presented == nil)
        #expect(await stage.pc("P")?.removesPresenterViews == false)
    }

    static func contextTransitionStyle(provides: Bool) -> String {
        """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["D"] },
            "D": { "kind": "view", "children": ["V"], "definesPresentationContext": true,
                   "providesPresentationContextTransitionStyle": \(provides),
                   "modalTransitionStyle": "crossDissolve" },
            "V": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext",
                   "modalTransitionStyle": "coverVertical" } },
          "steps": [ { "present": "P", "from": "V" } ] }
        """
    }

    static func presentEvent(_ run: ScenarioRun) -> (presenter: ControllerID, style: ModalPresentationStyle, transition: ModalTransitionStyle)? {
        for event in run.events where event.step == 1 {
            if case let .present(presented, style, transitionStyle) = event.message, presented == "P" {
                return (event.controller, style, transitionStyle)
            }
        }
        return nil
    }

    /// CONFORMANCE 24 — R39: the context's transition style replaces P's; the presentation
    /// style is not replaced.
    @Test("R39: context providing its transition style replaces the presented one")
    func contextProvidingItsTransitionStyleReplacesThePresentedOne() async throws {
        let run = try await run(Self.contextTransitionStyle(provides: true))
        let present = try #require(Self.presentEvent(run))
        #expect(present.presenter == "D")
        #expect(present.transition == .crossDissolve)
        #expect(present.style == .currentContext)
        #expect(lines(run, step: 1, kinds: ["present"]) == ["D present(P, style: currentContext)"])
    }

    /// CONFORMANCE 24, control — without the flag P keeps its own transition style.
    @Test func contextNotProvidingItsTransitionStyleKeepsThePresentedOne() async throws {
        let run = try await run(Self.contextTransitionStyle(provides: false))
        let present = try #require(Self.presentEvent(run))
        #expect(present.presenter == "D")
        #expect(present.transition == .coverVertical)
    }

    /// SPEC R32/R33 — a presented controller has no parent, and no controller's children
    /// contain it (neither the presenter's nor the caller's).
    @Test("R32 + R33: presented controller has no parent and is no ones child")
    func presentedControllerHasNoParentAndIsNoOnesChild() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1"] },
            "C1": { "kind": "view" },
            "N":  { "kind": "navigation", "children": ["V"], "modalPresentationStyle": "fullScreen" },
            "V":  { "kind": "view" } },
          "steps": [ { "present": "N", "from": "C1" } ] }
        """)
        try await stage.runAll()
        #expect(await stage.node("N")?.parent == nil)
        #expect(await stage.node("N")?.presenting == "R")
        #expect(await stage.node("V")?.parent == "N")
        #expect(await stage.node("V")?.presenting == nil)
        #expect(await stage.node("R")?.children == ["C1"])
        #expect(await stage.node("C1")?.children == [])
        #expect(try await stage.controller("R").children == ["C1"])
        #expect(try await stage.controller("C1").children == [])
        #expect(try await stage.controller("N").children == ["V"])
        let structure = await stage.window.structure
        for node in structure.nodes.values {
            #expect(!node.children.contains("N"), "\(node.id) lists N as a child")
        }
    }

    /// SPEC R35, its example: V inside navigation controller N, N the window's root:
    /// `V.present(P)` (ios8 default: fullScreen) makes N the presenter.
    @Test("R35: present from inside the root navigation controller is made by it")
    func presentFromInsideTheRootNavigationControllerIsMadeByIt() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "N",
          "controllers": {
            "N": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "P": { "kind": "view" } },
          "steps": [ { "present": "P", "from": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: ["present", "presentCompletion"]) == [
            "N present(P, style: fullScreen)",
            "V presentCompletion(P)",
        ])
        #expect(await stage.node("P")?.presenting == "N")
        #expect(await stage.node("N")?.presented == "P")
        #expect(await stage.node("V")?.presented == nil)
    }

    /// SPEC R35 — the top of the presentation stack presents even when it is a form sheet: a
    /// child of the presented form sheet F asks, F presents.
    @Test("R35: top of the presentation stack presents even as a form sheet")
    func topOfThePresentationStackPresentsEvenAsAFormSheet() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "F":  { "kind": "view", "children": ["FC"], "modalPresentationStyle": "formSheet" },
            "FC": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "F", "from": "R" },
            { "present": "P", "from": "FC" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["present", "presentCompletion", "warning", "error"]) == [
            "F present(P, style: fullScreen)",
            "FC presentCompletion(P)",
        ])
        #expect(await stage.node("P")?.presenting == "F")
        #expect(await stage.node("F")?.presented == "P")
        #expect(await stage.node("R")?.presented == "F")
        #expect(await stage.node("FC")?.presented == nil)
        #expect(try await stage.controller("P").size == Size(1024, 768))
    }

    /// SPEC R30 after R37 rerouting: the context X is already presenting.
    @Test("R30 + R37: current context presenting while the context presents is refused")
    func currentContextPresentingWhileTheContextPresentsIsRefused() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["X"] },
            "X":  { "kind": "navigation", "children": ["V"] },
            "V":  { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "currentContext" },
            "P2": { "kind": "view", "modalPresentationStyle": "overCurrentContext" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "present": "P2", "from": "V" } ] }
        """)
        try await stage.perform(step: 1)
        let before = await stage.window.structure
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2) == ["X warning Attempt to present P2 on X (from V) which is already presenting P"])
        #expect(await stage.window.structure == before)
    }

    /// R39 concerns the context of a current-context presentation only: a full-screen
    /// presentation from inside D keeps P's own transition style.
    @Test("R39: context transition style does not apply to full screen presentations")
    func contextTransitionStyleDoesNotApplyToFullScreenPresentations() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["D"] },
            "D": { "kind": "view", "children": ["V"], "definesPresentationContext": true,
                   "providesPresentationContextTransitionStyle": true,
                   "modalTransitionStyle": "crossDissolve" },
            "V": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "fullScreen",
                   "modalTransitionStyle": "flipHorizontal" } },
          "steps": [ { "present": "P", "from": "V" } ] }
        """)
        let present = try #require(Self.presentEvent(run))
        #expect(present.presenter == "R")
        #expect(present.transition == .flipHorizontal)
    }
}
