import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC §3.7 (R48–R52), profile ios8. CONFORMANCE 16, 17, 18, 19.

@Suite("R48–R52: Adaptive presentation")
struct AdaptationTests {
    /// An iPad popover (with a source) that goes to compact width — a slide-over of 320 points —
    /// and back, as rotations do: one environment change carrying size and traits.
    static func popover(delegate: String? = nil) -> String {
        let delegateField = delegate.map { #", "adaptiveDelegate": \#($0)"# } ?? ""
        return """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] }\(delegateField) } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } } ] }
        """
    }

    /// CONFORMANCE 16 — no delegate: compact width shows the popover as the profile's default
    /// compact style (ios8: overFullScreen); regular width brings the popover back.
    @Test func popoverAdaptsToOverFullScreenInCompactWidthAndBack() async throws {
        let stage = try await Stage(Self.popover())
        try await stage.perform(step: 1)
        // Regular width at presentation: nothing to adapt, nothing asked.
        #expect(stage.lines(step: 1, kinds: Lines.adaptationKinds).isEmpty)
        #expect(stage.lines(step: 1, kinds: ["present", "sizeForChild"]) == [
            "R present(P, style: popover)",
        ])
        #expect(await stage.pc("P")?.style == .popover)

        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
        ])
        // R48: asked as part of the PC's default willTransition.
        let compact = stage.lines(step: 2)
        let wtt = position(of: "pc:P willTransition(to: h=compact v=regular idiom=pad scale=2)", in: compact)
        let asked = position(of: "pc:P adaptivePresentationStyle -> overFullScreen", in: compact)
        #expect(wtt != nil && asked != nil && wtt! < asked!)
        // R14: the trait pass (and its adaptation) precedes the size pass, which already sizes
        // P as overFullScreen: the window size being transitioned to.
        #expect(stage.lines(step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 320x768)",
            "pc:P viewWillTransition(to: 320x768)",
            "pc:P sizeForChild(P, parent: 320x768) -> 320x768",
            "P viewWillTransition(to: 320x768)",
        ])
        #expect(await stage.pc("P")?.style == .overFullScreen)
        #expect(await stage.pc("P")?.presentationStyle == .popover)
        #expect(await stage.pc("P")?.displayedID == "P")
        #expect(try await stage.controller("P").size == Size(320, 768))

        try await stage.perform(step: 3)
        #expect(stage.lines(step: 3, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> none",
            "pc:P willPresentWithAdaptiveStyle(none)",
        ])
        #expect(stage.lines(step: 3, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 1024x768)",
            "pc:P viewWillTransition(to: 1024x768)",
            "pc:P sizeForChild(P, parent: 1024x768) -> 320x480",
            "P viewWillTransition(to: 320x480)",
        ])
        #expect(await stage.pc("P")?.style == .popover)
        #expect(await stage.pc("P")?.adaptiveStyle == ModalPresentationStyle.none)
        #expect(try await stage.controller("P").size == Size(320, 480))
    }

    /// CONFORMANCE 16, wrapper variant — R49: the delegate wraps P in a navigation controller
    /// `wrap:P` while adapted; the wrapper is what the PC shows and sizes.
    @Test("R49: delegate wrapper is displayed in compact width with the presented inside")
    func delegateWrapperIsDisplayedInCompactWidthWithThePresentedInside() async throws {
        let stage = try await Stage(Self.popover(delegate: #"{ "wrapIn": "navigation" }"#))
        try await stage.perform(step: 1)
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
        ])
        #expect(stage.lines(step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 320x768)",
            "pc:P viewWillTransition(to: 320x768)",
            "pc:P sizeForChild(wrap:P, parent: 320x768) -> 320x768",
            "wrap:P viewWillTransition(to: 320x768)",
            "wrap:P sizeForChild(P, parent: 320x768) -> 320x768",
            "P viewWillTransition(to: 320x768)",
        ])
        let pc = try #require(await stage.pc("P"))
        #expect(await pc.displayedID == "wrap:P")
        let wrapper = try #require(await pc.wrapper)
        #expect(await wrapper.children == ["P"])
        #expect(await stage.node("wrap:P")?.children == ["P"])
        #expect(await stage.node("P")?.parent == "wrap:P")
        #expect(await pc.style == .overFullScreen)
    }

    /// CONFORMANCE 16 (back to regular) and SPEC R52: the original style and the original
    /// controller come back, and the wrapper is gone.
    @Test("R52: back to regular restores the popover and drops the wrapper")
    func backToRegularRestoresThePopoverAndDropsTheWrapper() async throws {
        let stage = try await Stage(Self.popover(delegate: #"{ "wrapIn": "navigation" }"#))
        try await stage.runAll()
        #expect(stage.lines(step: 3, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> none",
            "pc:P willPresentWithAdaptiveStyle(none)",
        ])
        #expect(stage.lines(step: 3, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 1024x768)",
            "pc:P viewWillTransition(to: 1024x768)",
            "pc:P sizeForChild(P, parent: 1024x768) -> 320x480",
            "P viewWillTransition(to: 320x480)",
        ])
        let pc = try #require(await stage.pc("P"))
        #expect(await pc.style == .popover)
        #expect(await pc.adaptiveStyle == ModalPresentationStyle.none)
        #expect(await pc.displayedID == "P")
        #expect(await pc.wrapper == nil)
        #expect(await stage.node("wrap:P") == nil)
        #expect(await stage.node("P")?.parent == nil)
        #expect(await stage.node("P")?.presenting == "R")
        #expect(await stage.node("R")?.presented == "P")
        #expect(try await stage.controller("P").size == Size(320, 480))
        #expect(await pc.presentedViewFrame.size == Size(320, 480))
    }

    /// CONFORMANCE 17 — the delegate answers none: the popover stays a popover in compact width
    /// (and keeps its size, so P is not messaged: R4).
    @Test("R48 + R4: delegate answering none keeps the popover")
    func delegateAnsweringNoneKeepsThePopover() async throws {
        let stage = try await Stage(Self.popover(delegate: #"{ "style": "none" }"#))
        try await stage.perform(step: 1)
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> none",
            "pc:P willPresentWithAdaptiveStyle(none)",
        ])
        #expect(stage.lines(step: 2, kinds: Lines.sizeKinds) == [
            "R viewWillTransition(to: 320x768)",
            "pc:P viewWillTransition(to: 320x768)",
            "pc:P sizeForChild(P, parent: 320x768) -> 320x480",
        ])
        #expect(await stage.pc("P")?.style == .popover)
        #expect(await stage.pc("P")?.displayedID == "P")
    }

    /// CONFORMANCE 18 — R48: an invalid answer falls back to the PC's own default (ios8
    /// popover: overFullScreen).
    @Test(arguments: ["pageSheet", "currentContext"])
    func invalidDelegateAnswerFallsBackToTheDefault(answer: String) async throws {
        let stage = try await Stage(Self.popover(delegate: #"{ "style": "\#(answer)" }"#))
        try await stage.perform(step: 1)
        try await stage.perform(step: 2)
        let adaptation = stage.lines(step: 2, kinds: Lines.adaptationKinds)
        #expect(adaptation.count == 2)
        #expect(adaptation.first?.hasPrefix("pc:P adaptivePresentationStyle -> ") == true)
        #expect(adaptation.last == "pc:P willPresentWithAdaptiveStyle(overFullScreen)")
        #expect(await stage.pc("P")?.style == .overFullScreen)
    }

    /// CONFORMANCE 19 — R51: presenting a form sheet in an already compact environment adapts
    /// at once; P is never shown as a form sheet. The `present` line keeps the style asked for;
    /// adapted to fullScreen, the presentation covers its presenter.
    @Test("R51: form sheet presented in compact width appears full screen at once")
    func formSheetPresentedInCompactWidthAppearsFullScreenAtOnce() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1) == [
            "R present(P, style: formSheet)",
            "pc:P adaptivePresentationStyle -> fullScreen",
            "pc:P willPresentWithAdaptiveStyle(fullScreen)",
            "R viewWillDisappear",
            "P viewWillAppear",
            "pc:P presentationTransitionWillBegin(animated: true)",
            "pc:P containerViewWillLayoutSubviews",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 320x568",
            "pc:P containerViewDidLayoutSubviews",
            "P viewWillLayoutSubviews",
            "P viewDidLayoutSubviews",
            "pc:P presentationTransitionDidEnd(completed: true)",
            "P viewDidAppear",
            "R viewDidDisappear",
            "R presentCompletion(P)",
        ])
        #expect(await stage.pc("P")?.style == .fullScreen)
        #expect(await stage.pc("P")?.presentationStyle == .formSheet)
        #expect(await stage.pc("P")?.presentedViewFrame.size == Size(320, 568))
    }

    /// CONFORMANCE 19 (second half) — full-screen styles never ask, neither at presentation in
    /// compact width nor when the size class changes later.
    @Test(arguments: ["fullScreen", "overFullScreen"])
    func fullScreenStylesNeverAdapt(style: String) async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "\(style)" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "setTraits": { "horizontalSizeClass": "regular" } },
            { "setTraits": { "horizontalSizeClass": "compact" } } ] }
        """)
        for step in 1...3 {
            #expect(lines(run, step: step, kinds: Lines.adaptationKinds).isEmpty, "step \(step)")
        }
        #expect(lines(run, step: 2, kinds: ["willTransition"]).contains(
            "pc:P willTransition(to: h=regular v=regular idiom=phone scale=2)"))
    }

    /// SPEC R31 limits the popover-source error to regular width: in compact width a popover
    /// without a source is presented (and adapts, ios8: overFullScreen).
    @Test("R31: popover without a source in compact width is presented")
    func popoverWithoutASourceInCompactWidthIsPresented() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: ["present", "error"] + Lines.adaptationKinds) == [
            "R present(P, style: popover)",
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
        ])
        #expect(await stage.node("P")?.presenting == "R")
        #expect(await stage.pc("P")?.style == .overFullScreen)
    }

    /// ios8 asks only when the horizontal size class changes: a phone rotation (v only) asks nothing.
    @Test func ios8DoesNotAskOnAVerticalSizeClassChange() async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
        """)
        #expect(lines(run, step: 1, kinds: Lines.adaptationKinds).count == 2)
        #expect(lines(run, step: 2, kinds: Lines.adaptationKinds).isEmpty)
    }

    /// §3.7 ios13 table: form sheets stay sheets in compact width and become fullScreen in
    /// compact height; ios13 also asks when the vertical size class changes.
    @Test func ios13FormSheetStaysASheetInCompactWidthAndGoesFullScreenInCompactHeight() async throws {
        let stage = try await Stage("""
        { "profile": "ios13", \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } },
            { "transition": { "size": [320, 568], "traits": { "verticalSizeClass": "regular" } } } ] }
        """)
        try await stage.perform(step: 1)
        #expect(await stage.pc("P")?.style == .formSheet)
        // A sheet keeps its presenter's views: no presenter callbacks.
        #expect(stage.lines(step: 1, kinds: Lines.appearanceKinds) == [
            "P viewWillAppear", "P viewDidAppear", "R presentCompletion(P)",
        ])
        try await stage.perform(step: 2)
        #expect(stage.lines(step: 2, kinds: Lines.adaptationKinds).last == "pc:P willPresentWithAdaptiveStyle(fullScreen)")
        #expect(await stage.pc("P")?.style == .fullScreen)
        try await stage.perform(step: 3)
        #expect(stage.lines(step: 3, kinds: Lines.adaptationKinds).last == "pc:P willPresentWithAdaptiveStyle(none)")
        #expect(await stage.pc("P")?.style == .formSheet)
    }

    /// §3.7 ios13 table: a popover in compact width behaves as a form sheet.
    @Test func ios13PopoverInCompactWidthBecomesASheet() async throws {
        let stage = try await Stage("""
        { "profile": "ios13", \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> formSheet",
            "pc:P willPresentWithAdaptiveStyle(formSheet)",
        ])
        #expect(await stage.pc("P")?.style == .formSheet)
        #expect(stage.lines(step: 1, kinds: Lines.appearanceKinds) == [
            "P viewWillAppear", "P viewDidAppear", "R presentCompletion(P)",
        ])
    }

    /// §3.5: `automatic` means pageSheet in ios13, and a page sheet keeps its presenter visible.
    @Test func ios13AutomaticMeansPageSheet() async throws {
        let stage = try await Stage("""
        { "profile": "ios13", \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(await stage.pc("P")?.style == .pageSheet)
        #expect(try await stage.controller("P").size == Size(768, 768))
        #expect(stage.lines(step: 1, kinds: Lines.appearanceKinds) == [
            "P viewWillAppear", "P viewDidAppear", "R presentCompletion(P)",
        ])
    }

    /// Dismissing while adapted with a wrapper removes the wrapper with the presentation.
    @Test func dismissingAWrappedPresentationRemovesTheWrapper() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] },
                   "adaptiveDelegate": { "wrapIn": "navigation" } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "dismiss": "P" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 3, kinds: ["dismiss", "dismissCompletion"]) == [
            "R dismiss(P)",
            "P dismissCompletion(P)",
        ])
        #expect(await stage.node("wrap:P") == nil)
        #expect(await stage.node("P")?.parent == nil)
        #expect(await stage.node("P")?.presenting == nil)
        #expect(await stage.node("R")?.presented == nil)
        #expect(await stage.pc("P") == nil)
    }

    /// R49 + R51 — adapting at presentation time with a wrapper: the wrapper is installed
    /// before P appears and is what appears (then P, its visible child), at full screen size.
    @Test("R49 + R51: wrapper installed at presentation in compact width")
    func wrapperInstalledAtPresentationInCompactWidth() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "adaptiveDelegate": { "wrapIn": "navigation" } } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> overFullScreen",
            "pc:P willPresentWithAdaptiveStyle(overFullScreen)",
        ])
        #expect(stage.lines(step: 1, kinds: Lines.appearanceKinds) == [
            "wrap:P viewWillAppear", "P viewWillAppear", "wrap:P viewDidAppear", "P viewDidAppear",
            "R presentCompletion(P)",
        ])
        #expect(await stage.pc("P")?.displayedID == "wrap:P")
        #expect(await stage.node("wrap:P")?.children == ["P"])
        #expect(try await stage.controller("P").size == Size(320, 568))
    }

    /// R49/R51 and the contract: at presentation in a compact environment the question is
    /// asked; a delegate answering none is recorded as such and nothing adapts.
    @Test("R49 + R51: delegate answering none at presentation in compact width is asked")
    func delegateAnsweringNoneAtPresentationInCompactWidthIsAsked() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] },
                   "adaptiveDelegate": { "style": "none" } } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        #expect(stage.lines(step: 1, kinds: Lines.adaptationKinds) == [
            "pc:P adaptivePresentationStyle -> none",
            "pc:P willPresentWithAdaptiveStyle(none)",
        ])
        #expect(await stage.pc("P")?.style == .popover)
    }

    /// The same for a style the ios13 profile does not adapt in compact width: asked, and
    /// `willPresentWithAdaptiveStyle(none)` because nothing adapts (R49).
    @Test("R49: ios13 sheet at presentation in compact width is asked and stays")
    func ios13SheetAtPresentationInCompactWidthIsAskedAndStays() async throws {
        let stage = try await Stage("""
        { "profile": "ios13", \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        try await stage.runAll()
        let adaptation = stage.lines(step: 1, kinds: Lines.adaptationKinds)
        #expect(adaptation.count == 2, "\(adaptation)")
        #expect(adaptation.last == "pc:P willPresentWithAdaptiveStyle(none)")
        #expect(await stage.pc("P")?.style == .formSheet)
    }
}
