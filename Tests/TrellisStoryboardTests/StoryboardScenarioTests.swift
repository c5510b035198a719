import Foundation
import Testing
import TrellisJSON
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisStoryboard

/// SPEC §5 `"storyboard"`, §11: a scenario takes window, root, controllers and segues from a
/// storyboard, adds steps, a placement and fields for the controllers it names, and runs.
@Suite("scenarios that name a storyboard")
struct StoryboardScenarioTests {
    /// A scenario text decoded as if it were a file beside the test storyboards.
    static func decode(_ text: String, registry: BehaviorRegistry = BehaviorRegistry()) throws -> Scenario {
        try ScenarioDecoder.decode(text, file: Storyboards.folder.appendingPathComponent("scenario.json").path, registry: registry)
    }

    /// The window turned a quarter: its size swapped, the device's landscape (or portrait) traits.
    static func rotation(of imported: StoryboardImport) throws -> String {
        let window = try #require(imported.document["window"])
        let size = window["size"]?.numbers ?? []
        let vertical = window["traits"]?["verticalSizeClass"] == .string("compact") ? "regular" : "compact"
        return #"{ "transition": { "size": [\#(CanonicalNumber.format(size[1])), \#(CanonicalNumber.format(size[0]))], "traits": { "verticalSizeClass": "\#(vertical)" } } }"#
    }

