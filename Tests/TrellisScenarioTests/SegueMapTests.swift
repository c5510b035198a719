import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport

/// SPEC §11 `segues`: the map `trellis import` writes and `performSegue` steps name, read with
/// every field, and refused with its JSON path when an id is unknown, a field has the wrong
/// type, or a field does not fit the segue's kind.
@Suite("segue maps")
struct SegueMapTests {
    /// The Master-Detail template's shape, with a segue of every kind that carries fields.
    static let masterDetail = """
        { \(Phone.window),
          "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["MN", "DN"] },
            "MN": { "kind": "navigation", "children": ["Master"] },
            "Master": { "kind": "view" },
            "DN": { "kind": "navigation", "children": ["Detail"] },
            "Detail": { "kind": "view" },
            "Info": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "Picker": { "kind": "view" },
            "Fancy": { "kind": "view" }
          },
          "segues": {
            "showDetail": { "kind": "showDetail", "from": "Master", "destination": "DN" },
            "info": { "kind": "presentation", "from": "Detail", "destination": "Info",
                      "style": "formSheet", "transitionStyle": "crossDissolve" },
            "pick": { "kind": "popoverPresentation", "from": "Detail", "destination": "Picker",
                      "anchor": { "view": "Detail", "rect": [10, 20, 30, 40] } },
            "done": { "kind": "unwind", "from": "Info" },
            "fancy": { "kind": "custom", "from": "Master", "destination": "Fancy", "customClass": "FancySegue" }
          },
          "steps": []
        }
        """

    @Test("every field of every segue is read, in the file's order")
    func readsEveryField() throws {
        let scenario = try ScenarioDecoder.decode(Self.masterDetail, file: "segues.json")
        #expect(scenario.segues.map(\.id) == ["showDetail", "info", "pick", "done", "fancy"])
        let showDetail = try #require(scenario.segue("showDetail"))
        #expect(showDetail.kind == .showDetail && showDetail.from == "Master" && showDetail.destination == "DN")
        #expect(showDetail.style == nil && showDetail.anchor == nil && showDetail.customClass == nil)
        let info = try #require(scenario.segue("info"))
        #expect(info.kind == .presentation && info.style == .formSheet && info.transitionStyle == .crossDissolve)
        let pick = try #require(scenario.segue("pick"))
        #expect(pick.anchor == PopoverSourceSpec(view: "Detail", rect: Rect(x: 10, y: 20, width: 30, height: 40)))
        let done = try #require(scenario.segue("done"))
        #expect(done.kind == .unwind && done.destination == nil)
        #expect(scenario.segue("fancy")?.customClass == "FancySegue")
        #expect(scenario.segue("nothing") == nil)
    }

