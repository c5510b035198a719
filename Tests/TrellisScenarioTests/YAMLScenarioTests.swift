import Foundation
import Testing
import TrellisModel
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

    func rejection(_ yaml: String, file: String = "bad.yaml") -> String? {
        do {
            _ = try ScenarioDecoder.decode(yaml, file: file)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func syntaxErrorsAreOneLineWithThePathBeingRead() throws {
        let message = try #require(rejection("window:\n  size: [320, 568\nroot: R\n"))
        #expect(message == "bad.yaml:3:5: $.window.size[2]: not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 9)")
        #expect(!message.contains("\n"))
        #expect(rejection("a: \"\\xZZ\"\n")?.hasPrefix("bad.yaml:1:7: $.a: not valid YAML: ") == true)
    }

    @Test("an expect line with \": \" left unquoted (YAML reads a mapping) is refused with the advice to quote it")
    func anUnquotedExpectLineWithAColon() {
        let yaml = "window: { size: [320, 568] }\nroot: R\ncontrollers: { R: { children: [A] }, A: {} }\nsteps:\n"
            + "  - resizeWindow: [568, 320]\n  - expect:\n      - R sizeForChild(A, parent: 568x320) -> 568x320\n"
        #expect(rejection(yaml) == "bad.yaml:7:9: $.steps[1].expect[0]: expected a canonical trace line (a string), got an object: "
            + "in YAML, quote a line that holds \": \" (\"R sizeForChild(A, parent: 568x320) -> 568x320\")")
    }

    @Test func aDuplicateKeyIsRefusedAtItsSecondOccurrence() {
        #expect(rejection("window:\n  size: [320, 568]\n  size: [1, 2]\nroot: R\ncontrollers: { R: {} }\n")
            == "bad.yaml:3:3: $.window.size: duplicate key \"size\" (first at line 2, column 3)")
        #expect(rejection("a: 1\nb: { c: 1, c: 2 }\n") == "bad.yaml:2:12: $.b.c: duplicate key \"c\" (first at line 2, column 6)")
        // A quoted key is the same key.
        #expect(rejection("a: 1\n\"a\": 2\n") == "bad.yaml:2:1: $.a: duplicate key \"a\" (first at line 1, column 1)")
    }

    /// YAML 1.2's core schema, as Protocols/scenario-format.md §3.1 says: `NO`, `off`, `yes` are
    /// strings; `0o17` is 15 and `0x10` is 16.
    @Test func theCoreSchemaTypesPlainScalars() throws {
        let scenario = try ScenarioDecoder.decode("""
            scenario: off
            window: { size: [0o17, 0x10] }
            root: R
            controllers: { R: { children: [NO] }, NO: {} }
            """, file: "core.yaml")
        #expect(scenario.name == "off")
        #expect(scenario.windowSize == Size(15, 16))
        #expect(scenario.controllers.first?.children == ["NO"])
        #expect(rejection("window: { size: [1, 1] }\nroot: R\ncontrollers: { R: { definesPresentationContext: yes } }\n")
            == "bad.yaml:3:49: $.controllers.R.definesPresentationContext: expected true or false, got string")
        #expect(rejection("window: { size: [1, 1e400] }\nroot: R\ncontrollers: { R: {} }\n")
            == "bad.yaml:1:21: $.window.size[1]: number out of range: 1e400")
        #expect(rejection("window: { size: [1, .inf] }\nroot: R\ncontrollers: { R: {} }\n")
            == "bad.yaml:1:21: $.window.size[1]: number out of range: .inf")
    }

    @Test func yamlExtrasJSONCannotSayAreRefused() {
        #expect(rejection("a: 1\n---\nb: 2\n") == "bad.yaml:2:1: not valid YAML: more than one document")
        #expect(rejection("") == "bad.yaml: the YAML document is empty")
        #expect(rejection("a:\n  ? [x]\n  : 1\n") == "bad.yaml:2:5: $.a: mapping keys must be plain strings")
        #expect(rejection("a: *x\n") == "bad.yaml:1:4: $.a: unknown YAML alias *x")
        #expect(rejection("window: !foo { size: [1, 1] }\n") == "bad.yaml:1:9: $.window: unsupported YAML tag !foo")
        #expect(rejection("a: !!int twelve\n") == "bad.yaml:1:4: $.a: not a YAML number: twelve")
    }

    @Test func explicitTagsAndQuotesDecideTheType() throws {
        let scenario = try ScenarioDecoder.decode("""
            scenario: !!str 12
            window: { size: [!!int "320", !!float 568] }
            root: "R"
            controllers: { R: {} }
            """, file: "tags.yaml")
        #expect(scenario.name == "12")
        #expect(scenario.windowSize == Size(320, 568))
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
        #expect(nested == [.event(.select(tab: "T", index: 1))])
        #expect(flat == nested)
        #expect(throws: ScenarioError.self) { try steps(#"{ "select": { "tab": "T" } }"#) }
        #expect(throws: ScenarioError.self) { try steps(#"{ "select": { "tab": "T", "index": 1 }, "index": 1 }"#) }
    }
}
