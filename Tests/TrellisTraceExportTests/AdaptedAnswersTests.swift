import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles

/// Issue 24: which query lines an adapted style answered for a custom presentation (SPEC §3.7).
@Suite struct AdaptedAnswersTests {
    /// S, custom with its own rules, adapts to fullScreen in compact width; P, a popover, adapts
    /// to overFullScreen; both are presented, adapted, brought back and presented again.
    static let text = """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "children": ["A"] }, "A": { "kind": "view" },
            "S": { "kind": "view", "modalPresentationStyle": "custom",
                   "presentationController": { "sizeForChild": { "fraction": [0.5, 1] }, "frame": { "align": "right" } },
                   "adaptiveDelegate": { "style": "fullScreen" } },
            "P": { "kind": "view", "modalPresentationStyle": "popover", "popoverSource": { "view": "A", "rect": [0, 0, 10, 10] } } },
          "steps": [
            { "present": "S", "from": "R", "animated": false },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
            { "dismiss": "S", "animated": false },
            { "present": "S", "from": "R", "animated": false },
            { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } },
            { "dismiss": "S", "animated": false },
            { "present": "P", "from": "R", "animated": false },
            { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } } ] }
        """

    @Test("only a custom presentation's queries while it is adapted are the adapted style's answers")
    func marksOnlyAdaptedCustomQueries() async throws {
        let events = try await ScenarioRunner.run(try ScenarioDecoder.decode(Self.text, file: "adapted.json")).events
        let answers = AdaptedAnswers(events)
        let queries = events.filter { $0.message.kind == "query" && $0.controller.name.hasPrefix("pc:") }
        let marked = queries.filter { answers.style(answering: $0) != nil }.map { "\($0.step) \($0.canonicalLine)" }
        // Step 2 adapts S: its answers are fullScreen's. Step 4 presents S again in compact
        // width, adapted at once (R51). Step 5 brings it back to its own rules; the popover's
        // adapted answers (step 8) are its own style's rules, not a custom presentation's.
        #expect(marked.contains("2 pc:S sizeForChild(S, parent: 320x768) -> 320x768"), "\(marked)")
        #expect(marked.contains { $0.hasPrefix("4 pc:S") }, "\(marked)")
        #expect(marked.allSatisfy { $0.hasPrefix("2 pc:S") || $0.hasPrefix("4 pc:S") }, "\(marked)")
        #expect(queries.contains { $0.step == 5 && $0.canonicalLine == "pc:S sizeForChild(S, parent: 1024x768) -> 512x768" }, "\(queries.map(\.canonicalLine))")
        let line = try #require(queries.first { answers.style(answering: $0) != nil })
        #expect(answers.style(answering: line) == .fullScreen)
        #expect(answers.annotated(line.canonicalLine, line).hasSuffix("(answered by the adapted style fullScreen, not the custom presentation's code)"))
    }
}
