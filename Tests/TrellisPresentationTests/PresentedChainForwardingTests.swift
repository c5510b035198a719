import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R1–R8 as they reach a presented chain: the presenter's PC edge (R6), the presentation
// controller's own SFC (R7), and suppression above and inside the chain (R8).
// CONFORMANCE 1, 4, 5, 8.

@Suite("R1–R8: Size transitions through presented chains")
struct PresentedChainForwardingTests {
    /// CONFORMANCE 1 — the WWDC 2014 session 228 diagram.
    @Test func baselineDepthFirstOrderReachesThePresentationControllerAfterTheChildren() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"] },
            "C1": { "kind": "view" },
            "C2": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [568, 320] } ] }
        """)
        // PC(P) receives R's own new size, not an SFC answer of R; then asks its own SFC.
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 568x320",
            "C1 viewWillTransition(to: 568x320)",
            "R sizeForChild(C2, parent: 568x320) -> 568x320",
            "C2 viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
        ])
        #expect(run.failures.isEmpty)
    }

    /// SPEC R6: the PC edge carries the presenter's own new size; the presenter is never asked
    /// SFC for its presented controller, even when its SFC would answer something else.
    @Test("R6: presenter sends its own size to the presentation controller without asking size for child")
    func presenterSendsItsOwnSizeToThePresentationControllerWithoutAskingSizeForChild() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1"],
                    "overrides": { "sizeForChild": { "fraction": [0.5, 0.5] } } },
            "C1": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [568, 320] } ] }
        """)
        let rotation = lines(run, step: 2, kinds: Lines.sizeKinds)
        #expect(rotation == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 284x160",
            "C1 viewWillTransition(to: 284x160)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
        ])
        #expect(!rotation.contains { $0.hasPrefix("R sizeForChild(P") || $0.hasPrefix("R sizeForChild(pc:P") })
    }

    /// SPEC R7: PC(P) asks SFC(P, size it received) and P repeats R2–R7 with the answer.
    /// A page sheet in regular width is 768 wide × full height (§3.5).
    @Test("R7 + R2: presentation controller sizes the presented controller and it forwards to its children")
    func presentationControllerSizesThePresentedControllerAndItForwardsToItsChildren() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "P":  { "kind": "view", "children": ["P1"], "modalPresentationStyle": "pageSheet" },
            "P1": { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [768, 1024] } ] }
        """)
        // R2a: at presentation no size is asked; the page sheet's frame sizes P (768 × full height).
        #expect(lines(run, step: 1, kinds: ["sizeForChild", "frameOfPresentedViewInContainerView"]) == [
            "pc:P frameOfPresentedViewInContainerView -> 128,0 768x768",
        ])
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 768x1024)",
            "pc:P viewWillTransition(to: 768x1024)",
            "pc:P sizeForChild(P, parent: 768x1024) -> 768x1024",
            "P viewWillTransition(to: 768x1024)",
            "P sizeForChild(P1, parent: 768x1024) -> 768x1024",
            "P1 viewWillTransition(to: 768x1024)",
        ])
    }

    /// SPEC R4 + R7: the PC→P edge is decided by SFC, so an unchanged answer (a form sheet of
    /// its preferred size) leaves P and everything below it silent.
    @Test("R4 + R7: unchanged presented size skips the presented controller")
    func unchangedPresentedSizeSkipsThePresentedController() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view" },
            "P":  { "kind": "view", "children": ["P1"], "modalPresentationStyle": "formSheet",
                    "preferredContentSize": [500, 600] },
            "P1": { "kind": "view" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [768, 1024] } ] }
        """)
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 768x1024)",
            "pc:P viewWillTransition(to: 768x1024)",
            "pc:P sizeForChild(P, parent: 768x1024) -> 500x600",
        ])
    }

    /// CONFORMANCE 4 — R8: the presenter skipping super cuts its children and its presented chain.
    @Test("R8: suppression at the presenter cuts the presented chain")
    func suppressionAtThePresenterCutsThePresentedChain() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"],
                    "overrides": { "viewWillTransition": "noSuper" } },
            "C1": { "kind": "view" },
            "C2": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [568, 320] } ] }
        """)
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == ["R viewWillTransition(to: 568x320)"])
        let suppressed = lines(run, step: 2, kinds: ["suppressed"])
        #expect(suppressed.count == 1)
        #expect(suppressed.first?.hasPrefix("R suppressed viewWillTransition (cut: C1, C2") == true)
    }

    /// CONFORMANCE 5 — R8 in a presentation controller: a custom PC whose VWT skips super
    /// neither asks SFC nor messages P.
    @Test("R8: suppression in a presentation controller silences the presented")
    func suppressionInAPresentationControllerSilencesThePresented() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"] },
            "C1": { "kind": "view" },
            "C2": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "custom",
                    "presentationController": { "overrides": { "viewWillTransition": "noSuper" } } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [568, 320] } ] }
        """)
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 568x320",
            "C1 viewWillTransition(to: 568x320)",
            "R sizeForChild(C2, parent: 568x320) -> 568x320",
            "C2 viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",
        ])
        #expect(lines(run, step: 2, kinds: ["suppressed"]) == ["pc:P suppressed viewWillTransition (cut: P)"])
    }

    /// The chain of CONFORMANCE 8: R presents A (fullScreen), A presents B (custom, 80 %),
    /// B presents C (overFullScreen).
    static func chainScenario(bSizing: String) -> String {
        """
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["R1"] },
            "R1": { "kind": "view" },
            "A":  { "kind": "view", "children": ["A1"], "modalPresentationStyle": "fullScreen" },
            "A1": { "kind": "view" },
            "B":  { "kind": "view", "children": ["B1"], "modalPresentationStyle": "custom",
                    "presentationController": { "sizeForChild": \(bSizing), "frame": { "align": "center" } } },
            "B1": { "kind": "view" },
            "C":  { "kind": "view", "modalPresentationStyle": "overFullScreen" } },
          "steps": [
            { "present": "A", "from": "R" },
            { "present": "B", "from": "A" },
            { "present": "C", "from": "B" },
            { "resizeWindow": [568, 320] } ] }
        """
    }

    /// CONFORMANCE 8 — each PC gets its presenter's new size (R6), its presented controller
    /// gets the PC's answer (R7), whose children come before the next PC (R5).
    @Test("R6 + R7 + R5: chain of three during rotation")
    func chainOfThreeDuringRotation() async throws {
        let run = try await run(Self.chainScenario(bSizing: #"{ "fraction": [0.8, 0.8] }"#))
        #expect(lines(run, step: 2, kinds: ["sizeForChild", "frameOfPresentedViewInContainerView"]) == [
            "pc:B frameOfPresentedViewInContainerView -> 32,56.8 256x454.4",
        ])
        #expect(lines(run, step: 4, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(R1, parent: 568x320) -> 568x320",
            "R1 viewWillTransition(to: 568x320)",
            "pc:A viewWillTransition(to: 568x320)",
            "pc:A sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "pc:B viewWillTransition(to: 568x320)",
            "pc:B sizeForChild(B, parent: 568x320) -> 454.4x256",
            "B viewWillTransition(to: 454.4x256)",
            "B sizeForChild(B1, parent: 454.4x256) -> 454.4x256",
            "B1 viewWillTransition(to: 454.4x256)",
            "pc:C viewWillTransition(to: 454.4x256)",
            "pc:C sizeForChild(C, parent: 454.4x256) -> 568x320",
            "C viewWillTransition(to: 568x320)",
        ])
    }

    /// CONFORMANCE 8, variant — B's size does not change, so B is not messaged (R4), and with it
    /// nothing B would have forwarded to: the PC(C) edge fires only when its presenter was
    /// messaged and called super (R6).
    @Test("R4 + R6: chain of three with unchanged middle size stops at the middle")
    func chainOfThreeWithUnchangedMiddleSizeStopsAtTheMiddle() async throws {
        let run = try await run(Self.chainScenario(bSizing: #"{ "fixed": [200, 200] }"#))
        #expect(lines(run, step: 4, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(R1, parent: 568x320) -> 568x320",
            "R1 viewWillTransition(to: 568x320)",
            "pc:A viewWillTransition(to: 568x320)",
            "pc:A sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "pc:B viewWillTransition(to: 568x320)",
            "pc:B sizeForChild(B, parent: 568x320) -> 200x200",
        ])
    }

    /// SPEC R8/R9 — manual forwarding is not super: the presenter that forwards to C1 only
    /// cuts C2 and its presented chain.
    @Test("R8 + R9: manual forwarding at the presenter cuts the presented chain")
    func manualForwardingAtThePresenterCutsThePresentedChain() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"],
                    "overrides": { "viewWillTransition": { "forwardTo": ["C1"] } } },
            "C1": { "kind": "view" },
            "C2": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "resizeWindow": [568, 320] } ] }
        """)
        #expect(lines(run, step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 568x320",
            "C1 viewWillTransition(to: 568x320)",
        ])
        let suppressed = lines(run, step: 2, kinds: ["suppressed"])
        #expect(suppressed.count == 1)
        #expect(suppressed.first?.hasPrefix("R suppressed viewWillTransition (cut: C2") == true)
    }

    /// R10 — the layout pass applies what VWT announced: after the rotation each member of the
    /// chain has the size it was sent. In the unchanged-middle variant nothing reached C, so C
    /// keeps its old size (R4: nothing below B is messaged on this pass).
    @Test(arguments: [true, false])
    func chainSizesAfterTheRotation(middleChanges: Bool) async throws {
        let sizing = middleChanges ? #"{ "fraction": [0.8, 0.8] }"# : #"{ "fixed": [200, 200] }"#
        let stage = try await Stage(Self.chainScenario(bSizing: sizing))
        try await stage.runAll()
        #expect(try await stage.controller("R").size == Size(568, 320))
        #expect(try await stage.controller("A").size == Size(568, 320))
        #expect(try await stage.controller("A1").size == Size(568, 320))
        if middleChanges {
            // 0.8 × 568 is not exactly 454.4 in binary: compare as the trace prints sizes.
            #expect(try await stage.controller("B").size.description == "454.4x256")
            #expect(try await stage.controller("B1").size.description == "454.4x256")
            #expect(try await stage.controller("C").size == Size(568, 320))
        } else {
            #expect(try await stage.controller("B").size == Size(200, 200))
            #expect(try await stage.controller("C").size == Size(320, 568))
        }
    }

    /// R25 + R6: a receipt VWT is forwarded like any other — the resized context X sends its
    /// own new size on to the presentation it makes.
    @Test("R25 + R6: receipt reaches the presentation made by the resized child")
    func receiptReachesThePresentationMadeByTheResizedChild() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X"], "overrides": { "grant": "all" } },
            "X": { "kind": "view", "definesPresentationContext": true },
            "P": { "kind": "view", "modalPresentationStyle": "overCurrentContext" } },
          "steps": [
            { "present": "P", "from": "X" },
            { "setPreferredContentSize": { "controller": "X", "size": [600, 400] } } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 2, kinds: ["preferredContentSizeDidChange"] + Lines.sizeKinds) == [
            "R preferredContentSizeDidChange(forChild: X)",
            "X viewWillTransition(to: 600x400)",
            "pc:P viewWillTransition(to: 600x400)",
            "pc:P sizeForChild(P, parent: 600x400) -> 600x400",
            "P viewWillTransition(to: 600x400)",
        ])
        #expect(try await stage.controller("X").size == Size(600, 400))
        #expect(try await stage.controller("P").size == Size(600, 400))
    }

    /// After dismissal the presentation edge is gone: a rotation does not reach P or its PC;
    /// P can be presented again.
    @Test func dismissedControllerIsNoLongerMessagedAndCanBePresentedAgain() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "dismiss": "P" },
            { "resizeWindow": [768, 1024] },
            { "present": "P", "from": "R" } ] }
        """)
        #expect(lines(run, step: 3, kinds: Lines.sizeKinds) == ["R viewWillTransition(to: 768x1024)"])
        #expect(lines(run, step: 4, kinds: ["present", "sizeForChild", "error", "warning"] + Lines.appearanceKinds) == [
            "R present(P, style: formSheet)",
            "P viewWillAppear",
            "P viewDidAppear",
            "R presentCompletion(P)",
        ])
    }
}
