import Foundation
import Testing
import TrellisModel
import TrellisStoryboard

/// SPEC §11's table, row by row, on storyboards in the shape Xcode writes them.
@Suite("storyboards map to scenarios")
struct StoryboardMappingTests {
    @Test("Master-Detail: split children by relationship name (master first though XML lists detail first), showDetail from each cell")
    func masterDetail() throws {
        let imported = try Storyboards.read("MasterDetail")
        let document = imported.document
        #expect(document.keys == ["scenario", "window", "root", "controllers", "segues", "steps"])
        #expect(document["scenario"] == .string("MasterDetail"))
        #expect(document["root"] == .string("splitViewController1"))
        // Ids: customClass, else element name with a number, in XML order.
        #expect(document["controllers"]?.keys == ["DetailViewController", "splitViewController1", "navigationController1", "MasterViewController", "navigationController2"])
        #expect(document.controller("splitViewController1", "kind") == .string("split"))
        #expect(document.controller("splitViewController1", "children")?.strings == ["navigationController1", "navigationController2"])
        #expect(document.controller("navigationController1", "children")?.strings == ["MasterViewController"])
        #expect(document.controller("navigationController2", "children")?.strings == ["DetailViewController"])
        #expect(document.controller("MasterViewController", "kind") == .string("view"))
        #expect(imported.segueLines == [
            "showDetail showDetail MasterViewController -> navigationController2",
            "showPinned showDetail MasterViewController -> navigationController2",
        ])
        // The iPad Pro 12.9" held as the file says, landscape.
        #expect(document["window"]?["size"]?.numbers == [1366, 1024])
        #expect(document["window"]?["traits"]?["horizontalSizeClass"] == .string("regular"))
        #expect(document["window"]?["traits"]?["userInterfaceIdiom"] == .string("pad"))
        #expect(document["steps"] == .array([]))
        #expect(imported.notices == ["custom classes without a registered behaviour get the default one: DetailViewController, MasterViewController"])
    }

    @Test("a tab bar of navigation controllers: tabs in the relationships' XML order, show and push segues, a reference to a second storyboard")
    func tabsAndReference() throws {
        let imported = try Storyboards.read("Tabs")
        let document = imported.document
        #expect(document["root"] == .string("tabBarController1"))
        #expect(document.controller("tabBarController1", "kind") == .string("tab"))
        #expect(document.controller("tabBarController1", "children")?.strings == ["navigationController2", "navigationController1"])
        #expect(document.controller("tabBarController1", "selected") == .number(0))
        // storyboardIdentifier names first; the referenced storyboard's controllers follow, and
        // its "About" is taken already.
        #expect(document["controllers"]?.keys == ["navigationController1", "tabBarController1", "navigationController2", "BookList",
                                                  "BookViewController", "About", "SettingsRoot", "About2"])
        #expect(document.controller("navigationController1", "children")?.strings == ["SettingsRoot"])
        #expect(imported.segueLines == [
            "showBook show BookList -> BookViewController",
            "BookList-push-BookViewController push BookList -> BookViewController",
            "showAbout show SettingsRoot -> About2",
        ])
        #expect(document["window"]?["size"]?.numbers == [393, 852])
        #expect(document["window"]?["traits"]?["displayScale"] == .number(3))
    }

    @Test("two tabs holding references to one storyboard: each holds its own copy of the referenced controller and what it holds, with its segues")
    func referenceUsedTwice() throws {
        let imported = try Storyboards.read("SharedTabs")
        let document = imported.document
        // The file's controllers first, then the copy the second tab's reference makes, named as
        // one more controller of its kind.
        #expect(document["controllers"]?.keys == ["tabBarController1", "Home", "navigationController1", "AccountViewController", "Profile",
                                                  "navigationController2", "AccountViewController2"])
        #expect(document.controller("tabBarController1", "children")?.strings == ["navigationController1", "navigationController2", "Home"])
        #expect(document.controller("navigationController1", "kind") == .string("navigation"))
        #expect(document.controller("navigationController2", "kind") == .string("navigation"))
        #expect(document.controller("navigationController1", "children")?.strings == ["AccountViewController"])
        #expect(document.controller("navigationController2", "children")?.strings == ["AccountViewController2"])
        #expect(document.controller("AccountViewController2", "kind") == .string("view"))
        // The copy's segue is its original's: the identifier, now shared, is qualified by source.
        #expect(imported.segueLines == [
            "AccountViewController.profile show AccountViewController -> Profile",
            "AccountViewController2.profile show AccountViewController2 -> Profile",
        ])
        #expect(imported.notices.contains { $0.hasPrefix("tabBarController1 holds its own instance of the storyboard reference Ref-sH-p02 (") && $0.hasSuffix("copied navigationController1 as navigationController2, AccountViewController as AccountViewController2") })
        // Stable: read again, the same document.
        #expect(try Storyboards.read("SharedTabs").document == document)
    }

    @Test("popovers: a view's frame in the root view's coordinates, a bar button item's stand-in rect; a form sheet styled on the segue; unwind")
    func popoversAndModal() throws {
        let imported = try Storyboards.read("Popovers")
        let segues = Dictionary(uniqueKeysWithValues: imported.segues.map { ($0.id, $0) })
        let brushes = try #require(segues["showBrushes"])
        #expect(brushes.kind == "popoverPresentation")
        #expect(brushes.from == "CanvasViewController")
        #expect(brushes.destination == "BrushPickerViewController")
        // The button at (0, 0) in a stack view at (40, 120).
        #expect(brushes.anchor?.view == "CanvasViewController")
        #expect(brushes.anchor?.rect == Rect(x: 40, y: 120, width: 200, height: 44))
        let layers = try #require(segues["showLayers"])
        // 8 points in from the view's top right corner: at 834 - 52 on the preview device, and at
        // the right end of whatever width the view has at run time.
        #expect(layers.anchor == MappedSegue.Anchor(view: "CanvasViewController", rect: Rect(x: 8, y: 0, width: 44, height: 44), corner: .topRight))
        #expect(layers.anchor.map { $0.corner.rect($0.rect, inViewOf: Size(834, 1112)) } == Rect(x: 834 - 52, y: 0, width: 44, height: 44))
        #expect(imported.notices.contains {
            $0.contains("anchors on <barButtonItem> Lyr-pO-b03") && $0.contains("[8, 0, 44, 44] in CanvasViewController's view measured from its top right corner")
        })
        let export = try #require(segues["export"])
        #expect(export.kind == "presentation")
        #expect(export.style == "formSheet")
        #expect(export.transitionStyle == "crossDissolve")
        #expect(export.anchor == nil)
        let unwind = try #require(segues["ExportViewController-unwind-exit"])
        #expect(unwind.kind == "unwind")
        #expect(unwind.destination == nil)
        #expect(imported.notices.contains { $0.contains("unwind segue from ExportViewController (unwindToCanvas:)") })
        // The JSON of the map, as agreed with the segues decoder.
        #expect(imported.document["segues"]?["showBrushes"] == .object([
            .init("kind", .string("popoverPresentation")), .init("from", .string("CanvasViewController")),
            .init("destination", .string("BrushPickerViewController")),
            .init("anchor", .object([.init("view", .string("CanvasViewController")), .init("rect", .array([40, 120, 200, 44].map(ScenarioJSON.number)))])),
        ]))
        #expect(imported.document["segues"]?["ExportViewController-unwind-exit"]?.keys == ["kind", "from"])
        // Controller attributes and the popover's explicit size.
        let document = imported.document
        #expect(document.controller("ExportViewController", "modalPresentationStyle") == .string("pageSheet"))
        #expect(document.controller("ExportViewController", "definesPresentationContext") == .bool(true))
        #expect(document.controller("BrushPickerViewController", "preferredContentSize")?.numbers == [320, 400])
    }

    @Test("container views: children placed at their frames in the root view's coordinates and sized to them, with a notice")
    func embed() throws {
        let imported = try Storyboards.read("Embed")
        let document = imported.document
        #expect(document.controller("DashboardViewController", "children")?.strings == ["ChartViewController", "tableViewController1"])
        #expect(document.controller("DashboardViewController", "layout") == .object([.init("origins", .object([
            .init("ChartViewController", .array([.number(0), .number(48)])),
            .init("tableViewController1", .array([.number(24), .number(404)])),
        ]))]))
        #expect(document.controller("DashboardViewController", "overrides")?["sizeForChild"]?["perChild"]?["tableViewController1"]?.numbers == [366, 432])
        #expect(imported.notices.contains("container views of DashboardViewController are placed and sized as on retina6_1 portrait in Interface Builder; Auto Layout may place them differently"))
        // Embed segues are containment, not segues to perform; a custom segue keeps its class.
        #expect(imported.segueLines == ["showFilter custom DashboardViewController -> viewController1"])
        #expect(imported.segues.first?.customClass == "FadeSegue")
    }

    @Test("a customClass the runner registers becomes the controller's behaviour; the others are listed once")
    func registeredBehaviour() throws {
        let imported = try Storyboards.read("Embed", StoryboardImportOptions(behaviors: ["DashboardViewController"]))
        let document = imported.document
        #expect(document.controller("DashboardViewController", "behavior") == .string("DashboardViewController"))
        // Its behaviour sizes its children: only their places are written.
        #expect(document.controller("DashboardViewController", "overrides") == nil)
        #expect(document.controller("DashboardViewController", "layout") != nil)
        #expect(document.controller("ChartViewController", "behavior") == nil)
        #expect(imported.notices.filter { $0.hasPrefix("custom classes") } == ["custom classes without a registered behaviour get the default one: ChartViewController"])
    }

    @Test("a three-column split is refused naming the element")
    func threeColumns() throws {
        let error = try #require(throws: StoryboardError.self) { try Storyboards.read("ThreeColumn") }
        #expect(error.element == "splitViewController")
        #expect(error.line == 12)
        #expect(error.message.contains("three-column"))
        #expect(error.description.hasSuffix("ThreeColumn.storyboard:12:17: <splitViewController>: a three-column split (supplementaryViewController) is not simulated yet: refused"))
    }

    @Test("ids: duplicates get a suffix, characters an id may not hold become _, reserved names are not used")
    func ids() throws {
        let xml = Storyboards.document(initial: "A", [
            Storyboards.scene("viewController", id: "A", attributes: #" storyboardIdentifier="Home Screen""#),
            Storyboards.scene("viewController", id: "B", attributes: #" storyboardIdentifier="window""#),
            Storyboards.scene("viewController", id: "C", attributes: #" customClass="Home_Screen""#),
            Storyboards.scene("viewController", id: "D"),
            Storyboards.scene("pageViewController", id: "E"),
            Storyboards.scene("viewController", id: "F"),
        ].joined(separator: "\n"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Ids.storyboard").path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let document = try StoryboardImport.read(path: path).document
        #expect(document["controllers"]?.keys == ["Home_Screen", "window2", "Home_Screen2", "viewController1", "pageViewController1", "viewController2"])
        #expect(document.controller("pageViewController1", "kind") == .string("view"))
    }

    @Test("iOS 14's compact column is not simulated (a notice, the controller left unattached); any other controller element is a view")
    func compactColumnAndOtherControllers() throws {
        let xml = Storyboards.document(initial: "S", [
            Storyboards.scene("splitViewController", id: "S", attributes: #" style="doubleColumn""#, """
                <connections>
                    <segue destination="P" kind="relationship" relationship="masterViewController" id="r1"/>
                    <segue destination="D" kind="relationship" relationship="detailViewController" id="r2"/>
                    <segue destination="C" kind="relationship" relationship="compactViewController" id="r3"/>
                </connections>
                """),
            Storyboards.scene("viewController", id: "P"),
            Storyboards.scene("hostingController", id: "D"),
            Storyboards.scene("navigationController", id: "C"),
        ].joined(separator: "\n"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-compact-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Split.storyboard").path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let imported = try StoryboardImport.read(path: path)
        #expect(imported.document.controller("splitViewController1", "children")?.strings == ["viewController1", "hostingController1"])
        #expect(imported.document.controller("hostingController1", "kind") == .string("view"))
        #expect(imported.notices.contains { $0.hasPrefix("relationship \"compactViewController\" of splitViewController1") && $0.hasSuffix("is not simulated: ignored") })
    }

    @Test("a popover from a bar button item of the scene's own toolbar or navigation bar points from that bar, not from the top of the view")
    func popoverFromBarViewInScene() throws {
        // The shape of old iPad scenes (Apple's CIFunHouse, DuckDuckGo's BlankSnapshot): a
        // <toolbar> laid out at the bottom of the root view, its <items> bar button items; and a
        // <navigationBar> placed in the view by hand. Ids and names are this test's own.
        let xml = Storyboards.document(device: #"<device id="ipad9_7" orientation="portrait"/>"#, [
            Storyboards.scene("viewController", id: "A", attributes: #" customClass="Canvas""#, """
                <view key="view" contentMode="scaleToFill" id="A-v">
                    <rect key="frame" x="0.0" y="0.0" width="768" height="1024"/>
                    <subviews>
                        <navigationBar contentMode="scaleToFill" id="A-nb">
                            <rect key="frame" x="0.0" y="20" width="768" height="44"/>
                            <items>
                                <navigationItem title="Canvas" id="A-ni">
                                    <barButtonItem key="rightBarButtonItem" title="Share" id="A-share"/>
                                </navigationItem>
                            </items>
                        </navigationBar>
                        <toolbar contentMode="scaleToFill" id="A-tb">
                            <rect key="frame" x="0.0" y="980" width="768" height="44"/>
                            <items>
                                <barButtonItem title="Brushes" id="A-brushes">
                                    <connections>
                                        <segue destination="B" kind="popoverPresentation" identifier="brushes" popoverAnchorBarButtonItem="A-brushes" id="s1"/>
                                    </connections>
                                </barButtonItem>
                            </items>
                        </toolbar>
                    </subviews>
                </view>
                <connections>
                    <segue destination="B" kind="popoverPresentation" identifier="share" popoverAnchorBarButtonItem="A-share" id="s2"/>
                </connections>
                """),
            Storyboards.scene("viewController", id: "B", attributes: #" customClass="Picker""#),
        ].joined(separator: "\n"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-barview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Canvas.storyboard").path
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let segues = try StoryboardImport.read(path: path).document["segues"]
        // The toolbar's first item: 8 points in from the toolbar's left end, at the toolbar's y
        // (980 in the 1024-point view), measured from the bottom left corner, which the bar keeps.
        #expect(segues?["brushes"]?["anchor"]?["rect"]?.numbers == [8, 0, 44, 44])
        #expect(segues?["brushes"]?["anchor"]?["corner"] == .string("bottomLeft"))
        // A right item of the placed navigation bar: at the bar's right end (716 in the 768-point
        // view) and the bar's y, measured from the top right corner.
        #expect(segues?["share"]?["anchor"]?["rect"]?.numbers == [8, 20, 44, 44])
        #expect(segues?["share"]?["anchor"]?["corner"] == .string("topRight"))
    }

    /// A scene's objects with several controllers, each with one presentation segue to the next,
    /// and the scene's first-responder placeholder.
    static func sharedScene(_ count: Int) -> String {
        let controllers = (0..<count).map { index in
            let segue = index + 1 < count
                ? #"<connections><segue destination="C\#(index + 1)" kind="presentation" identifier="next\#(index)" id="s\#(index)"/></connections>"#
                : ""
            return #"<viewController id="C\#(index)" sceneMemberID="viewController">\#(segue)</viewController>"#
        }
        return #"<scene sceneID="sc"><objects>"# + controllers.joined(separator: "\n")
            + #"<placeholder placeholderIdentifier="IBFirstResponder" id="fr" sceneMemberID="firstResponder"/></objects></scene>"#
    }

    @Test("several controllers in one scene: each segue is the controller's whose connections hold it, none is invented")
    func severalControllersInAScene() throws {
        let imported = try StoryboardImport.read(bytes: Array(Storyboards.document(initial: "C0", Self.sharedScene(4)).utf8), file: "Shared.storyboard")
        #expect(imported.segueLines == [
            "next0 presentation viewController1 -> viewController2",
            "next1 presentation viewController2 -> viewController3",
            "next2 presentation viewController3 -> viewController4",
        ])
        // Linear, not one copy of every segue per controller of the scene (3000 controllers made
        // 2.9 GB of output).
        let large = try StoryboardImport.read(bytes: Array(Storyboards.document(initial: "C0", Self.sharedScene(1000)).utf8), file: "Shared.storyboard")
        #expect(large.segues.count == 999)
        #expect(large.segues.allSatisfy { $0.from != $0.destination })
    }

    @Test("a segue on a scene's gesture recognizer is its controller's; in a scene of several controllers it is refused where it is written")
    func segueOutsideTheController() throws {
        let recognizer = #"<tapGestureRecognizer id="tap"><connections><segue destination="B" kind="show" identifier="tapped" id="s9"/></connections></tapGestureRecognizer>"#
        let alone = Storyboards.scene("viewController", id: "A").replacingOccurrences(of: "</objects>", with: recognizer + "</objects>")
        let xml = Storyboards.document([alone, Storyboards.scene("viewController", id: "B")].joined(separator: "\n"))
        #expect(try StoryboardImport.read(bytes: Array(xml.utf8), file: "Tap.storyboard").segueLines == ["tapped show viewController1 -> viewController2"])
        let shared = Storyboards.document(initial: "C0", Self.sharedScene(2).replacingOccurrences(of: "</objects>", with: "\n" + recognizer + "</objects>"))
            .replacingOccurrences(of: #"destination="B""#, with: #"destination="C1""#)
        let error = try #require(throws: StoryboardError.self) { try StoryboardImport.read(bytes: Array(shared.utf8), file: "Tap.storyboard") }
        let lines = shared.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("<tapGestureRecognizer") })
        #expect(error.line == line + 1)
        #expect(error.column == 45)
        #expect(error.element == "segue")
        #expect(error.message.hasPrefix("a segue outside every controller of a scene holding 2 controllers"))
    }
}
