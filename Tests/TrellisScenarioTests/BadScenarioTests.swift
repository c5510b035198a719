import Testing
import TrellisScenario
import TrellisTestSupport

/// SPEC §5: bad scenario files are rejected before anything runs, naming the file, the JSON path
/// and what is wrong.
@Suite("bad scenario files")
struct BadScenarioTests {
    /// Checks the rejection of `json`: its JSON path, words its message must contain, and
    /// optionally the line it points at.
    func expectRejected(
        _ json: String, path: String, mentions words: [String], line: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = Scenarios.rejection(json) else {
            Issue.record("the scenario was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(error.file == "bad.json", sourceLocation: sourceLocation)
        #expect(error.path == path, "message: \(error.message)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "\"\(error.message)\" does not mention \(word)", sourceLocation: sourceLocation)
        }
        if let line {
            #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        }
        #expect(error.description.contains("bad.json"), sourceLocation: sourceLocation)
        if !path.isEmpty {
            #expect(error.description.contains(path), sourceLocation: sourceLocation)
        }
    }

    @Test("not JSON: the position of the syntax error")
    func notJSON() {
        expectRejected("""
            {
              "root": "R",
              "controllers": { "R": { } 
            """, path: "", mentions: ["not valid JSON"], line: 3)
    }

    @Test("not JSON: a duplicate key")
    func duplicateKey() {
        expectRejected("""
            { \(Phone.window), "root": "R", "root": "S", "controllers": { "R": {} } }
            """, path: "$.root", mentions: ["not valid JSON", "duplicate key \"root\" (first at line "])
    }

    @Test("an unknown field in a controller")
    func unknownControllerField() {
        expectRejected("""
            { \(Phone.window),
              "root": "R",
              "controllers": { "R": { "kind": "view", "colour": "red" } } }
            """, path: "$.controllers.R.colour", mentions: ["unknown field", "colour"], line: 4)
    }

    @Test("a popover source's corner that is none of the four, named with the four")
    func unknownPopoverCorner() {
        expectRejected("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": {}, "P": { "popoverSource": { "view": "R", "corner": "right" } } } }
            """, path: "$.controllers.P.popoverSource.corner", mentions: ["unknown corner \"right\"", "topLeft, topRight, bottomLeft, bottomRight"], line: 3)
    }

    @Test("an unknown top-level field (there are no comments: \"description\" is not a field)")
    func unknownTopLevelField() {
        expectRejected("""
            { \(Phone.window), "description": "a comment", "root": "R", "controllers": { "R": {} } }
            """, path: "$.description", mentions: ["unknown field", "description"])
    }

    @Test("a wrong type: a size that is a string")
    func wrongTypeSize() {
        expectRejected("""
            { "window": { "size": "big" }, "root": "R", "controllers": { "R": {} } }
            """, path: "$.window.size", mentions: ["size", "[width, height]"])
    }

    @Test("a wrong type: a number where a string is expected")
    func wrongTypeKind() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "kind": 3 } } }
            """, path: "$.controllers.R.kind", mentions: ["expected a string", "number"])
    }

    @Test("a wrong type: a width that is a string")
    func wrongTypeWidth() {
        expectRejected("""
            { "window": { "size": ["320", 568] }, "root": "R", "controllers": { "R": {} } }
            """, path: "$.window.size[0]", mentions: ["expected a number", "string"])
    }