    @Test("every test storyboard that is not refused imports to a scenario that decodes and runs a rotation", arguments: ["MasterDetail", "Tabs", "Settings", "Popovers", "Embed"])
    func importsRun(_ name: String) async throws {
        let options = StoryboardImportOptions(root: name == "Settings" ? .named("SettingsRoot") : .initial)
        let imported = try Storyboards.read(name, options)
        // What `trellis import` prints is a scenario `trellis run` accepts as it is.
        let printed = try Self.decode(imported.document.text())
        #expect(printed.controllers.count == imported.document["controllers"]?.keys.count)
        #expect(printed.segues.map(\.id) == imported.segues.map(\.id))
        // And through the "storyboard" field, with a rotation added.
        let root = name == "Settings" ? #", "root": "SettingsRoot""# : ""
        let scenario = try Self.decode(#"{ "storyboard": "\#(name).storyboard"\#(root), "steps": [ \#(try Self.rotation(of: imported)) ] }"#)
        #expect(scenario.controllers.map(\.id.description) == imported.document["controllers"]?.keys)
        let run = try await ScenarioRunner.run(scenario)
        #expect(run.failures.isEmpty)
        #expect(run.canonicalLines.contains { $0.hasPrefix("== step 1: transition") })
        #expect(run.canonicalLines.contains { $0.contains("viewWillTransition(to:") })
    }

    @Test("the scenario's own fields lie over the storyboard's: a controller's field, the window, the root, steps")
    func overlay() throws {
        let scenario = try Self.decode("""
            { "storyboard": "MasterDetail.storyboard",
              "window": { "size": [768, 1024] },
              "controllers": { "DetailViewController": { "preferredContentSize": [300, 200] },
                               "Extra": { "kind": "view" } },
              "steps": [ { "resizeWindow": [1024, 768] } ] }
            """)
        #expect(scenario.windowSize == Size(768, 1024))
        #expect(scenario.root == "splitViewController1")
        #expect(scenario.controller("DetailViewController")?.preferredContentSize == Size(300, 200))
        #expect(scenario.controller("splitViewController1")?.children == ["navigationController1", "navigationController2"])
        #expect(scenario.controller("Extra") != nil)
        #expect(scenario.steps.count == 1)
        #expect(scenario.segues.map(\.id) == ["showDetail", "showPinned"])
        #expect(scenario.notices == ["custom classes without a registered behaviour get the default one: DetailViewController, MasterViewController"])
    }

    @Test("a controller the scenario names that the storyboard nearly has is a notice naming the one most likely meant")
    func misspeltController() throws {
        let scenario = try Self.decode("""
            { "storyboard": "MasterDetail.storyboard",
              "controllers": { "DetailViewControler": { "preferredContentSize": [300, 200] } } }
            """)
        #expect(scenario.controller("DetailViewController")?.preferredContentSize == nil)
        let notice = try #require(scenario.notices.last)
        #expect(notice.hasSuffix("scenario.json:2:43: $.controllers.DetailViewControler: the storyboard has no controller \"DetailViewControler\" "
            + "(did you mean \"DetailViewController\"?): it is added as a new controller, and DetailViewController keeps the storyboard's fields"), "\(notice)")
    }

    @Test("a storyboard of Xcode 11 or later that presents, in a scenario naming no profile, is a notice to name ios13; a profile named, an older file or no presentation: none")
    func profileAdvice() throws {
        let advice = "Popovers.storyboard was saved by Xcode 11 or later (toolsVersion 21701), whose apps present with iOS 13's defaults, "
            + "but a scenario naming no \"profile\" runs the ios8 profile, where a presentation without a style is full screen "
            + "and sheets and popovers adapt to full screen in compact width; add \"profile\": \"ios13\" for page sheets"
        let unnamed = try Self.decode(#"{ "storyboard": "Popovers.storyboard" }"#)
        #expect(unnamed.profile == .ios8)
        #expect(unnamed.notices.filter { $0.contains("profile") }.count == 1)
        #expect(unnamed.notices.contains { $0.hasSuffix("/" + advice) }, "\(unnamed.notices)")
        for profile in ["ios8", "ios13"] {
            let named = try Self.decode(#"{ "storyboard": "Popovers.storyboard", "profile": "\#(profile)" }"#)
            #expect(!named.notices.contains { $0.contains("profile") }, "\(profile)")
        }
        // No segue presents: nothing to tell.
        #expect(try !Self.decode(#"{ "storyboard": "MasterDetail.storyboard" }"#).notices.contains { $0.contains("profile") })
        // Saved by Xcode 10.3 (toolsVersion 14490): iOS 12's SDK, whose defaults the ios8 profile has.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-era-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modern = try String(contentsOfFile: Storyboards.path("Popovers"), encoding: .utf8)
        for (tools, advised) in [("14490.70", false), ("15505", true)] {
            try Data(modern.replacingOccurrences(of: #"toolsVersion="21701""#, with: #"toolsVersion="\#(tools)""#).utf8)
                .write(to: folder.appendingPathComponent("Era.storyboard"))
            let scenario = try ScenarioDecoder.decode(#"{ "storyboard": "Era.storyboard" }"#, file: folder.appendingPathComponent("s.json").path)
            #expect(scenario.notices.contains { $0.contains("(toolsVersion \(tools))") } == advised, "\(tools)")
        }
    }

    @Test("a show or showDetail that nothing handles presents (R55–R57), so it is a presentation the profile notice counts; one a navigation or split controller handles is not")
    func profileAdviceCountsUnhandledShows() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-era-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func advised(_ scenes: String, initial: String = "A") throws -> Bool {
            try Data(Storyboards.document(initial: initial, scenes).utf8).write(to: folder.appendingPathComponent("Shows.storyboard"))
            let scenario = try ScenarioDecoder.decode(#"{ "storyboard": "Shows.storyboard" }"#, file: folder.appendingPathComponent("s.json").path)
            return scenario.notices.contains { $0.contains("\"profile\": \"ios13\"") }
        }
        func segue(_ kind: String, to destination: String, id: String) -> String {
            #"<connections><segue destination="\#(destination)" kind="\#(kind)" id="\#(id)"/></connections>"#
        }
        let root = #"<connections><segue destination="A" kind="relationship" relationship="rootViewController" id="r1"/></connections>"#
        // No navigation controller: the window's root presents B.
        #expect(try advised(Storyboards.scene("viewController", id: "A", segue("show", to: "B", id: "s1")) + Storyboards.scene("viewController", id: "B")))
        // A pushes B, which pushes C: both handled by N, C's through its source B.
        #expect(try !advised(Storyboards.scene("navigationController", id: "N", root)
            + Storyboards.scene("viewController", id: "A", segue("show", to: "B", id: "s1"))
            + Storyboards.scene("viewController", id: "B", segue("show", to: "C", id: "s2")) + Storyboards.scene("viewController", id: "C"), initial: "N"))
        // showDetail outside a split: presented; inside one: the split's.
        #expect(try advised(Storyboards.scene("navigationController", id: "N", root)
            + Storyboards.scene("viewController", id: "A", segue("showDetail", to: "B", id: "s1")) + Storyboards.scene("viewController", id: "B"), initial: "N"))
        #expect(try !advised(Storyboards.scene("splitViewController", id: "S", #"<connections><segue destination="A" kind="relationship" relationship="masterViewController" id="r1"/><segue destination="D" kind="relationship" relationship="detailViewController" id="r2"/></connections>"#)
            + Storyboards.scene("viewController", id: "A", segue("showDetail", to: "B", id: "s1"))
            + Storyboards.scene("viewController", id: "B") + Storyboards.scene("viewController", id: "D"), initial: "S"))
    }

    @Test("a root the storyboard holds in a container is the file's `root` mistake, placed there; a storyboard's field a kind refuses is placed at the controller the file names")
    func mistakesPlacedInTheFile() throws {
        let root = try #require(throws: ScenarioError.self) { try Self.decode(#"{ "storyboard": "MasterDetail.storyboard", "root": "DetailViewController" }"#) }
        #expect(root.path == "$.root")
        #expect(root.line == 1 && root.column == 52, "\(root)")
        #expect(root.message.hasPrefix("\"DetailViewController\" is a child of ") && root.message.hasSuffix(" in the storyboard: the root is a controller no container holds"), "\(root)")
        let kind = try #require(throws: ScenarioError.self) { try Self.decode("""
            { "storyboard": "Embed.storyboard",
              "controllers": { "DashboardViewController": { "kind": "tab" } } }
            """) }
        #expect(kind.path == "$.controllers.DashboardViewController.kind", "\(kind)")
        #expect(kind.line == 2 && kind.column == 57, "\(kind.line):\(kind.column) \(kind)")
        #expect(kind.message == "a tab controller places its children itself, but the storyboard lays this one's out in container views (a \"layout\")")
    }

    @Test("a window in the scenario spares a storyboard without a known device; a root spares one without an initial controller")
    func scenarioSupplies() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-field-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = Storyboards.document(initial: nil, device: #"<device id="appleWatch" orientation="portrait"/>"#, Storyboards.scene("viewController", id: "A"))
        try Data(xml.utf8).write(to: folder.appendingPathComponent("Odd.storyboard"))
        let file = folder.appendingPathComponent("s.json").path
        let text = #"{ "storyboard": "Odd.storyboard", "window": { "size": [300, 400] }, "root": "viewController1" }"#
        let scenario = try ScenarioDecoder.decode(text, file: file)
        #expect(scenario.root == "viewController1")
        // Without them, the storyboard's own refusal, at its place.
        let error = try #require(throws: ScenarioError.self) { try ScenarioDecoder.decode(#"{ "storyboard": "Odd.storyboard", "root": "viewController1" }"#, file: file) }
        #expect(error.file.hasSuffix("Odd.storyboard"))
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("<device>: unknown device id \"appleWatch\""))
    }

    @Test("a customClass the runner registers is the controller's behaviour; a behaviour named by the scenario drops the storyboard's container sizes")
    func behaviours() throws {
        let registry = BehaviorRegistry().viewController("ChartViewController", DefaultBehavior())
        let scenario = try Self.decode(#"{ "storyboard": "Embed.storyboard" }"#, registry: registry)
        #expect(scenario.controller("ChartViewController")?.behavior == "ChartViewController")
        #expect(scenario.controller("DashboardViewController")?.behavior == nil)
        let named = try Self.decode(#"{ "storyboard": "Embed.storyboard", "controllers": { "DashboardViewController": { "behavior": "ChartViewController" } } }"#, registry: registry)
        #expect(named.controller("DashboardViewController")?.behavior == "ChartViewController")
        #expect(named.controller("DashboardViewController")?.overrides.sizeForChild == nil)
        // The plain tool has no behaviours: the scenario naming one is refused as any is.
        #expect(throws: ScenarioError.self) { try Self.decode(#"{ "storyboard": "Embed.storyboard", "controllers": { "DashboardViewController": { "behavior": "Nope" } } }"#) }
    }

    @Test("bad storyboard fields: not a string, a missing file")
    func badField() throws {
        let notString = try #require(throws: ScenarioError.self) { try Self.decode(#"{ "storyboard": 3 }"#) }
        #expect(notString.path == "$.storyboard")
        let missing = try #require(throws: ScenarioError.self) { try Self.decode(#"{ "storyboard": "Nowhere.storyboard" }"#) }
        // At the field, as other field errors are, with the path it looked for.
        #expect(missing.path == "$.storyboard")
        #expect((missing.line, missing.column) == (1, 17))
        #expect(missing.file.hasSuffix("scenario.json"))
        #expect(missing.message == "cannot read the storyboard \(Storyboards.folder.path)/Nowhere.storyboard: no such file")
    }

    @Test("the JSON sent to nodes has the storyboard read into it: a node needs no storyboard file")
    func jsonText() throws {
        let file = Storyboards.folder.appendingPathComponent("scenario.json").path
        let text = try ScenarioDecoder.jsonText(#"{ "storyboard": "Tabs.storyboard", "placement": { "navigationController1": "b" } }"#, file: file)
        #expect(!text.contains("\"storyboard\""))
        let again = try ScenarioDecoder.decode(text, file: "/elsewhere/sent.json")
        #expect(again.root == "tabBarController1")
        #expect(again.placement["navigationController1"] == "b")
        // Other scenarios' text goes as it is.
        let plain = #"{ "window": { "size": [1, 1] }, "root": "R", "controllers": { "R": {} } }"#
        #expect(try ScenarioDecoder.jsonText(plain, file: "p.json") == plain)
    }

    /// The lines of `run`'s step `step` whose message kind (the word before `(`) is in `kinds`.
    static func lines(_ run: ScenarioRun, step: Int, kinds: Set<String>) -> [String] {
        var current = 0
        var found: [String] = []
        for line in run.canonicalLines {
            if line.hasPrefix("== step ") {
                current = Int(line.dropFirst("== step ".count).prefix { $0.isNumber }) ?? -1
                continue
            }
            let words = line.split(separator: " ")
            guard current == step, words.count > 1 else { continue }
            let kind = words[1].prefix { $0 != "(" }
            if kinds.contains(String(kind)) { found.append(line) }
        }
        return found
    }

    @Test("the Master-Detail storyboard performs showDetail from its cells: the secondary replaced in regular width, pushed by the primary in compact width")
    func masterDetailShowDetail() async throws {
        let regular = try await ScenarioRunner.run(try Self.decode(#"{ "storyboard": "MasterDetail.storyboard", "steps": [ { "performSegue": "showDetail" } ] }"#))
        #expect(regular.failures.isEmpty)
        #expect(regular.canonicalLines.contains("== step 1: performSegue showDetail: showDetail navigationController2~1 from MasterViewController"))
        #expect(Self.lines(regular, step: 1, kinds: ["showDetail", "replaceDetail", "show", "push"]) == [
            "MasterViewController showDetail(navigationController2~1)", "splitViewController1 replaceDetail(navigationController2~1)",
        ])
        let compact = try await ScenarioRunner.run(try Self.decode("""
            { "storyboard": "MasterDetail.storyboard",
              "window": { "size": [390, 844], "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular", "userInterfaceIdiom": "phone", "displayScale": 3 } },
              "steps": [ { "performSegue": "showPinned" } ] }
            """))
        #expect(compact.failures.isEmpty)
        // R56 as amended (issue 24 item 7): a collapsed split view forwards showDetail to its
        // primary navigation controller, which pushes; no show line (docs/decisions.md).
        #expect(Self.lines(compact, step: 1, kinds: ["showDetail", "replaceDetail", "show", "push"]) == [
            "MasterViewController showDetail(navigationController2~1)", "navigationController1 push(navigationController2~1)",
        ])
    }

    @Test("the popover storyboard's segues: a popover from the button's rect, one from the bar button's stand-in, a form sheet, unwind")
    func popoverSegues() async throws {
        let scenario = try Self.decode("""
            { "storyboard": "Popovers.storyboard",
              "steps": [ { "performSegue": "showBrushes" }, { "dismiss": "BrushPickerViewController~1" },
                         { "performSegue": "showLayers" }, { "dismiss": "LayersViewController~1" },
                         { "performSegue": "export" }, { "performSegue": "ExportViewController-unwind-exit" } ] }
            """)
        #expect(scenario.controller("BrushPickerViewController~1")?.popoverSource == PopoverSourceSpec(view: "CanvasViewController", rect: Rect(x: 40, y: 120, width: 200, height: 44)))
        #expect(scenario.controller("LayersViewController~1")?.popoverSource
            == PopoverSourceSpec(view: "CanvasViewController", rect: Rect(x: 8, y: 0, width: 44, height: 44), corner: .topRight))
        let run = try await ScenarioRunner.run(scenario)
        #expect(run.failures.isEmpty)
        #expect(Self.lines(run, step: 1, kinds: ["present"]) == ["navigationController1 present(BrushPickerViewController~1, style: popover)"])
        #expect(Self.lines(run, step: 5, kinds: ["present"]) == ["navigationController1 present(ExportViewController~1, style: formSheet)"])
        #expect(Self.lines(run, step: 6, kinds: ["dismiss"]).first == "navigationController1 dismiss(ExportViewController~1)")
    }

    @Test("the tab storyboard's show and push segues push a fresh copy onto the tab's navigation controller")
    func tabSegues() async throws {
        let run = try await ScenarioRunner.run(try Self.decode(#"{ "storyboard": "Tabs.storyboard", "steps": [ { "performSegue": "showBook" }, { "performSegue": "BookList-push-BookViewController" } ] }"#))
        #expect(run.failures.isEmpty)
        #expect(Self.lines(run, step: 1, kinds: ["show", "push"]) == ["BookList show(BookViewController~1)", "navigationController2 push(BookViewController~1)"])
        #expect(Self.lines(run, step: 2, kinds: ["show", "push"]) == ["BookList show(BookViewController~2)", "navigationController2 push(BookViewController~2)"])
    }

    @Test("two tabs holding references to one storyboard: selecting the second tab gives the appearance callbacks to its own copy")
    func referenceUsedTwice() async throws {
        let run = try await ScenarioRunner.run(try Self.decode(#"{ "storyboard": "SharedTabs.storyboard", "steps": [ { "select": { "tab": "tabBarController1", "index": 1 } }, { "performSegue": "AccountViewController2.profile" } ] }"#))
        #expect(run.failures.isEmpty)
        let appeared = Self.lines(run, step: 1, kinds: ["viewDidAppear"])
        #expect(appeared.contains { $0.hasPrefix("navigationController2 ") })
        #expect(appeared.contains { $0.hasPrefix("AccountViewController2 ") })
        #expect(!appeared.contains { $0.hasPrefix("navigationController1 ") || $0.hasPrefix("AccountViewController ") })
        #expect(Self.lines(run, step: 1, kinds: ["viewDidDisappear"]).contains { $0.hasPrefix("navigationController1 ") })
        #expect(Self.lines(run, step: 2, kinds: ["show", "push"]) == ["AccountViewController2 show(Profile~1)", "navigationController2 push(Profile~1)"])
    }
}
