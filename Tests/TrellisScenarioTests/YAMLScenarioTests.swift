import Foundation
import Testing
import TrellisScenario
import TrellisTestSupport

/// SPEC §5: JSON is canonical, YAML is accepted — read into the same values, validated the same.
@Suite struct YAMLScenarioTests {
    @Test func theYAMLExampleRunsLikeItsJSONTwin() async throws {
        let yaml = try ScenarioDecoder.load(path: packageRoot.appendingPathComponent("Examples/suppression-middle.yaml").path)
        let json = try ScenarioDecoder.load(path: packageRoot.appendingPathComponent("Examples/suppression-middle.json").path)
        let yamlRun = try await ScenarioRunner.run(yaml)
        #expect(yamlRun.passed)
        #expect(yamlRun.canonicalLines == (try await ScenarioRunner.run(json)).canonicalLines)
    }

    @Test func yamlIsRewrittenAsJSONForOtherNodes() throws {
        let url = packageRoot.appendingPathComponent("Examples/suppression-middle.yaml")
        let json = try ScenarioDecoder.jsonText(try String(contentsOf: url, encoding: .utf8), file: url.path)
        let fromJSON = try ScenarioDecoder.decode(json, file: "setup.json")
        let fromYAML = try ScenarioDecoder.load(path: url.path)
        #expect(fromJSON.steps == fromYAML.steps)
        #expect(fromJSON.controllers.map(\.id) == fromYAML.controllers.map(\.id))
    }

    @Test func errorsNameTheLineColumnAndPath() throws {
        do {
            _ = try ScenarioDecoder.decode("window:\n  size: [320, \"x\"]\nroot: R\ncontrollers: { R: {} }\n", file: "bad.yaml")
            Issue.record("accepted a string as a number")
        } catch {
            #expect(error.description == "bad.yaml:2:15: $.window.size[1]: expected a number, got string")
        }
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode("window: [\n", file: "broken.yml") }
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode("a: 1\na: 2\n", file: "twice.yaml") }
    }

    @Test func quotedScalarsStayStrings() throws {
        // "true" in quotes is a string: a boolean field rejects it, as JSON would.
        do {
            _ = try ScenarioDecoder.decode(
                "window: { size: [1, 1] }\nroot: R\ncontrollers: { R: { definesPresentationContext: \"true\" } }\n", file: "q.yaml")
            Issue.record("accepted a quoted true as a boolean")
        } catch {
            #expect(error.message == "expected true or false, got string")
        }
    }

    @Test func anAliasBombIsRefusedNotExpanded() throws {
        var lines = [#"a0: &a0 ["x","x","x","x","x","x","x","x","x"]"#]
        for level in 1..<10 {
            lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",") + "]")
        }
        do {
            _ = try ScenarioDecoder.decode(lines.joined(separator: "\n"), file: "bomb.yaml")
            Issue.record("expanded a billion-laughs document")
        } catch {
            #expect(error.message.contains("YAML nodes"))
        }
    }
}

@Suite struct SelectStepSpellingTests {
    /// SPEC §5 writes `select {tab, index}`; the flat spelling of present and push works too.
    @Test func bothSpellingsOfSelectMeanTheSame() throws {
        func steps(_ step: String) throws -> [ScenarioStep] {
            try ScenarioDecoder.decode("""
                { "window": { "size": [320, 568] }, "root": "T",
                  "controllers": { "T": { "kind": "tab", "children": ["A", "B"] }, "A": {}, "B": {} },
                  "steps": [ \(step) ] }
                """, file: "select.json").steps
        }
        let nested = try steps(#"{ "select": { "tab": "T", "index": 1 } }"#)
        let flat = try steps(#"{ "select": "T", "index": 1 }"#)
        #expect(nested == [.select(tab: "T", index: 1)])
        #expect(flat == nested)
        #expect(throws: ScenarioError.self) { try steps(#"{ "select": { "tab": "T" } }"#) }
        #expect(throws: ScenarioError.self) { try steps(#"{ "select": { "tab": "T", "index": 1 }, "index": 1 }"#) }
    }
}
