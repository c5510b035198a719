import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace

// The screen picture of SPEC §6. Every expected frame is worked out by hand from the rules
// (SPEC §3.2 column widths, §3.5 presented sizes, R35/R37 presenters, R41 covering styles) and
// the placement rules written in the decisions: children at their container's origin, a split
// view's secondary column after the primary, sheets centred, popovers below their source.

private let examples = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Examples")

private let pad = """
    "window": { "size": [1024, 768],
                "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular",
                            "userInterfaceIdiom": "pad", "displayScale": 2 } }
    """

private let phone = """
    "window": { "size": [320, 568],
                "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular",
                            "userInterfaceIdiom": "phone", "displayScale": 2 } }
    """

private func example(_ name: String) throws -> Scenario {
    try ScenarioDecoder.load(path: examples.appendingPathComponent(name).path)
}

private func inline(_ json: String) throws -> Scenario {
    try ScenarioDecoder.decode(json, file: "inline.json")
}

/// The frames after `step`, one line each: `id role (x,y WxH)`; depths checked on the way.
private func screen(after step: Int, of scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
    let frames = try await ScenarioRunner.screen(after: step, of: scenario).frames
    #expect(frames.map(\.depth) == Array(frames.indices), "depth is the drawing order", sourceLocation: sourceLocation)
    return frames.map { "\($0.id) \($0.role) (\($0.rect))" }
}

@Suite("ScreenPictureTests: the simulated screen's frames and their SVG (SPEC §6)")
struct ScreenPictureTests {
    // MARK: Containers

