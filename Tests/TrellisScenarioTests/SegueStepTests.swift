import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport

/// SPEC §11, §5 `performSegue`: each performance brings in a fresh copy of the destination's
/// subtree (`DEST~N`), with the segue's style and anchor, and does what the segue's kind says —
/// present, show, showDetail (R55–R57), unwind (R43–R46) — under the rules of the step it
/// stands for. A custom segue, an unknown one and a copy name the file already uses are
/// refused before anything runs.
@Suite("performSegue")
struct SegueStepTests {
    /// The Master-Detail template's shape: `DN` is the split's detail column and the destination
    /// of `showDetail`.
    static func masterDetail(window: String, steps: [String], extraSegues: String = "", extraControllers: String = "") -> String {
        """
        { \(window),
          "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["MN", "DN"] },
            "MN": { "kind": "navigation", "children": ["Master"] }, "Master": { "kind": "view" },
            "DN": { "kind": "navigation", "children": ["Detail"] }, "Detail": { "kind": "view" },
            "Info": { "kind": "view", "modalPresentationStyle": "fullScreen", "modalTransitionStyle": "flipHorizontal" },
            "Picker": { "kind": "view", "preferredContentSize": [300, 200] },
            "More": { "kind": "view" }\(extraControllers)
          },
          "segues": {
            "showDetail": { "kind": "showDetail", "from": "Master", "destination": "DN" },
            "sheet": { "kind": "presentation", "from": "Detail", "destination": "Info", "style": "formSheet" },
            "modal": { "kind": "modal", "from": "Detail", "destination": "Info" },
            "pick": { "kind": "popoverPresentation", "from": "Detail", "destination": "Picker",
                      "anchor": { "view": "Detail", "rect": [10, 20, 30, 40] } },
            "bare": { "kind": "popoverPresentation", "from": "Detail", "destination": "Picker" },
            "more": { "kind": "show", "from": "Master", "destination": "More" },
            "pushMore": { "kind": "push", "from": "Master", "destination": "More" },
            "done": { "kind": "unwind", "from": "Info" }\(extraSegues)
          },
          "steps": [ \(steps.joined(separator: ", ")) ]
        }
        """
    }

    static func run(_ json: String) async throws -> SteppedTrace {
        try await Scenarios.run(json)
    }

