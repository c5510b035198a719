import Foundation
import Testing
import TrellisStoryboard

/// SPEC §11 "Bad input": refused with FILE:LINE:COLUMN, the element and what is wrong; no
/// crash, no hang, bounded memory.
@Suite("bad storyboards are refused with their place")
struct StoryboardBadInputTests {
    static let viewScene = Storyboards.scene("viewController", id: "A")

    @Test("not XML, and XML that is no storyboard")
    func notAStoryboard() throws {
        let text = try #require(try Storyboards.refusal("this is { not xml"))
        #expect(text.line == 1)
        #expect(text.message.hasPrefix("not well-formed XML"))
        let other = try #require(try Storyboards.refusal("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>"))
        #expect(other.description == "Bad.storyboard:2:1: <plist>: not a storyboard: the document element is <plist>, not Interface Builder's <document>")
        let xib = try #require(try Storyboards.refusal(#"<document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0"/>"#))
        #expect(xib.element == "document")
        #expect(xib.message.contains("not an iOS storyboard"))
        let empty = try #require(try Storyboards.refusal(""))
        #expect(empty.message.hasPrefix("not"))
    }

    @Test("a truncated file")
    func truncated() throws {
        let whole = Storyboards.document(Self.viewScene)
        let cut = String(whole.prefix(whole.count / 2))
        let error = try #require(try Storyboards.refusal(cut))
        #expect(error.line > 1)
        #expect(error.message.hasPrefix("not well-formed XML: the file ends inside <"))
        #expect(error.message.hasSuffix(" (truncated?)"))
    }

