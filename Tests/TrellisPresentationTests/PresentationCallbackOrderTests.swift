import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport

// Issue 24, item 6: the three places of a presentation controller's callbacks among the
// appearance and layout callbacks that no source settles (docs/decisions.md, "Truth in traces").
// Each is pinned here by the relative order of the lines, for built-in and custom styles alike,
// so the test does not depend on the other lines of a presentation step.

@Suite("Presentation-controller callbacks among appearance and layout (decisions)")
struct PresentationCallbackOrderTests {
    /// The position of the first line of `lines` that starts with `prefix`.
    private func index(_ prefix: String, in lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "no line \(prefix)… in \(lines)", sourceLocation: sourceLocation)
    }

    @Test("presented viewWillAppear comes before presentationTransitionWillBegin", arguments: ["fullScreen", "formSheet", "custom"])
    func viewWillAppearBeforeTransitionWillBegin(style: String) async throws {
        let run = try await run(Self.json(style: style))
        let step = lines(run, step: 1)
        #expect(try index("P viewWillAppear", in: step) < index("pc:P presentationTransitionWillBegin", in: step))
    }

    @Test("containerViewWillLayoutSubviews comes once, after presentationTransitionWillBegin and before presentationTransitionDidEnd and viewDidAppear",
          arguments: ["fullScreen", "formSheet", "custom"])
    func containerLayoutInsideThePresentationTransition(style: String) async throws {
        let run = try await run(Self.json(style: style))
        let step = lines(run, step: 1)
        let layout = try index("pc:P containerViewWillLayoutSubviews", in: step)
        #expect(step.filter { $0.hasPrefix("pc:P containerViewWillLayoutSubviews") }.count == 1)
        #expect(try index("pc:P presentationTransitionWillBegin", in: step) < layout)
        #expect(try layout < index("pc:P containerViewDidLayoutSubviews", in: step))
        #expect(try index("pc:P containerViewDidLayoutSubviews", in: step) < index("pc:P presentationTransitionDidEnd", in: step))
        #expect(try index("pc:P presentationTransitionDidEnd", in: step) < index("P viewDidAppear", in: step))
    }

    @Test("presented viewDidDisappear comes before dismissalTransitionDidEnd", arguments: ["fullScreen", "formSheet", "custom"])
    func viewDidDisappearBeforeDismissalDidEnd(style: String) async throws {
        let run = try await run(Self.json(style: style))
        let step = lines(run, step: 2)
        #expect(try index("pc:P dismissalTransitionWillBegin", in: step) < index("P viewWillDisappear", in: step))
        #expect(try index("P viewDidDisappear", in: step) < index("pc:P dismissalTransitionDidEnd", in: step))
        #expect(try index("pc:P dismissalTransitionDidEnd", in: step) < index("P dismissCompletion(P)", in: step))
    }

    /// P presented from R in `style` on an iPad, then dismissed; a custom presentation gets the
    /// seed's sidebar rules.
    static func json(style: String) -> String {
        let presentationController = style == "custom"
            ? #", "presentationController": { "sizeForChild": { "fraction": [0.3333, 1], "round": "floor" }, "frame": { "align": "right" } }"#
            : ""
        return """
            { \(Pad.window), "root": "R",
              "controllers": {
                "R": { "kind": "view" },
                "P": { "kind": "view", "modalPresentationStyle": "\(style)"\(presentationController) } },
              "steps": [
                { "present": "P", "from": "R", "animated": true },
                { "dismiss": "P", "animated": true } ] }
            """
    }
}
