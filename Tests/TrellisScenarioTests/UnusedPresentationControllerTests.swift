import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport

/// UIKit uses a presented controller's own presentation controller only for a `custom`
/// presentation: one described on a controller that nothing in the file presents with `custom`
/// is never used, and the file is told so (a notice, not an error).
@Suite("a presentationController that no custom presentation uses")
struct UnusedPresentationControllerTests {
    static func notices(controllers: String, steps: String) throws -> [String] {
        try ScenarioDecoder.decode("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, \(controllers) },
              "steps": [ \(steps) ] }
            """, file: "pc.json").notices
    }

    @Test("a form sheet's, or a default style's, presentationController is named with the style it is presented with")
    func unusedOnes() throws {
        let notices = try Self.notices(
            controllers: """
                "P": { "modalPresentationStyle": "formSheet", "presentationController": { "frame": { "align": "right" } } },
                "Q": { "presentationController": { "frame": { "align": "left" } } }
                """,
            steps: #"{ "present": "P", "from": "R" }"#)
        #expect(notices.count == 2)
        #expect(notices.first?.hasPrefix("pc.json:3:") == true)
        #expect(notices.first?.contains("$.controllers.P.presentationController is used only when P is presented with the custom style, and its modalPresentationStyle is formSheet") == true)
        #expect(notices.last?.contains("$.controllers.Q.presentationController is used only when Q is presented with the custom style, and it has no modalPresentationStyle") == true)
    }

    @Test("no notice when the style is custom, or a step or segue presents it with custom")
    func usedOnes() throws {
        let notices = try Self.notices(
            controllers: """
                "P": { "modalPresentationStyle": "custom", "presentationController": { "frame": { "align": "right" } } },
                "Q": { "presentationController": { "frame": { "align": "left" } } }
                """,
            steps: #"{ "present": "P", "from": "R" }, { "dismiss": "P" }, { "present": "Q", "from": "R", "style": "custom" }"#)
        #expect(notices == [])
    }
}