    @Test("showDetail in regular width: the copy DN~1 (with Detail~1) replaces the secondary; the second performance makes DN~2")
    func showDetailRegular() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "showDetail" }"#, #"{ "performSegue": "showDetail" }"#]))
        #expect(trace.headers == ["== step 1: performSegue showDetail: showDetail DN~1 from Master",
                                  "== step 2: performSegue showDetail: showDetail DN~2 from Master"])
        let appearance: Set<String> = ["showDetail", "replaceDetail", "viewWillAppear", "viewWillDisappear", "viewDidAppear", "viewDidDisappear"]
        #expect(trace.lines(step: 1, kinds: appearance) == [
            "Master showDetail(DN~1)", "S replaceDetail(DN~1)",
            "DN viewWillDisappear", "Detail viewWillDisappear", "DN~1 viewWillAppear", "Detail~1 viewWillAppear",
            "DN~1 viewDidAppear", "Detail~1 viewDidAppear", "DN viewDidDisappear", "Detail viewDidDisappear",
        ])
        #expect(trace.lines(step: 2, kinds: ["replaceDetail", "viewWillDisappear"]) == [
            "S replaceDetail(DN~2)", "DN~1 viewWillDisappear", "Detail~1 viewWillDisappear",
        ])
        // R2a: the replacement is sized by the layout, with no sizeForChild query.
        #expect(!trace[step: 2].contains { $0.contains("sizeForChild") }, "\(trace[step: 2])")
    }

    @Test("showDetail in compact width (R56 as amended): the collapsed split forwards it to its primary navigation controller, which pushes the copy")
    func showDetailCompact() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Phone.window, steps: [#"{ "performSegue": "showDetail" }"#]))
        #expect(trace.lines(step: 1, kinds: ["showDetail", "show", "push", "replaceDetail"]) == [
            "Master showDetail(DN~1)", "MN push(DN~1)",
        ])
    }

    @Test("a presentation segue presents the copy in the segue's style, else in the destination's, with its transition style")
    func presentationStyles() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "sheet" }"#, #"{ "dismiss": "Info~1" }"#, #"{ "performSegue": "modal" }"#,
        ]))
        #expect(trace.headers[0] == "== step 1: performSegue sheet: present Info~1 from Detail")
        #expect(trace.lines(step: 1, kinds: ["present", "presentCompletion"]) == ["S present(Info~1, style: formSheet)", "Detail presentCompletion(Info~1)"])
        // The second performance is a fresh copy in the destination's own style.
        #expect(trace.lines(step: 3, kinds: ["present"]) == ["S present(Info~2, style: fullScreen)"])
        let scenario = try ScenarioDecoder.decode(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "sheet" }"#]), file: "s.json")
        #expect(scenario.controller("Info~1")?.modalPresentationStyle == .formSheet)
        #expect(scenario.controller("Info~1")?.modalTransitionStyle == .flipHorizontal)
        #expect(scenario.controller("Info")?.modalPresentationStyle == .fullScreen, "the file's controller is untouched")
    }

    @Test("a popover segue presents from its anchor's rect in the source's view; without an anchor in regular width it is R31's error")
    func popoverAnchor() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "pick" }"#]))
        #expect(trace.lines(step: 1, kinds: ["present", "error"]) == ["S present(Picker~1, style: popover)"])
        let scenario = try ScenarioDecoder.decode(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "pick" }"#]), file: "s.json")
        #expect(scenario.controller("Picker~1")?.popoverSource == PopoverSourceSpec(view: "Detail", rect: Rect(x: 10, y: 20, width: 30, height: 40)))
        let bare = try await Self.run(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "bare" }"#]))
        #expect(!bare.lines(step: 1, kinds: ["error"]).isEmpty, "\(bare[step: 1])")
        #expect(bare.lines(step: 1, kinds: ["present"]).isEmpty)
    }

    @Test("after showDetail the segues from the detail scene start from its copy, anchor included")
    func sourceIsTheLatestCopy() throws {
        let scenario = try ScenarioDecoder.decode(Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "showDetail" }"#, #"{ "performSegue": "pick" }"#,
        ]), file: "s.json")
        #expect(scenario.steps[1] == .event(.performSegue("pick", .present("Picker~1", from: "Detail~1"))))
        #expect(scenario.controller("Picker~1")?.popoverSource?.view == "Detail~1")
        #expect(scenario.copiedFrom == ["DN~1": "DN", "Detail~1": "Detail", "Picker~1": "Picker"])
        #expect(scenario.controller("DN~1")?.children == ["Detail~1"])
        #expect(scenario.controller("DN")?.children == ["Detail"])
    }

    @Test("after a pop, a segue from the popped copy's scene starts from the latest copy still shown, its popover anchor with it; a copy shown is used as read; a file's own id that looks like a copy is not one")
    func sourceIsTheShownCopy() async throws {
        let trace = try await Self.run("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "N"] }, "M": {},
                               "N": { "kind": "navigation", "children": ["List"] }, "List": {}, "Item": {},
                               "Full": { "modalPresentationStyle": "fullScreen" }, "Tip": { "preferredContentSize": [200, 100] } },
              "segues": { "open": { "kind": "show", "from": "List", "destination": "Item" },
                          "deeper": { "kind": "show", "from": "Item", "destination": "Item" },
                          "full": { "kind": "presentation", "from": "Item", "destination": "Full" },
                          "tip": { "kind": "popoverPresentation", "from": "Item", "destination": "Tip", "anchor": { "view": "Item", "rect": [10, 100, 20, 20] } },
                          "back": { "kind": "unwind", "from": "Full" } },
              "steps": [ { "performSegue": "open" }, { "performSegue": "deeper" }, { "pop": "N" },
                         { "performSegue": "tip" }, { "dismiss": "Tip~1" }, { "performSegue": "full" } ] }
            """)
        #expect(trace.headers == [
            "== step 1: performSegue open: show Item~1 from List",
            "== step 2: performSegue deeper: show Item~2 from Item~1",
            "== step 3: pop N",
            "== step 4: performSegue tip: present Tip~1 from Item~1",
            "== step 5: dismiss Tip~1 animated",
            "== step 6: performSegue full: present Full~1 from Item~1",
        ])
        // The secondary column starts at 321 (320 + the divider): the anchor is read in Item~1's
        // view, 331,100 20x20 in the window, and the popover centred below it.
        #expect(trace.lines(step: 4, kinds: ["frameOfPresentedViewInContainerView", "error", "warning"]) == [
            "pc:Tip~1 frameOfPresentedViewInContainerView -> 241,120 200x100",
        ])
        #expect(trace.lines(step: 6, kinds: ["present", "error", "warning"]) == ["S present(Full~1, style: fullScreen)"])
    }

    @Test("show and push segues show the copy from the source: the navigation controller above it pushes (R55)")
    func showAndPush() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "more" }"#, #"{ "performSegue": "pushMore" }"#]))
        #expect(trace.lines(step: 1, kinds: ["show", "push"]) == ["Master show(More~1)", "MN push(More~1)"])
        #expect(trace.lines(step: 2, kinds: ["show", "push"]) == ["Master show(More~2)", "MN push(More~2)"])
    }

    @Test("unwind dismisses the presented controller that holds the source, from its presenter (R44); with nothing presented, a warning")
    func unwind() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "sheet" }"#, #"{ "performSegue": "done" }"#, #"{ "performSegue": "done" }"#,
        ]))
        #expect(trace.headers[1] == "== step 2: performSegue done: unwind from Info~1")
        #expect(trace.lines(step: 2, kinds: ["dismiss", "dismissCompletion"]) == ["S dismiss(Info~1)", "S dismissCompletion(Info~1)"])
        #expect(trace.lines(step: 3, kinds: ["dismiss", "warning"]) == [
            "Info~1 warning unwind: Info~1 is not inside a presented controller: nothing to dismiss (an unwind is simulated as a dismissal, SPEC §11: a navigation stack goes back with a pop step)",
        ])
    }

    @Test("unwind from a child inside a presented container dismisses the container and what it presents (R44, R46)")
    func unwindFromInsideAPresentedContainer() async throws {
        let json = Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "flow" }"#, #"{ "performSegue": "deeper" }"#, #"{ "performSegue": "leave" }"#,
        ], extraSegues: """
            , "flow": { "kind": "presentation", "from": "Master", "destination": "FN", "style": "formSheet" },
              "deeper": { "kind": "presentation", "from": "Step", "destination": "Info" },
              "leave": { "kind": "unwind", "from": "Step" }
            """, extraControllers: """
            , "FN": { "kind": "navigation", "children": ["Step"] }, "Step": { "kind": "view" }
            """)
        let trace = try await Self.run(json)
        #expect(trace.headers[2] == "== step 3: performSegue leave: unwind from Step~1")
        #expect(trace.lines(step: 3, kinds: ["dismiss", "dismissCompletion"]) == ["S dismiss(FN~1)", "S dismissCompletion(FN~1)"])
        #expect(trace[step: 3].contains("Info~1 viewDidDisappear"))
    }

    @Test("a performance is exactly the step it stands for, on a controller declared as the copy")
    func sameAsTheHandWrittenStep() async throws {
        let segue = try await Self.run(Self.masterDetail(window: Phone.window, steps: [
            #"{ "performSegue": "showDetail" }"#, #"{ "performSegue": "sheet" }"#, #"{ "transition": { "size": [568, 320] } }"#,
            #"{ "performSegue": "done" }"#,
        ]))
        let byHand = try await Self.run(Self.masterDetail(window: Phone.window, steps: [
            #"{ "showDetail": "DN~1", "from": "Master" }"#, #"{ "present": "Info~1", "from": "Detail~1" }"#,
            #"{ "transition": { "size": [568, 320] } }"#, #"{ "dismiss": "S" }"#,
        ], extraControllers: """
            , "DN~1": { "kind": "navigation", "children": ["Detail~1"] }, "Detail~1": { "kind": "view" },
              "Info~1": { "kind": "view", "modalPresentationStyle": "formSheet", "modalTransitionStyle": "flipHorizontal" }
            """))
        for step in 1...4 {
            #expect(segue[step: step] == byHand[step: step], "step \(step)")
        }
        #expect(segue.lines(step: 2, kinds: ["present"]) == ["S present(Info~1, style: formSheet)"])
    }

    @Test("expect steps and other steps may name the copies")
    func stepsNameCopies() async throws {
        let trace = try await Self.run(Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "sheet" }"#,
            #"{ "expect": ["S present(Info~1, style: formSheet)", "Detail presentCompletion(Info~1)"] }"#,
            #"{ "setPreferredContentSize": { "controller": "Info~1", "size": [400, 300] } }"#,
            #"{ "dismiss": "Info~1", "animated": false }"#,
        ]))
        #expect(trace.run.passed)
        #expect(trace.lines(step: 4, kinds: ["dismiss"]) == ["S dismiss(Info~1)"])
    }

    @Test("a child copied inside a destination and then as a destination itself keeps counting: Detail~1, then Detail~2")
    func countsPerController() throws {
        let json = Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "showDetail" }"#, #"{ "performSegue": "detailAlone" }"#],
                                     extraSegues: #", "detailAlone": { "kind": "presentation", "from": "Master", "destination": "Detail" }"#)
        let scenario = try ScenarioDecoder.decode(json, file: "s.json")
        #expect(scenario.steps[1] == .event(.performSegue("detailAlone", .present("Detail~2", from: "Master"))))
        #expect(Set(scenario.copiedFrom.keys) == ["DN~1", "Detail~1", "Detail~2"])
    }

    @Test("a copy renames what its controller's fields say of its children: trait overrides, layout, overrides")
    func copiesRenameTheirFields() throws {
        let json = """
            { \(Phone.window), "root": "R",
              "controllers": {
                "R": { "kind": "view" },
                "C": { "kind": "view", "children": ["A", "B"], "traitOverrides": { "A": { "horizontalSizeClass": "regular" } },
                       "layout": { "origins": { "B": [0, 100] } },
                       "overrides": { "viewWillTransition": { "forwardTo": ["A"] }, "sizeForChild": { "perChild": { "B": [10, 20] } } },
                       "popoverSource": { "view": "A", "rect": [1, 2, 3, 4] } },
                "A": { "kind": "view" }, "B": { "kind": "view" }
              },
              "segues": { "s": { "kind": "presentation", "from": "R", "destination": "C", "style": "overFullScreen" } },
              "steps": [ { "performSegue": "s" } ] }
            """
        let copy = try #require(try ScenarioDecoder.decode(json, file: "s.json").controller("C~1"))
        #expect(copy.children == ["A~1", "B~1"])
        #expect(Array(copy.traitOverrides.keys) == ["A~1"])
        #expect(copy.layout == .origins(["B~1": Point(x: 0, y: 100)]))
        #expect(copy.overrides.viewWillTransition == .forwardTo([ForwardTarget(child: "A~1")]))
        #expect(copy.overrides.sizeForChild == .perChild(["B~1": Size(10, 20)]))
        #expect(copy.popoverSource?.view == "A~1")
        #expect(copy.modalPresentationStyle == .overFullScreen)
    }

    @Test("placement: a copy of a placed controller is placed on the same node; the file's placement wins")
    func copiedPlacement() throws {
        let json = Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "showDetail" }"#])
            .replacingOccurrences(of: #""steps""#, with: #""placement": { "DN": "b", "Detail": "c" }, "steps""#)
        let scenario = try ScenarioDecoder.decode(json, file: "s.json")
        #expect(scenario.placement["DN~1"] == "b" && scenario.placement["Detail~1"] == "c")
    }

    // MARK: Bad input

    func expectRejected(_ json: String, path: String, mentions words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = Scenarios.rejection(json) else {
            Issue.record("the scenario was accepted", sourceLocation: sourceLocation)
            return
        }
        #expect(error.path == path, "message: \(error.message)", sourceLocation: sourceLocation)
        #expect(error.line > 0 && error.column > 0, "\(error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(error.message.contains(word), "\"\(error.message)\" does not mention \(word)", sourceLocation: sourceLocation)
        }
    }

    @Test("an unknown segue names the nearest and lists the segues; a file without segues says so")
    func unknownSegue() {
        expectRejected(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "showDetial" }"#]),
                       path: "$.steps[0].performSegue", mentions: ["unknown segue \"showDetial\"", "did you mean \"showDetail\"", "bare, done"])
        expectRejected("""
            { \(Phone.window), "root": "R", "controllers": { "R": {} }, "steps": [ { "performSegue": "s" } ] }
            """, path: "$.steps[0].performSegue", mentions: ["unknown segue \"s\"", "declares no segues"])
    }

    @Test("a custom segue is refused at validation, naming its class (SPEC §11)")
    func customSegue() {
        let json = Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "fade" }"#],
                                     extraSegues: #", "fade": { "kind": "custom", "from": "Master", "destination": "More", "customClass": "FadeSegue" }"#)
        expectRejected(json, path: "$.steps[0].performSegue", mentions: ["custom segue", "\"FadeSegue\""])
        // Declared and not performed, it is fine: importing a storyboard must not fail on it.
        #expect(Scenarios.rejection(Self.masterDetail(window: Pad.window, steps: [],
            extraSegues: #", "fade": { "kind": "custom", "from": "Master", "destination": "More", "customClass": "FadeSegue" }"#)) == nil)
    }

    @Test("a custom segue whose class the runner registers does what its segue behaviour says, on a fresh copy")
    func registeredCustomSegue() throws {
        let segues = """
            , "fade": { "kind": "custom", "from": "Master", "destination": "More", "customClass": "FadeSegue" },
              "slide": { "kind": "custom", "from": "Master", "destination": "More", "customClass": "SlideSegue", "style": "formSheet" },
              "back": { "kind": "custom", "from": "Info", "customClass": "BackSegue", "destination": "Master" }
            """
        let json = Self.masterDetail(window: Pad.window, steps: [
            #"{ "performSegue": "fade" }"#, #"{ "performSegue": "slide" }"#, #"{ "performSegue": "back" }"#,
        ], extraSegues: segues)
        let registry = BehaviorRegistry()
            .segue("FadeSegue", .present(style: .overFullScreen)).segue("SlideSegue", .show).segue("BackSegue", .unwind)
        let scenario = try ScenarioDecoder.decode(json, file: "s.json", registry: registry)
        #expect(scenario.steps == [
            .event(.performSegue("fade", .present("More~1", from: "Master"))),
            .event(.performSegue("slide", .show("More~2", from: "Master"))),
            .event(.performSegue("back", .unwind(from: "Info"))),
        ])
        #expect(scenario.controller("More~1")?.modalPresentationStyle == .overFullScreen)
        // A registered presentation without a style of its own takes the segue's.
        let sheet = try ScenarioDecoder.decode(json.replacingOccurrences(of: #""performSegue": "fade""#, with: #""performSegue": "slide""#),
                                               file: "s.json", registry: BehaviorRegistry().segue("SlideSegue", .present(style: nil)).segue("BackSegue", .unwind))
        #expect(sheet.controller("More~1")?.modalPresentationStyle == .formSheet)
        #expect(registry.segueNames == ["BackSegue", "FadeSegue", "SlideSegue"])
        #expect(!registry.isEmpty && registry.names.isEmpty)
        // Another runner's registry names what it has.
        let error = try #require(Scenarios.rejection(json, registry: BehaviorRegistry().segue("ZoomSegue", .show)))
        #expect(error.message.contains("\"FadeSegue\"") && error.message.contains("it registers: ZoomSegue"), "\(error.message)")
    }

    @Test("the behaviour names a node checks before SETUP are read without the steps, so a custom segue does not hide them")
    func behaviorNamesWithCustomSegues() {
        let json = Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "fade" }"#],
                                     extraSegues: #", "fade": { "kind": "custom", "from": "Master", "destination": "More", "customClass": "FadeSegue" }"#)
            .replacingOccurrences(of: #""More": { "kind": "view" }"#, with: #""More": { "kind": "view", "behavior": "Overlay" }"#)
        #expect(ScenarioDecoder.behaviorNames(inJSON: json) == [BehaviorName(.viewController, "Overlay")])
    }

    @Test("a copy whose name the file declares is refused at the step that would make it")
    func copyNameTaken() {
        let json = Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "more" }"#], extraControllers: #", "More~1": { "kind": "view" }"#)
        expectRejected(json, path: "$.steps[0].performSegue", mentions: ["copy named \"More~1\"", "already declares"])
    }

    @Test("bounded memory: the copies of a scenario are at most SegueCopies' limit, refused at the step that would pass it")
    func tooManyCopies() {
        let children = (0..<2_000).map { "\"c\($0)\"" }
        let json = """
            { \(Phone.window), "root": "R",
              "controllers": { "R": {}, "W": { "children": [\(children.joined(separator: ", "))] }
                \(children.map { ", \($0): {}" }.joined()) },
              "segues": { "s": { "kind": "presentation", "from": "R", "destination": "W" } },
              "steps": [ \(Array(repeating: #"{ "performSegue": "s" }"#, count: 60).joined(separator: ", ")) ] }
            """
        // 49 performances make 98,049 copies; the 50th would make 100,050.
        expectRejected(json, path: "$.steps[49].performSegue", mentions: ["past 100000", "at most 100000"])
    }

    @Test("wrong shapes: not a string, an extra field; a segue to nobody is named at the segue, not at the step")
    func wrongShapes() {
        expectRejected(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": 1 }"#]),
                       path: "$.steps[0].performSegue", mentions: ["expected a string"])
        expectRejected(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "more", "animated": false }"#]),
                       path: "$.steps[0].animated", mentions: ["unknown field \"animated\""])
        expectRejected(Self.masterDetail(window: Pad.window, steps: [#"{ "performSegue": "more" }"#])
            .replacingOccurrences(of: #""from": "Master", "destination": "More" }"#, with: #""from": "Master", "destination": "Nobody" }"#),
                       path: "$.segues.more.destination", mentions: ["unknown controller \"Nobody\""])
    }

    @Test("the steps may come before the segues and controllers in the file")
    func stepsFirst() throws {
        let json = """
            { "steps": [ { "performSegue": "s" } ],
              "segues": { "s": { "kind": "presentation", "from": "R", "destination": "P" } },
              \(Phone.window), "root": "R", "controllers": { "R": {}, "P": {} } }
            """
        let scenario = try ScenarioDecoder.decode(json, file: "s.json")
        #expect(scenario.steps == [.event(.performSegue("s", .present("P~1", from: "R")))])
    }

    @Test("YAML files perform segues too")
    func yaml() throws {
        let yaml = """
            window: { size: [320, 568] }
            root: R
            controllers: { R: {}, P: {} }
            segues:
              s: { kind: presentation, from: R, destination: P, style: overFullScreen }
            steps:
              - performSegue: s
            """
        let scenario = try ScenarioDecoder.decode(yaml, file: "s.yaml")
        #expect(scenario.steps == [.event(.performSegue("s", .present("P~1", from: "R")))])
        #expect(scenario.controller("P~1")?.modalPresentationStyle == .overFullScreen)
    }
}
