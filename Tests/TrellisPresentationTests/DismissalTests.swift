import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.6 (R43–R46) and the dismissal order of R42. CONFORMANCE 25, 26.

@Suite("R42–R46: Dismissal")
struct DismissalTests {
    /// R → A → B → C, every link full screen, then `dismiss` on `receiver` (step 4).
    static func chain(dismissing receiver: String, then extra: String = "") -> String {
        """
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "A": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "B": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "C": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "D": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "A", "from": "R" },
            { "present": "B", "from": "A" },
            { "present": "C", "from": "B" },
            { "dismiss": "\(receiver)" }\(extra) ] }
        """
    }

    /// CONFORMANCE 25 — R44: `B.dismiss()` removes only C; B, covered by C, reappears.
    @Test("R44: dismiss in the middle removes only what is above")
    func dismissInTheMiddleRemovesOnlyWhatIsAbove() async throws {
        let stage = try await Stage(Self.chain(dismissing: "B"))
        try await stage.runAll()
        #expect(stage.lines(step: 4, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "B dismiss(C)",
            "C viewWillDisappear",
            "B viewWillAppear",
            "B viewDidAppear",
            "C viewDidDisappear",
            "B dismissCompletion(C)",
        ])
        #expect(stage.lines(step: 4, kinds: Lines.presentationCallbackKinds) == [
            "pc:C dismissalTransitionWillBegin(animated: true)",
            "pc:C dismissalTransitionDidEnd(completed: true)",
        ])
        #expect(await stage.node("B")?.presented == nil)
        #expect(await stage.node("C")?.presenting == nil)
        #expect(await stage.node("A")?.presented == "B")
        #expect(await stage.node("R")?.presented == "A")
        #expect(await stage.pc("C") == nil)
    }

    /// CONFORMANCE 25 — R43: `C.dismiss()` with nothing presented forwards to B; the
    /// completion runs on C, the controller called.
    @Test("R43: dismiss on the top forwards to its presenter")
    func dismissOnTheTopForwardsToItsPresenter() async throws {
        let stage = try await Stage(Self.chain(dismissing: "C"))
        try await stage.runAll()
        #expect(stage.lines(step: 4, kinds: ["dismiss", "dismissCompletion"]) == [
            "B dismiss(C)",
            "C dismissCompletion(C)",
        ])
        #expect(await stage.node("B")?.presented == nil)
        #expect(await stage.node("C")?.presenting == nil)
        #expect(await stage.node("A")?.presented == "B")
    }

    /// CONFORMANCE 25 — R44/R45: `A.dismiss()` removes B and C, only C animated, the
    /// completion after B's and C's disappearance; R untouched; A can present again. B, covered
    /// by C, disappeared when C was presented: appearance callbacks stay paired (decisions.md).
    @Test("R44 + R45: dismiss low in the chain removes everything above and only animates the top")
    func dismissLowInTheChainRemovesEverythingAboveAndOnlyAnimatesTheTop() async throws {
        let extra = #", { "present": "D", "from": "A" }"#
        let stage = try await Stage(Self.chain(dismissing: "A", then: extra))
        for step in 1...4 { try await stage.perform(step: step) }
        #expect(stage.lines(step: 4, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "A dismiss(B)",
            "C viewWillDisappear",
            "A viewWillAppear",
            "A viewDidAppear",
            "C viewDidDisappear",
            "A dismissCompletion(B)",
        ])
        let callbacks = stage.lines(step: 4, kinds: Lines.presentationCallbackKinds)
        #expect(callbacks.sorted() == [
            "pc:B dismissalTransitionDidEnd(completed: true)",
            "pc:B dismissalTransitionWillBegin(animated: false)",
            "pc:C dismissalTransitionDidEnd(completed: true)",
            "pc:C dismissalTransitionWillBegin(animated: true)",
        ])
        // Each presentation controller's dismissal begins before it ends, and both before the completion.
        let step = stage.lines(step: 4)
        for id in ["B", "C"] {
            let begin = position(of: "pc:\(id) dismissalTransitionWillBegin(animated: \(id == "C"))", in: step)
            let end = position(of: "pc:\(id) dismissalTransitionDidEnd(completed: true)", in: step)
            let completion = position(of: "A dismissCompletion(B)", in: step)
            #expect(begin != nil && end != nil && completion != nil && begin! < end! && end! < completion!)
        }
        #expect(events(stage.events, step: 4, on: "R").isEmpty)
        #expect(events(stage.events, step: 4, on: "pc:A").isEmpty)
        #expect(await stage.node("A")?.presented == nil)
        #expect(await stage.node("B")?.presenting == nil)
        #expect(await stage.node("B")?.presented == nil)
        #expect(await stage.node("C")?.presenting == nil)
        #expect(await stage.node("R")?.presented == "A")

        try await stage.perform(step: 5)
        #expect(stage.lines(step: 5, kinds: ["present", "presentCompletion", "warning", "error"]) == [
            "A present(D, style: fullScreen)",
            "A presentCompletion(D)",
        ])
        #expect(await stage.node("A")?.presented == "D")
    }

    /// SPEC R44/R45 — `R.dismiss()` removes A, B and C; only C, the one on screen, disappears.
    @Test("R44 + R45: dismiss on the root removes the whole chain")
    func dismissOnTheRootRemovesTheWholeChain() async throws {
        let stage = try await Stage(Self.chain(dismissing: "R"))
        try await stage.runAll()
        #expect(stage.lines(step: 4, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "R dismiss(A)",
            "C viewWillDisappear",
            "R viewWillAppear",
            "R viewDidAppear",
            "C viewDidDisappear",
            "R dismissCompletion(A)",
        ])
        #expect(stage.lines(step: 4, kinds: ["dismissalTransitionWillBegin"]).sorted() == [
            "pc:A dismissalTransitionWillBegin(animated: false)",
            "pc:B dismissalTransitionWillBegin(animated: false)",
            "pc:C dismissalTransitionWillBegin(animated: true)",
        ])
        for id in ["R", "A", "B", "C"] {
            #expect(await stage.node(ControllerID(id))?.presented == nil, "\(id)")
        }
        #expect(await stage.node("A")?.presenting == nil)
    }

    /// CONFORMANCE 26 — R46: V, root of the presented navigation controller N, dismisses with
    /// nothing presented: the whole of N goes.
    @Test("R46: dismiss from inside a presented container dismisses the container")
    func dismissFromInsideAPresentedContainerDismissesTheContainer() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "N": { "kind": "navigation", "children": ["V"], "modalPresentationStyle": "fullScreen" },
            "V": { "kind": "view" } },
          "steps": [
            { "present": "N", "from": "R" },
            { "dismiss": "V" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: ["present"] + Lines.appearanceKinds) == [
            "R present(N, style: fullScreen)",
            "R viewWillDisappear",
            "N viewWillAppear",
            "V viewWillAppear",
            "N viewDidAppear",
            "V viewDidAppear",
            "R viewDidDisappear",
            "R presentCompletion(N)",
        ])
        #expect(stage.lines(step: 2, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "R dismiss(N)",
            "N viewWillDisappear",
            "V viewWillDisappear",
            "R viewWillAppear",
            "R viewDidAppear",
            "N viewDidDisappear",
            "V viewDidDisappear",
            "V dismissCompletion(N)",
        ])
        #expect(await stage.node("R")?.presented == nil)
        #expect(await stage.node("N")?.presenting == nil)
        #expect(await stage.node("V")?.parent == "N")
        #expect(await stage.pc("N") == nil)
    }

    /// SPEC R46 — also from deeper inside the presented container.
    @Test("R46: dismiss from a grandchild of a presented container dismisses the container")
    func dismissFromAGrandchildOfAPresentedContainerDismissesTheContainer() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "N":  { "kind": "navigation", "children": ["V"], "modalPresentationStyle": "overFullScreen" },
            "V":  { "kind": "view", "children": ["V2"] },
            "V2": { "kind": "view" } },
          "steps": [
            { "present": "N", "from": "R" },
            { "dismiss": "V2" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["dismiss", "dismissCompletion"]) == [
            "R dismiss(N)",
            "V2 dismissCompletion(N)",
        ])
        #expect(await stage.node("R")?.presented == nil)
    }

    /// SPEC R44 — "removes its presented controller and everything above it": P, presented
    /// over the context X inside A, is above A and goes with it when R dismisses A.
    @Test("R44: dismiss removes context presentations made inside the removed controller")
    func dismissRemovesContextPresentationsMadeInsideTheRemovedController() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "A": { "kind": "view", "children": ["X"], "modalPresentationStyle": "fullScreen" },
            "X": { "kind": "view", "definesPresentationContext": true },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" } },
          "steps": [
            { "present": "A", "from": "R" },
            { "present": "P", "from": "X" },
            { "dismiss": "R" } ] }
        """)
        try await stage.perform(step: 1)
        try await stage.perform(step: 2)
        #expect(await stage.node("X")?.presented == "P")
        try await stage.perform(step: 3)
        let step = stage.lines(step: 3)
        #expect(step.first == "R dismiss(A)")
        #expect(step.last == "R dismissCompletion(A)")
        #expect(step.contains("P viewWillDisappear"))
        #expect(step.contains("P viewDidDisappear"))
        #expect(await stage.node("R")?.presented == nil)
        #expect(await stage.node("A")?.presenting == nil)
        #expect(await stage.node("X")?.presented == nil)
        #expect(await stage.node("P")?.presenting == nil)
        #expect(await stage.pc("P") == nil)
    }
}