    @Test("split view expanded: primary 320 wide at the left, secondary after it; collapsed: the primary alone")
    func splitView() async throws {
        let split = try example("split-view.json")
        #expect(try await screen(after: 0, of: split) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (320,0 704x768)",
        ])
        // Step 2 rotates to 768x1024, still regular width.
        #expect(try await screen(after: 2, of: split) == [
            "S root (0,0 768x1024)",
            "M child (0,0 320x1024)",
            "D child (320,0 448x1024)",
        ])
        // Step 4 goes to compact width: collapsed, the secondary is not on screen.
        #expect(try await screen(after: 4, of: split) == [
            "S root (0,0 375x1024)",
            "M child (0,0 375x1024)",
        ])
    }

    @Test("navigation shows its top controller, a tab bar controller its selected child")
    func navigationAndTabs() async throws {
        let json = """
            { \(phone), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["N", "X"] },
                               "N": { "kind": "navigation", "children": ["A"] }, "A": {}, "B": {}, "X": {} },
              "steps": [ { "push": "B", "onto": "N" }, { "select": "T", "index": 1 } ] }
            """
        let scenario = try inline(json)
        #expect(try await screen(after: 1, of: scenario) == [
            "T root (0,0 320x568)",
            "N child (0,0 320x568)",
            "B child (0,0 320x568)",
        ])
        #expect(try await screen(after: 2, of: scenario) == [
            "T root (0,0 320x568)",
            "X child (0,0 320x568)",
        ])
    }

    // MARK: Presentations

    @Test("a form sheet on iPad: centred in the window, over a dimming view covering the window")
    func formSheetCentred() async throws {
        let json = """
            { \(pad), "root": "R",
              "controllers": { "R": { "children": ["C"] }, "C": {},
                               "F": { "modalPresentationStyle": "formSheet" },
                               "G": { "modalPresentationStyle": "formSheet", "preferredContentSize": [400, 300] } },
              "steps": [ { "present": "F", "from": "C" }, { "dismiss": "F" }, { "present": "G", "from": "R" } ] }
            """
        let scenario = try inline(json)
        // 540x620 centred in 1024x768: x = (1024 - 540) / 2, y = (768 - 620) / 2. R presents (R35).
        #expect(try await screen(after: 1, of: scenario) == [
            "R root (0,0 1024x768)",
            "C child (0,0 1024x768)",
            "pc:F container formSheet (0,0 1024x768)",
            "pc:F dimming (0,0 1024x768)",
            "F presented formSheet (242,74 540x620)",
        ])
        #expect(try await screen(after: 2, of: scenario) == ["R root (0,0 1024x768)", "C child (0,0 1024x768)"])
        // The preferred content size, centred.
        #expect(try await screen(after: 3, of: scenario).last == "G presented formSheet (312,234 400x300)")
    }

    @Test("a popover sits below its source rect (in its source view's coordinates), above it when below does not fit, inside the window")
    func popoverBelowSource() async throws {
        let json = """
            { \(pad), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": {},
                               "P": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 400],
                                      "popoverSource": { "view": "D", "rect": [100, 100, 40, 40] } },
                               "Q": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 400],
                                      "popoverSource": { "view": "D", "rect": [100, 600, 40, 40] } },
                               "E": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 400],
                                      "popoverSource": { "view": "D", "rect": [680, 10, 20, 20] } } },
              "steps": [ { "present": "P", "from": "M" }, { "dismiss": "P" },
                         { "present": "Q", "from": "M" }, { "dismiss": "Q" },
                         { "present": "E", "from": "M" } ] }
            """
        let scenario = try inline(json)
        // D is at x 320, so P's source is (420,100 40x40) in the window: centred on x 440, below y 140.
        #expect(try await screen(after: 1, of: scenario) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (320,0 704x768)",
            "pc:P container popover (0,0 1024x768)",
            "P presented popover (290,140 300x400)",
        ])
        // Below Q's source (y 640) 400 points do not fit in 768: above it, at 600 - 400.
        #expect(try await screen(after: 3, of: scenario).last == "Q presented popover (290,200 300x400)")
        // E's source is at x 1000: centring would overflow the right edge, so it is kept inside.
        #expect(try await screen(after: 5, of: scenario).last == "E presented popover (724,30 300x400)")
    }

    @Test("a full-screen presentation takes what it covers off the screen; overFullScreen does not")
    func fullScreenCovers() async throws {
        let json = """
            { \(phone), "root": "R",
              "controllers": { "R": { "children": ["C"] }, "C": {},
                               "F": { "modalPresentationStyle": "fullScreen", "children": ["G"] }, "G": {},
                               "O": { "modalPresentationStyle": "overFullScreen" } },
              "steps": [ { "present": "F", "from": "C" }, { "dismiss": "F" }, { "present": "O", "from": "C" } ] }
            """
        let scenario = try inline(json)
        #expect(try await screen(after: 1, of: scenario) == [
            "pc:F container fullScreen (0,0 320x568)",
            "F presented fullScreen (0,0 320x568)",
            "G child (0,0 320x568)",
        ])
        #expect(try await screen(after: 3, of: scenario) == [
            "R root (0,0 320x568)",
            "C child (0,0 320x568)",
            "pc:O container overFullScreen (0,0 320x568)",
            "O presented overFullScreen (0,0 320x568)",
        ])
    }

    @Test("a full-screen presentation made by a form sheet covers the sheet, not what is under the sheet")
    func fullScreenOverSheet() async throws {
        let json = """
            { \(pad), "root": "R",
              "controllers": { "R": {}, "A": { "modalPresentationStyle": "formSheet" },
                               "B": { "modalPresentationStyle": "fullScreen" } },
              "steps": [ { "present": "A", "from": "R" }, { "present": "B", "from": "A" } ] }
            """
        #expect(try await screen(after: 2, of: try inline(json)) == [
            "R root (0,0 1024x768)",
            "pc:A container formSheet (0,0 1024x768)",
            "pc:A dimming (0,0 1024x768)",
            "pc:B container fullScreen (0,0 1024x768)",
            "B presented fullScreen (0,0 1024x768)",
        ])
    }

    @Test("current context inside a navigation controller: at the context's origin, the context covered (Examples/current-context-in-navigation.json)")
    func currentContextInNavigation() async throws {
        let scenario = try example("current-context-in-navigation.json")
        // N (R's child, half the width) is the context; currentContext removes N and V (R41).
        #expect(try await screen(after: 1, of: scenario) == [
            "R root (0,0 1024x768)",
            "pc:P container currentContext (0,0 512x768)",
            "P presented currentContext (0,0 512x768)",
            "Side child (0,0 512x768)",
        ])
        #expect(try await screen(after: 3, of: scenario) == [
            "R root (0,0 768x1024)",
            "pc:P container currentContext (0,0 384x1024)",
            "P presented currentContext (0,0 384x1024)",
            "Side child (0,0 384x1024)",
        ])
    }

    @Test("current context in a split view's secondary column: at the column's origin; overCurrentContext keeps the column")
    func currentContextAtContextOrigin() async throws {
        let json = """
            { \(pad), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {},
                               "D": { "kind": "navigation", "children": ["V"] }, "V": {},
                               "P": { "modalPresentationStyle": "currentContext" },
                               "O": { "modalPresentationStyle": "overCurrentContext" } },
              "steps": [ { "present": "P", "from": "V" }, { "dismiss": "P" }, { "present": "O", "from": "V" } ] }
            """
        let scenario = try inline(json)
        #expect(try await screen(after: 1, of: scenario) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "pc:P container currentContext (320,0 704x768)",
            "P presented currentContext (320,0 704x768)",
        ])
        #expect(try await screen(after: 3, of: scenario) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (320,0 704x768)",
            "V child (320,0 704x768)",
            "pc:O container overCurrentContext (320,0 704x768)",
            "O presented overCurrentContext (320,0 704x768)",
        ])
    }

    @Test("the one-third sidebar is a custom presentation at the right edge (R62, R64), over a dimming view; adapted to fullScreen it covers (Examples/one-third-sidebar.json)")
    func oneThirdSidebar() async throws {
        let scenario = try example("one-third-sidebar.json")
        #expect(try await screen(after: 1, of: scenario) == [
            "R root (0,0 1024x768)",
            "Content child (0,0 1024x768)",
            "pc:S container custom (0,0 1024x768)",
            "pc:S dimming (0,0 1024x768)",
            "S presented custom (682.667,0 341.333x768)",
        ])
        // Step 5 rotates to 768x1024: a third of 768.
        #expect(try await screen(after: 5, of: scenario).suffix(3) == [
            "pc:S container custom (0,0 768x1024)",
            "pc:S dimming (0,0 768x1024)",
            "S presented custom (512,0 256x1024)",
        ])
        // Step 8: compact width, the delegate adapts it to fullScreen, which removes the presenter's views.
        #expect(try await screen(after: 8, of: scenario) == [
            "pc:S container fullScreen (0,0 320x1024)",
            "S presented fullScreen (0,0 320x1024)",
        ])
        // Step 11: back to regular width and to the sidebar.
        #expect(try await screen(after: 11, of: scenario).suffix(1) == ["S presented custom (512,0 256x1024)"])
    }

    @Test("an adapted popover inside its navigation wrapper (Examples/popover-adaptation.json)")
    func adaptiveWrapper() async throws {
        let scenario = try example("popover-adaptation.json")
        // The source is R's (10,10 44x44): centred on x 32 it would start left of the window.
        #expect(try await screen(after: 1, of: scenario).last == "P presented popover (0,54 300x400)")
        #expect(try await screen(after: 3, of: scenario) == [
            "R root (0,0 320x768)",
            "Content child (0,0 320x768)",
            "pc:P container overFullScreen (0,0 320x768)",
            "wrap:P wrapper (0,0 320x768)",
            "P presented overFullScreen (0,0 320x768)",
        ])
        #expect(try await screen(after: 8, of: scenario) == ["R root (0,0 1024x768)", "Content child (0,0 1024x768)"])
    }

    @Test("a step outside the scenario is refused")
    func noSuchStep() async throws {
        let scenario = try example("split-view.json")
        await #expect(throws: ScenarioRunError.self) { try await ScenarioRunner.screen(after: 7, of: scenario) }
        await #expect(throws: ScenarioRunError.self) { try await ScenarioRunner.screen(after: -1, of: scenario) }
    }

    // MARK: The SVG

    @Test("the SVG is well-formed XML with one titled <rect> and one <text> label per frame", arguments: [
        ("split-view.json", 0), ("split-view.json", 4), ("one-third-sidebar.json", 1),
        ("current-context-in-navigation.json", 1), ("popover-adaptation.json", 3),
    ])
    func svgWellFormed(file: String, step: Int) async throws {
        let scenario = try example(file)
        let frames = try await ScenarioRunner.screen(after: step, of: scenario).frames
        let svg = ScreenPicture.svg(frames, windowSize: sizeOfWindow(frames), title: "\(file) after step \(step)")
        let picture = try ParsedPicture(svg)
        #expect(picture.rects.count == frames.count)
        #expect(picture.rects.map(\.id) == frames.map(\.id.name))
        #expect(picture.rects.allSatisfy { !$0.title.isEmpty }, "every <rect> has a <title>")
        #expect(picture.labels == frames.map(ScreenPicture.label))
        // One frame per controller on screen, plus the presentations' containers and dimming views.
        let controllers = frames.filter { $0.role != .dimming && !isContainer($0.role) }
        #expect(Set(controllers.map(\.id)).count == controllers.count)
        #expect(picture.rects.filter { $0.classes.contains("dimming") }.count == frames.filter { $0.role == .dimming }.count)
    }

    @Test("the SVG's labels name the controller and its size; presented frames are outlined and dimming is translucent black")
    func svgContent() async throws {
        let scenario = try inline("""
            { \(pad), "root": "R", "controllers": { "R": {}, "F": { "modalPresentationStyle": "formSheet" } },
              "steps": [ { "present": "F", "from": "R" } ] }
            """)
        let frames = try await ScenarioRunner.screen(after: 1, of: scenario).frames
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "form sheet"))
        #expect(picture.labels == [
            "R 1024x768", "pc:F container formSheet", "pc:F dimming", "F 540x620 formSheet",
        ])
        let dimming = try #require(picture.rects.first { $0.classes.contains("dimming") })
        #expect(dimming.attributes["fill"] == "#000000")
        #expect(dimming.attributes["fill-opacity"].flatMap(Double.init).map { $0 > 0 && $0 < 1 } == true)
        let presented = try #require(picture.rects.first { $0.id == "F" })
        #expect(presented.attributes["stroke"] != nil && presented.attributes["stroke"] != "none")
        #expect(presented.attributes["x"] == "242" && presented.attributes["y"] == "74")
        #expect(presented.attributes["width"] == "540" && presented.attributes["height"] == "620")
        #expect(picture.title == "form sheet")
    }

    @Test("text is escaped: ids and titles with markup characters come back unchanged")
    func svgEscapes() throws {
        let awkward = ControllerID("a<b>&\"c'd")
        let frames = [
            ScreenFrame(id: "R", rect: Rect(x: 0, y: 0, width: 100, height: 50), role: .root, depth: 0),
            ScreenFrame(id: awkward, rect: Rect(x: 0, y: 0, width: 100, height: 50), role: .child, depth: 1),
        ]
        let title = "step <1> & \"quotes\" 'too' ]]> --"
        let svg = ScreenPicture.svg(frames, windowSize: Size(100, 50), title: title)
        #expect(!svg.contains(awkward.name))
        let picture = try ParsedPicture(svg)
        #expect(picture.title == title)
        #expect(picture.rects.map(\.id) == ["R", awkward.name])
        #expect(picture.labels == ["R 100x50", awkward.name + " 100x50"])
        // A character XML cannot carry is replaced, not written.
        let control = ScreenPicture.svg(
            [ScreenFrame(id: "bell\u{7}", rect: Rect(x: 0, y: 0, width: 1, height: 1), role: .root, depth: 0)],
            windowSize: Size(1, 1), title: "t")
        #expect(try ParsedPicture(control).labels == ["bell\u{FFFD} 1x1"])
    }
}