    /// A one-scene storyboard whose controller's line is `controller` (at line 5, column 1).
    static func malformed(_ controller: String, after: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" initialViewController="A">
        <scenes>
        <scene sceneID="s1"><objects>
        \(controller)
        </objects></scene>
        </scenes>
        </document>
        \(after)
        """
    }

    @Test("XML syntax errors are placed where they are and said in words", arguments: [
        // The first fault libxml2 reports, not the last of those its recovery goes on to find.
        (malformed(#"<viewController id="A" sceneMemberID="viewController">"#), 6, 1, "</objects> closes <viewController> opened at 5:1"),
        (malformed(#"<viewController id="A" id="B" sceneMemberID="viewController"/>"#), 5, 24, "attribute id appears twice in <viewController>"),
        (malformed(#"<viewController id="A" customClass="Notes&Lists" sceneMemberID="viewController"/>"#), 5, 42, "a bare & must be written &amp;"),
        (malformed(#"<viewController id="A" title="a & b" sceneMemberID="viewController"/>"#), 5, 33, "a bare & must be written &amp;"),
        (malformed(#"<viewController id="A" title="a&nbsp;b" sceneMemberID="viewController"/>"#), 5, 32,
         "&nbsp; is no XML entity (XML has &amp; &lt; &gt; &quot; &apos;): a bare & must be written &amp;"),
        (malformed(#"<viewController id="A" sceneMemberID="viewController"/>"#, after: "<extra/>"), 9, 1, "content after the document's end"),
    ])
    func syntaxErrors(_ xml: String, _ line: Int, _ column: Int, _ reason: String) throws {
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.description == "Bad.storyboard:\(line):\(column): not well-formed XML: \(reason)")
    }

    @Test("a controller element without sceneMemberID is refused at its own place, saying what it lacks")
    func withoutSceneMember() throws {
        let xml = Storyboards.document(initial: "T", """
                    <scene sceneID="s1">
                        <objects>
                            <tabBarController id="T"/>
                        </objects>
                    </scene>
            """)
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.line == 7)
        #expect(error.column == 17)
        #expect(error.element == "tabBarController")
        #expect(error.message == #""T" has no sceneMemberID="viewController" (Xcode writes it on every scene's controller), so it is not read as a controller; <document> at 2:1 names it"#)
    }

    @Test("a Boolean attribute other than YES or NO is refused at its controller, not read as NO")
    func booleanAttributes() throws {
        let xml = Storyboards.document(Storyboards.scene("viewController", id: "A", attributes: #" definesPresentationContext="maybe""#))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.element == "viewController")
        #expect(error.message == #"definesPresentationContext="maybe" must be YES or NO"#)
        for value in ["YES", "NO"] {
            #expect(try Storyboards.refusal(Storyboards.document(Storyboards.scene(
                "viewController", id: "A", attributes: #" definesPresentationContext="\#(value)" providesPresentationContextTransitionStyle="\#(value)""#))) == nil)
        }
    }

    @Test("a segue's destination that names nothing in the file, at the segue's line and column")
    func danglingDestination() throws {
        let xml = Storyboards.document(Storyboards.scene("navigationController", id: "A", """
                                <connections>
                                    <segue destination="Gone-00-000" kind="relationship" relationship="rootViewController" id="s1"/>
                                </connections>
            """))
        let error = try #require(try Storyboards.refusal(xml))
        let lines = xml.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains("Gone-00-000") })
        let column = try #require(lines[index].firstRange(of: "<segue")).lowerBound
        #expect(error.line == index + 1)
        #expect(error.column == lines[index].distance(from: lines[index].startIndex, to: column) + 1)
        #expect(error.element == "segue")
        #expect(error.message.hasPrefix("destination \"Gone-00-000\" is no element of "))
        #expect(error.message.hasSuffix("Bad.storyboard (a dangling id)"))
    }

    @Test("a split with a detail but no master is a notice (the detail is its primary column, as UIKit's first view controller is); a relationship a container has once given twice is refused at the segue")
    func columnsByName() throws {
        let detailOnly = Storyboards.document(initial: "S", [
            Storyboards.scene("splitViewController", id: "S", #"<connections><segue destination="D" kind="relationship" relationship="detailViewController" id="s1"/></connections>"#),
            Storyboards.scene("viewController", id: "D"),
        ].joined(separator: "\n"))
        let (imported, path) = try Storyboards.imported(detailOnly, name: "Split.storyboard")
        #expect(imported.notices.contains("split view controller splitViewController1 has a detailViewController (\(path):8) but no masterViewController: "
            + "its only child, viewController1, is its primary column, as the first of UISplitViewController's viewControllers always is"), "\(imported.notices)")
        let twoRoots = Storyboards.document(initial: "N", [
            Storyboards.scene("navigationController", id: "N", #"<connections><segue destination="A" kind="relationship" relationship="rootViewController" id="s1"/><segue destination="B" kind="relationship" relationship="rootViewController" id="s2"/></connections>"#),
            Storyboards.scene("viewController", id: "A"), Storyboards.scene("viewController", id: "B"),
        ].joined(separator: "\n"))
        let second = try #require(try Storyboards.refusal(twoRoots))
        #expect(second.message == "a second rootViewController relationship of navigationController1: a navigation controller has one")
        // Master and detail: read.
        let both = Storyboards.document(initial: "S", [
            Storyboards.scene("splitViewController", id: "S", #"<connections><segue destination="M" kind="relationship" relationship="masterViewController" id="s1"/><segue destination="D" kind="relationship" relationship="detailViewController" id="s2"/></connections>"#),
            Storyboards.scene("viewController", id: "M"), Storyboards.scene("viewController", id: "D"),
        ].joined(separator: "\n"))
        #expect(try Storyboards.refusal(both) == nil)
    }

    @Test("a segue without a kind, an initial controller that is an exit, and a container view holding its own controller are each named as what they are")
    func namedAsWhatTheyAre() throws {
        let noKind = Storyboards.document([
            Storyboards.scene("viewController", id: "A", #"<connections><segue destination="B" id="s1"/></connections>"#),
            Storyboards.scene("viewController", id: "B"),
        ].joined(separator: "\n"))
        #expect(try Storyboards.refusal(noKind)?.message == "a segue without a kind attribute (show, presentation, popoverPresentation, …)")
        let exit = Storyboards.document(initial: "X", Storyboards.scene("viewController", id: "A") + #"<scene sceneID="x"><objects><exit id="X" userLabel="Exit" sceneMemberID="exit"/></objects></scene>"#)
        #expect(try Storyboards.refusal(exit)?.message == "initialViewController \"X\" is a scene's exit, not a controller")
        let selfEmbed = Storyboards.document(Storyboards.scene("viewController", id: "A", #"""
            <view key="view" id="v"><rect key="frame" x="0" y="0" width="375" height="667"/><subviews>
            <containerView id="c"><rect key="frame" x="0" y="0" width="10" height="10"/><connections><segue destination="A" kind="embed" id="e"/></connections></containerView>
            </subviews></view>
            """#))
        #expect(try Storyboards.refusal(selfEmbed)?.message == "embed cycle: viewController1 → viewController1")
    }

    @Test("a relationship cycle through references between two files names each controller with its file")
    func cycleAcrossFiles() throws {
        try Storyboards.inFolder { folder in try cycleAcrossFiles(in: folder) }
    }

    private func cycleAcrossFiles(in folder: URL) throws {
        func file(_ name: String, container: String, relationship: String, other: String) throws {
            let xml = Storyboards.document(initial: "C", [
                Storyboards.scene(container, id: "C", #"<connections><segue destination="ref" kind="relationship" relationship="\#(relationship)" id="r"/></connections>"#),
                #"<scene sceneID="s-ref"><objects><viewControllerPlaceholder storyboardName="\#(other)" id="ref" sceneMemberID="viewController"/></objects></scene>"#,
            ].joined(separator: "\n"))
            try Data(xml.utf8).write(to: folder.appendingPathComponent(name + ".storyboard"))
        }
        try file("A", container: "tabBarController", relationship: "viewControllers", other: "B")
        try file("B", container: "navigationController", relationship: "rootViewController", other: "A")
        let error = try #require(throws: StoryboardError.self) { try StoryboardImport.read(path: folder.appendingPathComponent("A.storyboard").path, options: StoryboardImportOptions()) }
        #expect(error.message.hasPrefix("relationship cycle through storyboard references: "), "\(error.message)")
        #expect(error.message.contains("tabBarController1 (\(folder.path)/A.storyboard)") && error.message.contains("navigationController1 (\(folder.path)/B.storyboard)"), "\(error.message)")
    }

    @Test("many notices of one kind are listed up to a bound and counted past it: 30 controllers with container views, 11 lines")
    func noticesOfAKindAreCounted() throws {
        let scenes = (0..<30).map { index in
            Storyboards.scene("viewController", id: "V\(index)", #"""
                <view key="view" id="v\#(index)"><rect key="frame" x="0" y="0" width="375" height="667"/><subviews>
                <containerView id="c\#(index)"><rect key="frame" x="0" y="0" width="10" height="10"/><connections><segue destination="\#(index < 29 ? "V\(index + 1)" : "E")" kind="embed" id="e\#(index)"/></connections></containerView>
                </subviews></view>
                """#)
        } + [Storyboards.scene("viewController", id: "E")]
        let notices = try Storyboards.imported(Storyboards.document(initial: "V0", scenes.joined(separator: "\n")), name: "Many.storyboard").imported.notices
        let placed = notices.filter { $0.hasPrefix("container views of ") }
        #expect(placed.count == StoryboardNotices.listedPerKind)
        #expect(notices.last == "… and 20 more controllers whose container views are placed as in Interface Builder", "\(notices)")
    }

    @Test("a relationship cycle names the controllers round it")
    func cycle() throws {
        let xml = Storyboards.document([
            Storyboards.scene("navigationController", id: "A", #"<connections><segue destination="B" kind="relationship" relationship="rootViewController" id="s1"/></connections>"#),
            Storyboards.scene("tabBarController", id: "B", #"<connections><segue destination="A" kind="relationship" relationship="viewControllers" id="s2"/></connections>"#),
        ].joined(separator: "\n"))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.element == "segue")
        #expect(error.message.hasPrefix("relationship cycle: "))
        #expect(error.message.contains("navigationController1") && error.message.contains("tabBarController1"))
    }

    @Test("a controller held by two containers")
    func twoParents() throws {
        let xml = Storyboards.document([
            Storyboards.scene("navigationController", id: "A", #"<connections><segue destination="C" kind="relationship" relationship="rootViewController" id="s1"/></connections>"#),
            Storyboards.scene("navigationController", id: "B", #"<connections><segue destination="C" kind="relationship" relationship="rootViewController" id="s2"/></connections>"#),
            Storyboards.scene("viewController", id: "C"),
        ].joined(separator: "\n"))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.message == "viewController1 is already the child of navigationController1: a controller has one container")
    }

    @Test("a controller held by two containers through references is copied; held by one directly and one through a reference, the direct one keeps it")
    func twoParentsThroughReferences() throws {
        let xml = Storyboards.document([
            Storyboards.scene("navigationController", id: "A", #"<connections><segue destination="C" kind="relationship" relationship="rootViewController" id="s1"/></connections>"#),
            Storyboards.scene("navigationController", id: "B", #"<connections><segue destination="R" kind="relationship" relationship="rootViewController" id="s2"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "R", attributes: #" referencedIdentifier="Shared""#),
            Storyboards.scene("viewController", id: "C", attributes: #" storyboardIdentifier="Shared""#),
        ].joined(separator: "\n"))
        #expect(try Storyboards.refusal(xml, options: StoryboardImportOptions(root: .named("navigationController1"))) == nil)
    }

    @Test("references used twice at every level copy without bound: refused past the bound, at the reference's segue")
    func referenceCopiesBounded() throws {
        let levels = 16
        let scenes = (0..<levels).map { level in
            Storyboards.scene("tabBarController", id: "T\(level)", attributes: #" storyboardIdentifier="L\#(level)""#, level == levels - 1 ? "" : #"""
                <connections>
                    <segue destination="R\#(level)a" kind="relationship" relationship="viewControllers" id="s\#(level)a"/>
                    <segue destination="R\#(level)b" kind="relationship" relationship="viewControllers" id="s\#(level)b"/>
                </connections>
                """#)
                + (level == levels - 1 ? "" : "\n" + Storyboards.scene("viewControllerPlaceholder", id: "R\(level)a", attributes: #" referencedIdentifier="L\#(level + 1)""#)
                    + "\n" + Storyboards.scene("viewControllerPlaceholder", id: "R\(level)b", attributes: #" referencedIdentifier="L\#(level + 1)""#))
        }
        let error = try #require(try Storyboards.refusal(Storyboards.document(initial: "T0", scenes.joined(separator: "\n"))))
        #expect(error.element == "segue")
        #expect(error.message.hasPrefix("the storyboard reference R"))
        #expect(error.message.contains("would copy more than 10000 controllers in all"))
    }

    @Test("a cycle through a reference's further use is refused naming the reference")
    func cycleThroughReference() throws {
        let xml = Storyboards.document(initial: "T", [
            Storyboards.scene("tabBarController", id: "T", #"<connections><segue destination="R1" kind="relationship" relationship="viewControllers" id="s1"/><segue destination="U" kind="relationship" relationship="viewControllers" id="s2"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "R1", attributes: #" referencedIdentifier="Nav""#),
            Storyboards.scene("navigationController", id: "U", attributes: #" storyboardIdentifier="Mid""#, #"<connections><segue destination="R2" kind="relationship" relationship="rootViewController" id="s3"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "R2", attributes: #" referencedIdentifier="Nav""#),
            Storyboards.scene("navigationController", id: "N", attributes: #" storyboardIdentifier="Nav""#, #"<connections><segue destination="R3" kind="relationship" relationship="rootViewController" id="s4"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "R3", attributes: #" referencedIdentifier="Up""#),
            Storyboards.scene("navigationController", id: "V", attributes: #" storyboardIdentifier="Up""#, #"<connections><segue destination="R4" kind="relationship" relationship="rootViewController" id="s5"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "R4", attributes: #" referencedIdentifier="Mid""#),
        ].joined(separator: "\n"))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.element == "segue")
        #expect(error.message.hasPrefix("relationship cycle"))
        #expect(error.message.hasPrefix("relationship cycle through the storyboard reference R2 ("))
        #expect(error.message.hasSuffix("Bad.storyboard:\(try Self.line(of: "R2", in: xml))): Mid → Nav → Up → Mid"))
    }

    /// The line of the scene element with id `id` in `xml`, from 1.
    static func line(of id: String, in xml: String) throws -> Int {
        try #require(xml.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(#"id="\#(id)""#) }) + 1
    }

    @Test("a reference to a storyboard that is not in the folder, at the placeholder")
    func missingReference() throws {
        let xml = Storyboards.document([
            Storyboards.scene("tabBarController", id: "A", #"<connections><segue destination="P" kind="relationship" relationship="viewControllers" id="s1"/></connections>"#),
            Storyboards.scene("viewControllerPlaceholder", id: "P", attributes: #" storyboardName="Missing""#),
        ].joined(separator: "\n"))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.element == "viewControllerPlaceholder")
        // Real-world check (Kiwix's iPad.storyboard without its Library.storyboard): the message
        // says what cannot be done before naming the file and the reason.
        #expect(error.message.hasPrefix("cannot read the storyboard it references, "))
        #expect(error.message.contains("Missing.storyboard: "))
        #expect(error.message.hasSuffix("no such file"))
    }

    @Test("an unknown device id names itself and asks for --window; no device at all asks for --device or --window")
    func unknownDevice() throws {
        let xml = Storyboards.document(device: #"<device id="watch44" orientation="portrait"/>"#, Self.viewScene)
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.element == "device")
        #expect(error.line == 3)
        #expect(error.message.hasPrefix("unknown device id \"watch44\": give --window WxH, or --device with a known id (known ids: retina3_5, "))
        // A scenario's "storyboard" field is told to add its own window: run has no --window.
        var scenario = StoryboardImportOptions()
        scenario.windowAdvice = .scenarioField
        let fromScenario = try #require(try Storyboards.refusal(xml, options: scenario))
        #expect(fromScenario.message.hasPrefix("unknown device id \"watch44\": add \"window\" to the scenario (\"window\": {\"size\": [W, H]}) (known ids: retina3_5, "))
        let noneFromScenario = try #require(try Storyboards.refusal(Storyboards.document(device: "", Self.viewScene), options: scenario))
        #expect(noneFromScenario.message == "the storyboard names no <device> (Xcode writes one since Xcode 8): add \"window\" to the scenario (\"window\": {\"size\": [W, H]})")
        let option = try #require(try Storyboards.refusal(Storyboards.document(Self.viewScene), options: StoryboardImportOptions(window: .device("tv4k"))))
        #expect(option.message.hasPrefix("unknown device id \"tv4k\""))
        let none = try #require(try Storyboards.refusal(Storyboards.document(device: "", Self.viewScene)))
        #expect(none.message == "the storyboard names no <device> (Xcode writes one since Xcode 8): give --device ID or --window WxH")
        // An old iPad-only storyboard (the shape of Apple's pre-Xcode 8 *_iPad samples) is told
        // which kind of device to give.
        let iPadXML = Storyboards.document(device: "", Self.viewScene).replacingOccurrences(of: #"targetRuntime="iOS.CocoaTouch""#, with: #"targetRuntime="iOS.CocoaTouch.iPad""#)
        let iPad = try #require(try Storyboards.refusal(iPadXML))
        #expect(iPad.message.hasSuffix("give --device ID or --window WxH (its targetRuntime is iOS.CocoaTouch.iPad: an iPad, such as --device ipad9_7)"))
        #expect(try Storyboards.refusal(iPadXML, options: StoryboardImportOptions(window: .device("ipad9_7"))) == nil)
        // With --window the file's device does not matter.
        #expect(try Storyboards.refusal(xml, options: StoryboardImportOptions(window: .size(.init(500, 700)))) == nil)
    }

    @Test("no initial view controller: the candidates are listed; --root picks one")
    func noInitial() throws {
        let xml = Storyboards.document(initial: nil, [
            Storyboards.scene("navigationController", id: "A", #"<connections><segue destination="C" kind="relationship" relationship="rootViewController" id="s1"/></connections>"#),
            Storyboards.scene("viewController", id: "B", attributes: #" storyboardIdentifier="Login""#),
            Storyboards.scene("viewController", id: "C"),
        ].joined(separator: "\n"))
        let error = try #require(try Storyboards.refusal(xml))
        #expect(error.message == "no initialViewController (instantiated from code?): give --root ID, one of: navigationController1, Login")
        #expect(try Storyboards.refusal(xml, options: StoryboardImportOptions(root: .named("Login"))) == nil)
        let unknown = try #require(try Storyboards.refusal(xml, options: StoryboardImportOptions(root: .named("Nope"))))
        #expect(unknown.message.hasPrefix("--root Nope is no controller"))
        // A container's child cannot be the root: refused as the scenario's validation would
        // refuse what was printed.
        let held = try #require(try Storyboards.refusal(xml, options: StoryboardImportOptions(root: .named("viewController1"))))
        #expect(held.message == "--root viewController1 is the child of navigationController1: the root is a controller no container holds (candidates: navigationController1, Login)")
    }

    @Test("nesting deeper than the bound, a DTD, and an unknown segue kind are refused")
    func limits() throws {
        let deep = String(repeating: "<view>", count: 5000) + String(repeating: "</view>", count: 5000)
        let nested = try #require(try Storyboards.refusal(Storyboards.document(deep)))
        #expect(nested.message == "nested more than \(StoryboardXML.maximumDepth) elements deep")
        let laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE document [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;\">]>\n<document>&b;</document>"
        let dtd = try #require(try Storyboards.refusal(laughs))
        #expect(dtd.line == 2)
        #expect(dtd.element == "!DOCTYPE")
        let odd = Storyboards.document(Storyboards.scene("viewController", id: "A", #"<connections><segue destination="A" kind="teleport" id="s1"/></connections>"#))
        let kind = try #require(try Storyboards.refusal(odd))
        #expect(kind.message == "unknown segue kind \"teleport\"")
    }

    @Test("a custom segue without its class is refused at its line: the scenario import prints must run as it is")
    func customSegueWithoutAClass() throws {
        let xml = Storyboards.document(
            Storyboards.scene("viewController", id: "A", #"<connections><segue destination="B" kind="custom" identifier="p" id="s1"/></connections>"#)
                + Storyboards.scene("viewController", id: "B"))
        let refused = try #require(try Storyboards.refusal(xml))
        #expect(refused.message == "a custom segue names its UIStoryboardSegue subclass (customClass); this one names none")
        #expect(refused.element == "segue")
        let named = xml.replacingOccurrences(of: #"kind="custom""#, with: #"kind="custom" customClass="FadeSegue""#)
        #expect(try Storyboards.refusal(named) == nil)
    }

    @Test("a damaged frame is refused at its <rect>, saying which number and why; a negative origin is a frame", arguments: [
        (#"x="0.0" y="0.0" width="3.7.5" height="812""#, #"the frame's width "3.7.5" is not a number"#),
        (#"x="0.0" y="0.0" width="375" height="nan""#, #"the frame's height "nan" is not a number"#),
        (#"x="0.0" y="0.0" width="375""#, "a frame without height"),
        (#"x="0.0" y="0.0" width="-375" height="812""#, "the frame's width -375 is negative"),
        (#"x="1e9" y="0.0" width="375" height="812""#, "the frame's x 1e9 is beyond ±1000000 points"),
        (#"x="-16" y="-20" width="375" height="812""#, ""),
    ])
    func damagedFrame(_ numbers: String, _ reason: String) throws {
        let xml = Storyboards.document(Storyboards.scene("viewController", id: "A", """
                                <view key="view" contentMode="scaleToFill" id="v1">
                                    <rect key="frame" \(numbers)/>
                                </view>
            """))
        guard let refused = try Storyboards.refusal(xml) else {
            #expect(reason.isEmpty)
            return
        }
        #expect(refused.message == reason)
        #expect(refused.element == "rect")
        #expect((refused.line, refused.column) == (9, 25), "\(refused)")
    }

    @Test("a storyboard of more than 10 MB is read (libxml2's push parser refuses a chunk over 10,000,000 bytes), and an attribute over its limit is named as one")
    func overTenMegabytes() throws {
        // 11 MB between two scenes, in short comments (as a big storyboard's many small elements).
        let padding = String(repeating: "<!--" + String(repeating: " ", count: 92) + "-->\n", count: 110_000)
        let xml = Storyboards.document(Storyboards.scene("viewController", id: "A") + padding + Storyboards.scene("viewController", id: "B"))
        #expect(xml.utf8.count > 11_000_000)
        #expect(try Storyboards.refusal(xml) == nil)
        let long = Storyboards.document(Storyboards.scene("viewController", id: "A", attributes: "customClass=\"\(String(repeating: "x", count: 10_000_001))\""))
        let refused = try #require(try Storyboards.refusal(long))
        #expect(refused.message == "more than 9999999 bytes without markup from here: an attribute value or text that long is past libxml2's limit (10,000,000 bytes), and Interface Builder writes none")
        #expect(refused.line > 1)
    }

    @Test("a storyboard written on one line of a megabyte is read, and fast")
    func oneLongLine() throws {
        let scenes = (0..<3000).map { Storyboards.scene("viewController", id: "V\($0)") }.joined().replacingOccurrences(of: "\n", with: "")
        let xml = Storyboards.document(initial: "V0", scenes).replacingOccurrences(of: "\n", with: "")
        #expect(xml.utf8.count > 300_000)
        let start = ContinuousClock.now
        #expect(try Storyboards.refusal(xml) == nil)
        // A hang guard, not a benchmark (`trellis bench` measures): one line must not be quadratic.
        #expect(ContinuousClock.now - start < .seconds(20))
    }
}

/// Input the fuzzer found, kept as tests.
@Suite("storyboards the fuzzer found")
struct StoryboardFuzzFindingsTests {
    @Test("an attribute name that is not UTF-8 is refused before the XML parser sees it (Foundation trapped on it)")
    func notUTF8() throws {
        var bytes = Array(Storyboards.document(Storyboards.scene("viewController", id: "A")).utf8)
        let at = try #require(bytes.firstIndex(of: UInt8(ascii: "u")))  // in useAutolayout
        bytes[at] = 0xEE
        let error = try #require(throws: StoryboardError.self) { try StoryboardImport.read(bytes: bytes, file: "Bad.storyboard") }
        #expect(error.line == 2)
        #expect(error.message.hasPrefix("not UTF-8 text (byte 0xee"))
    }

    @Test("an encoding other than UTF-8 is refused")
    func otherEncoding() throws {
        let text = Storyboards.document(Storyboards.scene("viewController", id: "A")).replacingOccurrences(of: #"encoding="UTF-8""#, with: #"encoding="ISO-8859-1""#)
        let error = try #require(throws: StoryboardError.self) { try StoryboardImport.read(bytes: Array(text.utf8), file: "Bad.storyboard") }
        #expect(error.message.hasPrefix("encoding \"ISO-8859-1\" declared"))
    }
}
