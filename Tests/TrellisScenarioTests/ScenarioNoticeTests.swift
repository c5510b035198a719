import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport

/// What a file most likely did not mean, though it may: a notice on standard error, not an error.
/// UIKit uses a presented controller's own presentation controller only for a `custom`
/// presentation, and an `action` needs a Swift behaviour to handle it (SPEC §4.2).
@Suite("scenario notices: a presentationController no custom presentation uses, an action nothing can handle")
struct ScenarioNoticeTests {
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

    @Test("an action on a controller, or a presentation controller, without a Swift behaviour is named at its step")
    func actionsWithoutABehaviour() throws {
        let notices = try ScenarioDecoder.decode("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": {}, "P": { "modalPresentationStyle": "custom", "presentationController": { "frame": { "align": "right" } } } },
              "steps": [ { "present": "P", "from": "R" },
                         { "action": "dimmingTapped", "on": "pc:P" },
                         { "action": "tap", "on": "R", "value": 1 } ] }
            """, file: "act.json").notices
        #expect(notices == [
            "act.json:5:14: $.steps[1]: action dimmingTapped on pc:P: pc:P has no Swift behaviour to handle it "
                + "(give P's presentationController one with \"behavior\"), so the trace will say it was not handled",
            "act.json:6:14: $.steps[2]: action tap on R: R has no Swift behaviour to handle it "
                + "(give R one with \"behavior\"), so the trace will say it was not handled",
        ])
    }

    @Test("no notice for an action on a controller that names a Swift behaviour")
    func actionsWithABehaviour() throws {
        let registry = BehaviorRegistry().viewController("Tapping", DefaultBehavior())
        let notices = try ScenarioDecoder.decode("""
            { \(Pad.window), "root": "R", "controllers": { "R": { "behavior": "Tapping" } },
              "steps": [ { "action": "tap", "on": "R" } ] }
            """, file: "act.json", registry: registry).notices
        #expect(notices == [])
    }
}