private func isContainer(_ role: ScreenFrame.Role) -> Bool {
    if case .presentationContainer = role { return true }
    return false
}

/// The window's size: the union of the frames (the root's, or a full-screen presentation's).
private func sizeOfWindow(_ frames: [ScreenFrame]) -> Size {
    Size(frames.map { $0.rect.origin.x + $0.rect.size.width }.max() ?? 0,
         frames.map { $0.rect.origin.y + $0.rect.size.height }.max() ?? 0)
}

/// What an SVG says, as Foundation's XML parser reads it.
private struct ParsedPicture {
    struct RectElement {
        var attributes: [String: String]
        var title: String
        var id: String { attributes["data-id"] ?? "" }
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }

    var title = ""
    var rects: [RectElement] = []
    var labels: [String] = []

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ svg: String) throws {
        let collector = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw Malformed(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")\n\(svg)")
        }
        title = collector.documentTitle
        rects = collector.rects
        labels = collector.labels
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var text = ""
        var documentTitle = ""
        var rects: [RectElement] = []
        var labels: [String] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(name)
            text = ""
            if name == "rect" { rects.append(RectElement(attributes: attributes, title: "")) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            switch name {
            case "title" where stack.last == "rect":
                rects[rects.count - 1].title = text
            case "title" where stack.last == "svg":
                documentTitle = text
            case "text" where stack.last == "g":
                labels.append(text)
            default:
                break
            }
            text = ""
        }
    }
}