    @Test("an unknown controller kind")
    func unknownKind() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "kind": "stack" } } }
            """, path: "$.controllers.R.kind", mentions: ["stack", "navigation"])
    }

    @Test("an unknown id in children")
    func unknownChild() {
        expectRejected("""
            { \(Phone.window),
              "root": "R",
              "controllers": {
                "R": { "children": ["A",
                                    "Q"] },
                "A": {} } }
            """, path: "$.controllers.R.children[1]", mentions: ["unknown controller", "Q"], line: 6)
    }

    @Test("a duplicate child")
    func duplicateChild() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A", "A"] }, "A": {} } }
            """, path: "$.controllers.R.children[1]", mentions: ["duplicate child", "A"])
    }

    @Test("a cycle that is not reachable from the root")
    func cycle() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {}, "X": { "children": ["Y"] }, "Y": { "children": ["X"] } } }
            """, path: "$.controllers.X.children", mentions: ["cycle", "X", "Y"])
    }

    @Test("a cycle entered from a controller listed before it is named from its own first controller")
    func cycleBelowAController() {
        guard let error = Scenarios.rejection("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": {}, "A": {}, "B": { "children": ["A", "C"] }, "C": { "children": ["B"] } } }
            """) else {
            Issue.record("a cycle was accepted")
            return
        }
        #expect(error.path == "$.controllers.B.children")
        #expect(error.message == "cycle in the hierarchy: B -> C -> B")
    }

    @Test("a chain 20,000 controllers deep is measured without recursion and refused past the depth limit")
    func deepChain() throws {
        let depth = 20_000
        let controllers = (0..<depth).map { index in
            "\"c\(index)\": {" + (index + 1 < depth ? "\"children\": [\"c\(index + 1)\"]" : "") + "}"
        }
        let error = try #require(Scenarios.rejection(
            "{ \(Phone.window), \"root\": \"c0\", \"controllers\": { \(controllers.joined(separator: ", ")) } }"))
        #expect(error.path == "$.root")
        #expect(error.message == "the hierarchy under \"c0\" is 20000 levels deep; at most 10000 are supported")
    }

    @Test("a controller that is its own child")
    func selfCycle() {
        guard let error = Scenarios.rejection("""
            { \(Phone.window), "root": "R", "controllers": { "R": {}, "X": { "children": ["X"] } } }
            """) else {
            Issue.record("a controller that is its own child was accepted")
            return
        }
        #expect(error.path.hasPrefix("$.controllers.X.children"))
        #expect(error.message.contains("X"))
    }

    @Test("a controller that is a child of two parents")
    func childOfTwoParents() {
        expectRejected("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["C"] }, "B": { "children": ["C"] }, "C": {} } }
            """, path: "$.controllers.B.children[0]", mentions: ["C", "already a child of", "A"])
    }

    @Test("the root listed as somebody's child")
    func rootAsChild() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": { "children": ["R"] } } }
            """, path: "$.controllers.A.children[0]", mentions: ["root", "R"])
    }

    @Test("an unknown root")
    func unknownRoot() {
        expectRejected("""
            { \(Phone.window), "root": "Z", "controllers": { "R": {} } }
            """, path: "$.root", mentions: ["unknown controller", "Z"])
    }

    @Test("a missing required field")
    func missingRoot() {
        expectRejected("""
            { \(Phone.window), "controllers": { "R": {} } }
            """, path: "$", mentions: ["missing", "root"])
    }

    @Test("a present step that presents a controller which is a child in the hierarchy")
    func presentingAChild() {
        expectRejected("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": { "children": ["A1"] }, "A1": {} },
              "steps": [ { "resizeWindow": [568, 320] },
                         { "present": "A1", "from": "R" } ] }
            """, path: "$.steps[1]", mentions: ["A1", "child", "presented"])
    }

    @Test("a trait override for a controller that is not the container's child, and that no earlier step pushes or shows")
    func overrideForAStranger() {
        expectRejected("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["A"] }, "A": {}, "W": {} },
              "steps": [ { "setTraitOverride": { "container": "N", "child": "W", "traits": null } },
                         { "push": "W", "onto": "N" } ] }
            """, path: "$.steps[0]", mentions: ["\"W\" is not a child of \"N\""])
    }

    @Test("an unknown step")
    func unknownStep() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} }, "steps": [ { "rotate": 90 } ] }
            """, path: "$.steps[0]", mentions: ["unknown step \"rotate\"", "expected one of: resizeWindow"])
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} }, "steps": [ { "resizeWindw": [568, 320] } ] }
            """, path: "$.steps[0]", mentions: ["unknown step \"resizeWindw\" (did you mean \"resizeWindow\"?)"])
    }

    @Test("an expect line that is not a canonical trace line")
    func badExpectLine() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} }, "steps": [ { "expect": ["R viewWillTransition", "garbage"] } ] }
            """, path: "$.steps[0].expect[1]", mentions: ["canonical"])
    }

    @Test("a step naming an unknown controller")
    func stepUnknownController() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} },
              "steps": [ { "setPreferredContentSize": { "controller": "Q", "size": [1, 1] } } ] }
            """, path: "$.steps[0]", mentions: ["unknown controller", "Q"])
    }

    @Test("a trait override for a controller that is not a child")
    func overrideForNonChild() {
        expectRejected("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"], "traitOverrides": { "B": { "displayScale": 3 } } }, "A": {}, "B": {} } }
            """, path: "$.controllers.R.traitOverrides.B", mentions: ["B", "not a child"])
    }

    @Test("manual forwarding to a controller that is not a child")
    func forwardToNonChild() {
        expectRejected("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"], "overrides": { "viewWillTransition": { "forwardTo": ["B"] } } },
                               "A": {}, "B": {} } }
            """, path: "$.controllers.R.overrides.viewWillTransition.forwardTo[0]", mentions: ["B", "not a child"])
    }

    @Test("a grant fraction outside 0...1")
    func grantOutOfRange() {
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": { "overrides": { "grant": { "fraction": 1.5 } } } } }
            """, path: "$.controllers.R.overrides.grant.fraction", mentions: ["fraction"])
    }

    @Test("a tab selection out of range")
    func tabSelectionOutOfRange() {
        expectRejected("""
            { \(Phone.window), "root": "T", "controllers": { "T": { "kind": "tab", "children": ["A"], "selected": 2 }, "A": {} } }
            """, path: "$.controllers.T.selected", mentions: ["2", "out of range"])
    }

    @Test("a split controller with more than two children")
    func splitWithThreeChildren() {
        expectRejected("""
            { \(Phone.window), "root": "S", "controllers": { "S": { "kind": "split", "children": ["A", "B", "C"] }, "A": {}, "B": {}, "C": {} } }
            """, path: "$.controllers.S.children", mentions: ["split", "two"])
    }

    @Test("R61: a layout on a container that places its children itself, origins for a stranger, an unknown layout")
    func badLayouts() {
        expectRejected("""
            { "window": { "size": [320, 568] }, "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["V"], "layout": "row" }, "V": {} } }
            """, path: "$.controllers.N.layout", mentions: ["view controllers only", "navigation"])
        expectRejected("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["V"], "layout": { "origins": { "W": [0, 10] } } }, "V": {}, "W": {} } }
            """, path: "$.controllers.R.layout.origins.W", mentions: ["not a child"])
        expectRejected("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["V"], "layout": "grid" }, "V": {} } }
            """, path: "$.controllers.R.layout", mentions: ["unknown layout", "row"])
    }

    @Test("R62: a frame rule with both forms, or an unknown alignment")
    func badFrameRules() {
        expectRejected("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                "presentationController": { "frame": { "align": "right", "fixed": [0, 0, 10, 10] } } } } }
            """, path: "$.controllers.S.presentationController.frame", mentions: ["exactly one"])
        expectRejected("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": {}, "S": { "modalPresentationStyle": "custom",
                "presentationController": { "frame": { "align": "middle" } } } } }
            """, path: "$.controllers.S.presentationController.frame.align", mentions: ["middle"])
    }
}