    @Test("every kind of SPEC §11 is a kind, in the storyboard's words")
    func kinds() {
        #expect(SegueKind.allCases.map(\.rawValue) == [
            "presentation", "popoverPresentation", "show", "showDetail", "push", "modal", "unwind", "custom",
        ])
    }

    /// A file with one segue `"s"` written as `segue` among the master-detail controllers.
    static func file(_ segue: String) -> String {
        """
        { \(Phone.window),
          "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["M", "D"] },
            "M": { "kind": "view" }, "D": { "kind": "view" }, "P": { "kind": "view" }
          },
          "segues": { "s": \(segue) }
        }
        """
    }

    func expectRejected(_ json: String, path: String, mentions words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = Scenarios.rejection(json) else {
            Issue.record("the scenario was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(error.path == path, "message: \(error.message)", sourceLocation: sourceLocation)
        #expect(error.line > 0 && error.column > 0, "\(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("bad.json:\(error.line):\(error.column): \(path)"), "\(error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "\"\(error.message)\" does not mention \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test("unknown ids: from, destination, the anchor's view")
    func unknownIDs() {
        expectRejected(Self.file(#"{ "kind": "show", "from": "X", "destination": "P" }"#), path: "$.segues.s.from", mentions: ["unknown controller", "X"])
        expectRejected(Self.file(#"{ "kind": "show", "from": "M", "destination": "Y" }"#),
                       path: "$.segues.s.destination", mentions: ["unknown controller", "Y"])
        expectRejected(Self.file(#"{ "kind": "popoverPresentation", "from": "M", "destination": "P", "anchor": { "view": "Z", "rect": [0, 0, 1, 1] } }"#),
                       path: "$.segues.s.anchor.view", mentions: ["unknown controller", "Z"])
    }

    @Test("wrong types and unknown words")
    func wrongTypes() {
        expectRejected(Self.file(#"{ "kind": 3, "from": "M", "destination": "P" }"#), path: "$.segues.s.kind", mentions: ["expected a string"])
        expectRejected(Self.file(#"{ "kind": "replace", "from": "M", "destination": "P" }"#),
                       path: "$.segues.s.kind", mentions: ["unknown segue kind \"replace\"", "popoverPresentation"])
        expectRejected(Self.file(#"{ "kind": "show", "from": ["M"], "destination": "P" }"#), path: "$.segues.s.from", mentions: ["expected a string"])
        expectRejected(Self.file(#"{ "kind": "presentation", "from": "M", "destination": "P", "style": "sideways" }"#),
                       path: "$.segues.s.style", mentions: ["unknown presentation style"])
        expectRejected(Self.file(#"{ "kind": "presentation", "from": "M", "destination": "P", "transitionStyle": true }"#),
                       path: "$.segues.s.transitionStyle", mentions: ["expected a string"])
        expectRejected(Self.file(#"{ "kind": "popoverPresentation", "from": "M", "destination": "P", "anchor": { "view": "M", "rect": [0, 0] } }"#),
                       path: "$.segues.s.anchor.rect", mentions: ["a rect"])
        expectRejected(Self.file(#"{ "kind": "custom", "from": "M", "destination": "P", "customClass": "" }"#),
                       path: "$.segues.s.customClass", mentions: ["must not be empty"])
        expectRejected(Self.file(#""show""#), path: "$.segues.s", mentions: ["expected an object"])
        expectRejected(Self.file(#"{ "kind": "show", "from": "M", "destination": "P", "sender": "M" }"#),
                       path: "$.segues.s.sender", mentions: ["unknown field \"sender\""])
        expectRejected(Self.file(#"{ "kind": "show", "destination": "P" }"#), path: "$.segues.s", mentions: ["missing required field \"from\""])
    }

    @Test("a segues map that is not an object, and an empty segue id")
    func badMap() {
        expectRejected(Self.file(#"{}"#).replacingOccurrences(of: #"{ "s": {} }"#, with: "[]"), path: "$.segues", mentions: ["expected an object"])
        expectRejected(Self.file(#"{ "kind": "show", "from": "M", "destination": "P" }"#).replacingOccurrences(of: #""s":"#, with: #""":"#),
                       path: "$.segues.", mentions: ["segue id must not be empty"])
    }

    @Test("fields that do not fit the kind")
    func fieldsOfKinds() {
        expectRejected(Self.file(#"{ "kind": "show", "from": "M" }"#), path: "$.segues.s", mentions: ["show segue needs a \"destination\""])
        expectRejected(Self.file(#"{ "kind": "showDetail", "from": "M", "destination": "P", "style": "formSheet" }"#),
                       path: "$.segues.s.style", mentions: ["\"style\" applies to segues that present", "showDetail"])
        expectRejected(Self.file(#"{ "kind": "push", "from": "M", "destination": "P", "transitionStyle": "flipHorizontal" }"#),
                       path: "$.segues.s.transitionStyle", mentions: ["not to a push segue"])
        expectRejected(Self.file(#"{ "kind": "popoverPresentation", "from": "M", "destination": "P", "style": "formSheet" }"#),
                       path: "$.segues.s.style", mentions: ["presents as \"popover\""])
        expectRejected(Self.file(#"{ "kind": "presentation", "from": "M", "destination": "P", "anchor": { "view": "M" } }"#),
                       path: "$.segues.s.anchor", mentions: ["applies to popoverPresentation segues"])
        expectRejected(Self.file(#"{ "kind": "show", "from": "M", "destination": "P", "customClass": "Fade" }"#),
                       path: "$.segues.s.customClass", mentions: ["applies to custom segues"])
        expectRejected(Self.file(#"{ "kind": "custom", "from": "M", "destination": "P" }"#), path: "$.segues.s", mentions: ["customClass"])
    }

    @Test("an unwind without a destination, and a popover with its style spelled out, are fine")
    func accepted() throws {
        _ = try ScenarioDecoder.decode(Self.file(#"{ "kind": "unwind", "from": "P" }"#), file: "ok.json")
        _ = try ScenarioDecoder.decode(Self.file(#"{ "kind": "unwind", "from": "P", "destination": "M" }"#), file: "ok.json")
        _ = try ScenarioDecoder.decode(Self.file(#"{ "kind": "popoverPresentation", "from": "M", "destination": "P", "style": "popover" }"#), file: "ok.json")
        _ = try ScenarioDecoder.decode(Self.file(#"{ "kind": "modal", "from": "M", "destination": "P", "style": "pageSheet", "transitionStyle": "partialCurl" }"#), file: "ok.json")
    }
}
