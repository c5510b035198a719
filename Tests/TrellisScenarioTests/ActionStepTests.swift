import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace

/// The `action` step (SPEC §4.2, scenario-format §6.2): read, validated with the file's
/// positions, and run — a declarative controller handles no action, so each is a warning.
@Suite struct ActionStepTests {
    static func file(_ steps: String) -> String {
        """
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": { "R": { "children": ["A"] }, "A": {},
                           "P": { "modalPresentationStyle": "overFullScreen" } },
          "steps": [
            \(steps)
          ] }
        """
    }

    @Test("an action on an unknown controller is rejected at its `on`, with line and column")
    func unknownControllerIsRejectedWhereItIsWritten() throws {
        let error = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "B" }"#)))
        #expect(error.path == "$.steps[0].on")
        #expect(error.message == #"unknown controller "B""#)
        #expect(error.line == 5)
        #expect(error.column == 30)
        #expect(error.description.hasPrefix("bad.json:5:30: $.steps[0].on"))
    }

    @Test("an action on the presentation controller of an unknown controller is rejected too")
    func unknownPresentationControllerIsRejected() throws {
        let error = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "pc:Z" }"#)))
        #expect(error.path == "$.steps[0].on")
        #expect(error.message == #"unknown controller "pc:Z" (no controller "Z" to present)"#)
    }

    @Test("a value larger than one TWP/1 string (65,535 bytes of compact JSON) is refused where it is written; the largest one is taken")
    func aValueTooLargeForTheWireIsRefused() throws {
        // "x" repeated n times is n + 2 bytes of JSON.
        let largest = String(repeating: "x", count: 65_533)
        #expect(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "A", "value": "\#(largest)" }"#)) == nil)
        let error = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "A", "value": "\#(largest)x" }"#)))
        #expect(error.path == "$.steps[0].value")
        #expect(error.message == "the action's value takes 65536 bytes as compact JSON, more than 65535 (it travels to the node hosting A as one TWP/1 string)")
    }

    @Test("an action's name is one word; `on` is required; no other field")
    func malformedActionsAreRejected() throws {
        let spaced = try #require(Scenarios.rejection(Self.file(#"{ "action": "two words", "on": "A" }"#)))
        #expect(spaced.path == "$.steps[0].action")
        #expect(spaced.message.contains("one word"))
        let missing = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap" }"#)))
        #expect(missing.message == #"missing required field "on""#)
        let extra = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "A", "with": 1 }"#)))
        #expect(extra.path == "$.steps[0].with")
        let bad = try #require(Scenarios.rejection(Self.file(#"{ "action": "tap", "on": "pc:" }"#)))
        #expect(bad.path == "$.steps[0].on")
    }

    @Test("run: nobody handles a declarative controller's action; a target not in the window is a warning")
    func runningActionsOnDeclarativeControllers() async throws {
        let trace = try await Scenarios.run(Self.file("""
            { "action": "tap", "on": "A", "value": [1, "two", null, true] },
            { "action": "tap", "on": "pc:P" },
            { "present": "P", "from": "R", "animated": false },
            { "action": "dimmingTapped", "on": "pc:P" },
            { "expect": ["pc:P action(dimmingTapped)", "pc:P warning action dimmingTapped on pc:P was not handled (its behaviour's perform returned false)"] }
            """))
        #expect(trace.headers[0] == #"== step 1: action tap on A value [1,"two",null,true]"#)
        #expect(trace[step: 1] == [
            #"A action(tap, value: [1,"two",null,true])"#,
            "A warning action tap on A was not handled (its behaviour's perform returned false)",
        ])
        #expect(trace[step: 2] == ["R warning action tap: pc:P is not in the window (P is not presented)"])
        #expect(trace.run.passed)
    }

    /// Takes a number for `keyboardWillShow`.
    struct Keyboard: PresentationControllerBehavior {
        func valueType(forAction action: String) -> ActionValueType? { action == "keyboardWillShow" ? .number : nil }
    }

    @Test("a value of another JSON type than the registered behaviour declares is rejected before anything runs")
    func wrongValueTypeIsASetUpMistake() throws {
        let registry = BehaviorRegistry().presentationController("Keyboard", Keyboard())
        func file(_ step: String) -> String {
            """
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": {},
                               "S": { "modalPresentationStyle": "custom", "presentationController": { "behavior": "Keyboard" } } },
              "steps": [
                \(step)
              ] }
            """
        }
        func rejection(_ step: String) -> ScenarioError? {
            do {
                _ = try ScenarioDecoder.decode(file(step), file: "keys.json", registry: registry)
                return nil
            } catch {
                return error
            }
        }
        let wrong = try #require(rejection(#"{ "action": "keyboardWillShow", "on": "pc:S", "value": "tall" }"#))
        #expect(wrong.path == "$.steps[0].value")
        #expect(wrong.message == "action keyboardWillShow on pc:S: its behaviour expects a number value, got a string")
        // The same words as the trace's error line when a run refuses such a value.
        #expect(ActionOutcome.wrongValueType(expected: .number, got: .string).message(action: "keyboardWillShow", on: "pc:S") == .error(wrong.message))
        #expect((wrong.line, wrong.column) == (5, 60))
        let missing = try #require(rejection(#"{ "action": "keyboardWillShow", "on": "pc:S" }"#))
        #expect(missing.path == "$.steps[0]")
        #expect(missing.message.hasSuffix("expects a number value, got none"))
        #expect(rejection(#"{ "action": "keyboardWillShow", "on": "pc:S", "value": 216 }"#) == nil)
        // An action the behaviour declares nothing for takes any value; a declarative controller's too.
        #expect(rejection(#"{ "action": "wave", "on": "pc:S", "value": [1] }"#) == nil)
        #expect(rejection(#"{ "action": "keyboardWillShow", "on": "R", "value": "tall" }"#) == nil)
    }
}
