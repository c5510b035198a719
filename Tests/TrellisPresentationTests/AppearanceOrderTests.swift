import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R41/R42 and the presentation-order decisions. CONFORMANCE 29.

@Suite("R41 + R42: Appearance order of presentation and dismissal")
struct AppearanceOrderTests {
    /// Whether a style, presented in this window, covers its presenter: fullScreen does; a form
    /// sheet does on the phone only, where it adapts to fullScreen (ios8); a popover never does
    /// (on the phone it adapts to overFullScreen).
    static func covers(style: String, device: String) -> Bool {
        switch style {
        case "fullScreen": return true
        case "formSheet": return device == "phone"
        default: return false
        }
    }

    /// CONFORMANCE 29 — {fullScreen, formSheet, popover} × {phone, tablet}: covering styles
    /// order presenter willDisappear < presented willAppear < presented didAppear < presenter
    /// didDisappear < completion, and mirror it on dismissal; the others leave the presenter
    /// without appearance callbacks.
    @Test(arguments: ["fullScreen", "formSheet", "popover"], ["phone", "pad"])
    func appearanceOrder(style: String, device: String) async throws {
        let run = try await run("""
        { \(device == "phone" ? Phone.window : Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "\(style)",
                   "popoverSource": { "view": "R", "rect": [10, 10, 44, 44] } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "dismiss": "R" } ] }
        """)
        if Self.covers(style: style, device: device) {
            #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) == [
                "R viewWillDisappear",
                "P viewWillAppear",
                "P viewDidAppear",
                "R viewDidDisappear",
                "R presentCompletion(P)",
            ])
            #expect(lines(run, step: 2, kinds: Lines.appearanceKinds) == [
                "P viewWillDisappear",
                "R viewWillAppear",
                "R viewDidAppear",
                "P viewDidDisappear",
                "R dismissCompletion(P)",
            ])
        } else {
            #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) == [
                "P viewWillAppear",
                "P viewDidAppear",
                "R presentCompletion(P)",
            ])
            #expect(lines(run, step: 2, kinds: Lines.appearanceKinds) == [
                "P viewWillDisappear",
                "P viewDidDisappear",
                "R dismissCompletion(P)",
            ])
        }
        #expect(lines(run, step: 1, kinds: ["error", "warning"]).isEmpty)
    }

    static let coveringFromAChild = """
    { \(Phone.window), "root": "R",
      "controllers": {
        "R":  { "kind": "view", "children": ["C1"] },
        "C1": { "kind": "view" },
        "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
      "steps": [
        { "present": "P", "from": "C1" },
        { "dismiss": "P" } ] }
    """

    /// The whole presentation step of a covering style, in the contract's order: the present
    /// line on the presenter after rerouting, the presenter (then its visible children) will
    /// disappear, P will appear, the PC's transition begins, P is sized and laid out, the
    /// transition ends, P did appear, the presenter did disappear, the caller's completion.
    @Test func coveringPresentationStepInFull() async throws {
        let run = try await run(Self.coveringFromAChild)
        #expect(lines(run, step: 1) == [
            "R present(P, style: fullScreen)",
            "R viewWillDisappear",
            "C1 viewWillDisappear",
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
            "C1 viewDidDisappear",
            "C1 presentCompletion(P)",
        ])
    }

    /// Its dismissal: the presenter (with its visible children) reappears between P's
    /// willDisappear and didDisappear; the PC's dismissal begins and ends; the completion runs
    /// last, on the controller called.
    @Test func coveringDismissalStepOrder() async throws {
        let run = try await run(Self.coveringFromAChild)
        #expect(lines(run, step: 2, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "R dismiss(P)",
            "P viewWillDisappear",
            "R viewWillAppear",
            "C1 viewWillAppear",
            "R viewDidAppear",
            "C1 viewDidAppear",
            "P viewDidDisappear",
            "P dismissCompletion(P)",
        ])
        let step = lines(run, step: 2)
        #expect(lines(run, step: 2, kinds: Lines.presentationCallbackKinds) == [
            "pc:P dismissalTransitionWillBegin(animated: true)",
            "pc:P dismissalTransitionDidEnd(completed: true)",
        ])
        #expect(step.last == "P dismissCompletion(P)")
    }

    /// An unanimated presentation says so to its presentation controller.
    @Test func unanimatedPresentationAndDismissal() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R", "animated": false },
            { "dismiss": "P", "animated": false } ] }
        """)
        #expect(lines(run, step: 1, kinds: Lines.presentationCallbackKinds) == [
            "pc:P presentationTransitionWillBegin(animated: false)",
            "pc:P presentationTransitionDidEnd(completed: true)",
        ])
        #expect(lines(run, step: 2, kinds: Lines.presentationCallbackKinds) == [
            "pc:P dismissalTransitionWillBegin(animated: false)",
            "pc:P dismissalTransitionDidEnd(completed: true)",
        ])
    }

    /// R41/R42 — currentContext removes the context's views: the context X (then its visible
    /// child V) disappears and reappears; R and X's sibling Y see nothing.
    @Test("R41 + R42: current context covers its context only")
    func currentContextCoversItsContextOnly() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["X", "Y"] },
            "X": { "kind": "navigation", "children": ["V"] },
            "V": { "kind": "view" },
            "Y": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "currentContext" } },
          "steps": [
            { "present": "P", "from": "V" },
            { "dismiss": "P" } ] }
        """)
        #expect(lines(run, step: 1, kinds: ["present"] + Lines.appearanceKinds) == [
            "X present(P, style: currentContext)",
            "X viewWillDisappear",
            "V viewWillDisappear",
            "P viewWillAppear",
            "P viewDidAppear",
            "X viewDidDisappear",
            "V viewDidDisappear",
            "V presentCompletion(P)",
        ])
        #expect(lines(run, step: 2, kinds: ["dismiss"] + Lines.appearanceKinds) == [
            "X dismiss(P)",
            "P viewWillDisappear",
            "X viewWillAppear",
            "V viewWillAppear",
            "X viewDidAppear",
            "V viewDidAppear",
            "P viewDidDisappear",
            "P dismissCompletion(P)",
        ])
    }

    /// R41 — custom presentations remove the presenter's views iff `shouldRemovePresentersView`.
    @Test(arguments: [true, false])
    func customPresentationCoversIffItRemovesThePresentersView(removes: Bool) async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "custom",
                   "presentationController": { "shouldRemovePresentersView": \(removes) } } },
          "steps": [
            { "present": "P", "from": "R" },
            { "dismiss": "P" } ] }
        """)
        if removes {
            #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) == [
                "R viewWillDisappear", "P viewWillAppear", "P viewDidAppear", "R viewDidDisappear",
                "R presentCompletion(P)",
            ])
            #expect(lines(run, step: 2, kinds: Lines.appearanceKinds) == [
                "P viewWillDisappear", "R viewWillAppear", "R viewDidAppear", "P viewDidDisappear",
                "P dismissCompletion(P)",
            ])
        } else {
            #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) == [
                "P viewWillAppear", "P viewDidAppear", "R presentCompletion(P)",
            ])
            #expect(lines(run, step: 2, kinds: Lines.appearanceKinds) == [
                "P viewWillDisappear", "P viewDidDisappear", "P dismissCompletion(P)",
            ])
        }
    }

    /// Whether one controller's appearance callbacks, in order, are balanced as UIKit pairs
    /// them, starting from "appeared": willDisappear → didDisappear → willAppear → didAppear → …
    static func isBalanced(_ callbacks: [String], startingVisible: Bool = true) -> Bool {
        var expected = startingVisible ? ["viewWillDisappear", "viewDidDisappear", "viewWillAppear", "viewDidAppear"]
                                       : ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        for callback in callbacks {
            guard callback == expected[0] else { return false }
            expected.append(expected.removeFirst())
        }
        return true
    }

    static func appearance(of id: ControllerID, in events: [TraceEvent]) -> [String] {
        events.filter { $0.controller == id && $0.message.kind == "appearance" }.map(\.message.name)
    }

    /// R42 + "presenter reappearing only if it had been covered": a form sheet presented in
    /// compact width adapts to fullScreen and covers R; back in regular width it is a sheet
    /// again. Whenever R comes back, it must come back: once P is dismissed R has seen
    /// willDisappear, didDisappear, willAppear, didAppear — each exactly once, in that order.
    @Test("R42: presenter covered by an adapted sheet reappears once")
    func presenterCoveredByAnAdaptedSheetReappearsOnce() async throws {
        let run = try await run("""
        { "window": { "size": [320, 768],
                      "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular",
                                  "userInterfaceIdiom": "pad", "displayScale": 2 } },
          "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } },
            { "dismiss": "P" } ] }
        """)
        #expect(lines(run, step: 1, kinds: ["viewWillDisappear", "viewDidDisappear"]).contains("R viewDidDisappear"))
        #expect(Self.appearance(of: "R", in: run.events) == [
            "viewWillDisappear", "viewDidDisappear", "viewWillAppear", "viewDidAppear",
        ])
    }

    /// The converse: a form sheet presented in regular width leaves R visible (no callbacks);
    /// after it adapts to fullScreen and is dismissed, R must not "reappear" without having
    /// disappeared: its callbacks stay balanced.
    @Test
    func presenterNeverCoveredDoesNotReappear() async throws {
        let run = try await run("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "formSheet" } },
          "steps": [
            { "present": "P", "from": "R" },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "dismiss": "P" } ] }
        """)
        #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) == [
            "P viewWillAppear", "P viewDidAppear", "R presentCompletion(P)",
        ])
        let callbacks = Self.appearance(of: "R", in: run.events)
        #expect(Self.isBalanced(callbacks), "R: \(callbacks)")
        #expect(callbacks.count % 4 == 0, "R: \(callbacks)")
    }

    /// The contract: a covered presenter's disappearance reaches its *visible* children only —
    /// a navigation controller's top, a tab bar controller's selected child, a split view's
    /// visible columns.
    @Test(arguments: [
        (#""kind": "navigation", "children": ["V1", "V2"]"#, ["V2"]),
        (#""kind": "tab", "children": ["V1", "V2"], "selected": 1"#, ["V2"]),
        (#""kind": "view", "children": ["V1", "V2"]"#, ["V1", "V2"]),
    ])
    func coveredPresenterForwardsAppearanceToItsVisibleChildren(root: String, visible: [String]) async throws {
        let run = try await run("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { \(root) },
            "V1": { "kind": "view" },
            "V2": { "kind": "view" },
            "P":  { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [ { "present": "P", "from": "R" }, { "dismiss": "P" } ] }
        """)
        #expect(lines(run, step: 1, kinds: Lines.appearanceKinds) ==
            ["R viewWillDisappear"] + visible.map { "\($0) viewWillDisappear" }
            + ["P viewWillAppear", "P viewDidAppear", "R viewDidDisappear"]
            + visible.map { "\($0) viewDidDisappear" } + ["R presentCompletion(P)"])
        #expect(lines(run, step: 2, kinds: Lines.appearanceKinds) ==
            ["P viewWillDisappear", "R viewWillAppear"] + visible.map { "\($0) viewWillAppear" }
            + ["R viewDidAppear"] + visible.map { "\($0) viewDidAppear" }
            + ["P viewDidDisappear", "P dismissCompletion(P)"])
    }
}
