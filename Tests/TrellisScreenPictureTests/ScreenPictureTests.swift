import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScreenPicture
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

    @Test("split view expanded: primary 320 wide at the left, the 1-point divider, secondary after it; collapsed: the primary alone")
    func splitView() async throws {
        let split = try example("split-view.json")
        #expect(try await screen(after: 0, of: split) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (321,0 703x768)",
            "S divider (320,0 1x768)",
        ])
        // Step 2 rotates to 768x1024, still regular width.
        #expect(try await screen(after: 2, of: split) == [
            "S root (0,0 768x1024)",
            "M child (0,0 320x1024)",
            "D child (321,0 447x1024)",
            "S divider (320,0 1x1024)",
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
        // D is at x 321, after the divider, so P's source is (421,100 40x40) in the window:
        // centred on x 441, below y 140 (CONFORMANCE 39: it shifts by 321).
        #expect(try await screen(after: 1, of: scenario) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (321,0 703x768)",
            "S divider (320,0 1x768)",
            "pc:P container popover (0,0 1024x768)",
            "P presented popover (291,140 300x400)",
        ])
        // Below Q's source (y 640) 400 points do not fit in 768: above it, at 600 - 400.
        #expect(try await screen(after: 3, of: scenario).last == "Q presented popover (291,200 300x400)")
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
            "pc:P container currentContext (321,0 703x768)",
            "P presented currentContext (321,0 703x768)",
            "S divider (320,0 1x768)",
        ])
        #expect(try await screen(after: 3, of: scenario) == [
            "S root (0,0 1024x768)",
            "M child (0,0 320x768)",
            "D child (321,0 703x768)",
            "V child (321,0 703x768)",
            "pc:O container overCurrentContext (321,0 703x768)",
            "O presented overCurrentContext (321,0 703x768)",
            "S divider (320,0 1x768)",
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
            "S presented custom (683,0 341x768)",
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

    @Test("the window's size after a step is the window's, also when a full-screen presentation covers the root (R41)")
    func windowSizeUnderAFullScreenPresentation() async throws {
        let scenario = try inline("""
            { "scenario": "covered root", \(phone), "root": "R",
              "controllers": { "R": { "kind": "view" }, "M": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
              "steps": [ { "transition": { "size": [568, 320] } },
                         { "present": "M", "from": "R", "animated": false },
                         { "transition": { "size": [320, 568] } } ] }
            """)
        let turned = try await ScenarioRunner.screen(after: 2, of: scenario)
        // R41: the presenter's views are gone, so no frame of the root says how big the window is.
        #expect(!turned.frames.contains { $0.role == .root })
        #expect(turned.windowSize == Size(568, 320))
        #expect(turned.frames.map(\.rect).contains(Rect(Size(568, 320))))
        #expect(ScreenPicture.svg(turned.frames, windowSize: turned.windowSize, title: "t").contains("window 568x320"))
        #expect(try await ScenarioRunner.screen(after: 3, of: scenario).windowSize == Size(320, 568))
        #expect(try await ScenarioRunner.screen(after: 0, of: scenario).windowSize == Size(320, 568))
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
        let controllers = frames.filter { $0.role != .dimming && $0.role != .divider && !isContainer($0.role) }
        #expect(Set(controllers.map(\.id)).count == controllers.count)
        #expect(picture.rects.filter { $0.classes.contains("dimming") }.count == frames.filter { $0.role == .dimming }.count)
    }

    @Test("a regular split view's 1-point divider is drawn dark between the columns, after them, so their outlines do not hide it (§3.2)")
    func svgSplitDivider() async throws {
        let split = try example("split-view.json")
        let frames = try await ScenarioRunner.screen(after: 0, of: split).frames
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "split"))
        let order = picture.elements.filter { $0.name == "rect" }.map { $0.classes.contains("divider") ? "divider" : $0.id }
        #expect(order == ["S", "M", "D", "divider"])
        let divider = try #require(picture.elements.first { $0.classes.contains("divider") })
        #expect(divider.id == "S")
        #expect(["x", "y", "width", "height"].map { divider.attributes[$0] } == ["320", "0", "1", "768"])
        #expect(divider.attributes["fill"] == "#222222")
        // The gap between the columns is exactly the divider.
        let m = try #require(frames.first { $0.id == "M" }), d = try #require(frames.first { $0.id == "D" })
        #expect(d.rect.minX - m.rect.maxX == ContainerRules.splitDividerWidth)
        // Collapsed, there is no divider.
        let collapsed = try await ScenarioRunner.screen(after: 4, of: split).frames
        #expect(!collapsed.contains { $0.role == .divider })
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

    @Test("a huge window's picture asks for at most 4096 pixels a side, its viewBox the scene's size; an ordinary one 1 px a point")
    func svgSizeIsBounded() throws {
        func attributes(_ svg: String) throws -> (width: String, height: String, viewBox: String) {
            let tag = try #require(svg.split(separator: "\n").first { $0.hasPrefix("<svg ") })
            func value(_ name: String) throws -> String {
                let start = try #require(tag.range(of: " \(name)=\"")).upperBound
                return String(tag[start...].prefix { $0 != "\"" })
            }
            return (try value("width"), try value("height"), try value("viewBox"))
        }
        let huge = Size(1_000_000, 500_000)
        let big = try attributes(ScreenPicture.svg([ScreenFrame(id: "R", rect: Rect(x: 0, y: 0, width: huge.width, height: huge.height), role: .root, depth: 0)],
                                                   windowSize: huge, title: "huge"))
        #expect(big.viewBox == "0 0 1000040 500068")
        #expect(big.width == "4096" && big.height == "2049")
        let small = try attributes(ScreenPicture.svg([ScreenFrame(id: "R", rect: Rect(x: 0, y: 0, width: 320, height: 568), role: .root, depth: 0)],
                                                     windowSize: Size(320, 568), title: "phone"))
        #expect(small.viewBox == "0 0 \(small.width) \(small.height)")
    }

    // MARK: The SVG: popovers, dimming, heading, labels

    @Test("a popover is drawn beside its source with an arrow from its nearest edge to the source, the source outlined, nothing dimmed",
          arguments: [(1, "top"), (3, "bottom"), (5, "top")])
    func svgPopoverArrow(step: Int, edge: String) async throws {
        let scenario = try inline(popovers)
        let frames = try await ScenarioRunner.screen(after: step, of: scenario).frames
        let popover = try #require(frames.last)
        let source = try #require(popover.popoverSource)
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "popover"))
        let arrow = try #require(picture.paths.first { $0.classes.contains("popover-arrow") })
        #expect(arrow.id == popover.id.name && arrow.attributes["data-edge"] == edge)
        try expectArrow(arrow, from: popover.rect, edge: edge, to: source)
        // The source, outlined as a path (every <rect> is a frame).
        let outline = try #require(picture.paths.first { $0.classes.contains("popover-source") })
        #expect(outline.id == popover.id.name)
        #expect(outline.attributes["d"] == "M\(n(source.minX)) \(n(source.minY)) H\(n(source.maxX)) V\(n(source.maxY)) H\(n(source.minX)) Z")
        // R64: popovers do not dim.
        #expect(!frames.contains { $0.role == .dimming })
        #expect(!picture.rects.contains { $0.classes.contains("dimming") })
        #expect(picture.rects.count == frames.count)
        // Drawn in order: the source outline under the popover, the arrow over it.
        let order = picture.elements.map { "\($0.name) \($0.classes.last ?? "") \($0.id)" }
        let at = { (entry: String) in try #require(order.firstIndex(of: entry)) }
        let id = popover.id.name
        #expect(try at("path popover-source \(id)") < at("rect presented \(id)"))
        #expect(try at("rect presented \(id)") < at("path popover-arrow \(id)"))
    }

    @Test("a popover left of its source (nothing else fits) gets its arrow on its right edge; one moved over its source points at the source's centre")
    func svgPopoverArrowSides() async throws {
        let frames = try await ScenarioRunner.screen(after: 2, of: try inline(crowded)).frames
        let popover = try #require(frames.last)
        // F (540x620) is centred at 242,74; P's source is F's (500,300 30x30): 742,374 in the window.
        #expect(popover.popoverSource == Rect(x: 742, y: 374, width: 30, height: 30))
        #expect(popover.rect == Rect(x: 442, y: 189, width: 300, height: 400))
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "crowded"))
        let arrow = try #require(picture.paths.first { $0.classes.contains("popover-arrow") })
        #expect(arrow.attributes["data-edge"] == "right")
        try expectArrow(arrow, from: popover.rect, edge: "right", to: Rect(x: 742, y: 374, width: 30, height: 30))

        // Overlapping (as after R62's move into the window): the edge the source's centre is
        // farthest outside, the tip at that centre.
        let source = Rect(x: 0, y: 0, width: 100, height: 100)
        let over = [
            ScreenFrame(id: "R", rect: Rect(x: 0, y: 0, width: 400, height: 500), role: .root, depth: 0),
            ScreenFrame(id: "P", rect: Rect(x: 50, y: 60, width: 300, height: 400), role: .presented(.popover), depth: 1, popoverSource: source),
        ]
        let overPicture = try ParsedPicture(ScreenPicture.svg(over, windowSize: Size(400, 500), title: "over"))
        let overArrow = try #require(overPicture.paths.first { $0.classes.contains("popover-arrow") })
        #expect(overArrow.attributes["data-edge"] == "top")
        #expect(try overArrow.points()[1] == Point(x: 50, y: 50))
        // A popover covering its source's centre has nowhere to point: the source alone.
        var covering = over
        covering[1].rect = Rect(x: 20, y: 20, width: 300, height: 400)
        let coveringPicture = try ParsedPicture(ScreenPicture.svg(covering, windowSize: Size(400, 500), title: "covering"))
        #expect(!coveringPicture.paths.contains { $0.classes.contains("popover-arrow") })
        #expect(coveringPicture.paths.contains { $0.classes.contains("popover-source") })
    }

    @Test("dimming views (formSheet, pageSheet, custom) cover the container view and are drawn under the presented view")
    func svgDimmingUnderPresented() async throws {
        for (file, step, presented) in [("one-third-sidebar.json", 1, "S"), ("one-third-sidebar.json", 5, "S")] {
            let frames = try await ScenarioRunner.screen(after: step, of: try example(file)).frames
            let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: sizeOfWindow(frames), title: file))
            try expectDimmingUnder(presented, in: picture)
        }
        let sheets = try inline("""
            { \(pad), "root": "R",
              "controllers": { "R": {}, "F": { "modalPresentationStyle": "formSheet" }, "G": { "modalPresentationStyle": "pageSheet" } },
              "steps": [ { "present": "F", "from": "R" }, { "dismiss": "F" }, { "present": "G", "from": "R" } ] }
            """)
        for (step, presented) in [(1, "F"), (3, "G")] {
            let frames = try await ScenarioRunner.screen(after: step, of: sheets).frames
            try expectDimmingUnder(presented, in: try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "sheet")))
        }
    }

    @Test("the heading is never clipped: wrapped at the picture's width, the picture at least as wide as its widest line",
          arguments: [
            ("iphone-rotation.json", 0), ("popover-adaptation.json", 1), ("current-context-in-navigation.json", 1),
            ("one-third-sidebar.json", 8), ("manual-forwarding.json", 0),
          ])
    func svgHeadingFits(file: String, step: Int) async throws {
        let scenario = try example(file)
        let frames = try await ScenarioRunner.screen(after: step, of: scenario).frames
        let size = frames.first { $0.role == .root }?.rect.size ?? sizeOfWindow(frames)
        let title = "\(scenario.name) — after step \(step)"
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: size, title: title))
        try expectHeadingFits(picture, heading: title + " — window " + size.description)
        // The whole heading would not fit on one line of these pictures: it wraps.
        #expect(picture.headingLines.count > 1)
    }

    @Test("a heading with a word wider than any line is broken inside the word and still fits; a short one stays on one line")
    func svgHeadingLongWord() throws {
        let frames = [ScreenFrame(id: "R", rect: Rect(x: 0, y: 0, width: 320, height: 568), role: .root, depth: 0)]
        let word = String(repeating: "W", count: 120)
        let long = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(320, 568), title: word + " <&> " + word))
        #expect(long.headingLines.count > 4)
        for line in long.headingLines {
            #expect(20 + ScreenPicture.textWidth(line, fontSize: ScreenPicture.headingFontSize, bold: true) <= long.width)
        }
        #expect(long.headingLines.joined().filter { $0 != " " } == (word + "<&>" + word + "—window320x568"))
        let short = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(320, 568), title: "phone"))
        #expect(short.headingLines == ["phone — window 320x568"])
        try expectHeadingFits(short, heading: "phone — window 320x568")
    }

    @Test("no two label boxes intersect, nor a label and a popover's arrow, in a crowded picture (split view, form sheet, popover)")
    func svgLabelsDoNotOverlap() async throws {
        let frames = try await ScenarioRunner.screen(after: 2, of: try inline(crowded)).frames
        #expect(frames.count == 10)  // with the split view's divider
        let picture = try ParsedPicture(ScreenPicture.svg(frames, windowSize: Size(1024, 768), title: "crowded"))
        #expect(picture.labels == frames.map(ScreenPicture.label))
        let boxes = try expectLabelsApart(picture)
        // Labels stay in their frame's top-left corner when it is free, a line lower when not.
        #expect(picture.labelElements.first { $0.id == "D" }?.position == Point(x: 325, y: 14))
        #expect(picture.labelElements.first { $0.id == "M" }?.position == Point(x: 4, y: 28))
        #expect(picture.labelElements.first { $0.id == "P" }?.position == Point(x: 446, y: 203))
        // The dimming view's label in its bottom-left corner.
        #expect(picture.labelElements.first { $0.classes.contains("dimming") }?.position == Point(x: 4, y: 762))
        // The arrow is kept clear.
        let arrow = try #require(picture.paths.first { $0.classes.contains("popover-arrow") }).points()
        let arrowBox = Rect(x: arrow.map(\.x).min()!, y: arrow.map(\.y).min()!,
                            width: arrow.map(\.x).max()! - arrow.map(\.x).min()!, height: arrow.map(\.y).max()! - arrow.map(\.y).min()!)
        #expect(!boxes.contains { intersects($0, arrowBox) })
    }

    @Test("labels of many frames crowding the same corners and edges never intersect, and the picture holds them all")
    func svgLabelsCrowded() throws {
        var frames = [ScreenFrame(id: "Root", rect: Rect(x: 0, y: 0, width: 320, height: 200), role: .root, depth: 0)]
        for index in 1..<40 {
            let x = Double((index * 37) % 280), y = Double((index * 13) % 190)
            let role: ScreenFrame.Role = index % 7 == 0 ? .dimming : index % 5 == 0 ? .presented(.formSheet) : .child
            frames.append(ScreenFrame(id: ControllerID("Controller\(index)"), rect: Rect(x: x, y: y, width: 40 + Double(index % 4) * 30, height: 12 + Double(index % 3) * 20),
                                      role: role, depth: index))
        }
        let svg = ScreenPicture.svg(frames, windowSize: Size(320, 200), title: "crowded corners")
        let picture = try ParsedPicture(svg)
        #expect(picture.labels == frames.map(ScreenPicture.label))
        let boxes = try expectLabelsApart(picture)
        // Every label inside the picture: labels pushed past the window grow it.
        let origin = try #require(picture.windowOrigin)
        for box in boxes {
            #expect(origin.x + box.minX >= 0 && origin.y + box.minY >= 0)
            #expect(origin.x + box.maxX <= picture.width && origin.y + box.maxY <= picture.height)
        }
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

/// Three popovers from a split view's secondary column: P below its source, Q above, E kept inside the window.
private let popovers = """
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

/// A split view whose secondary navigation controller presents a form sheet, which presents a
/// popover that fits only left of its source.
private let crowded = """
    { \(pad), "root": "S",
      "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {},
                       "D": { "kind": "navigation", "children": ["V"] }, "V": {},
                       "F": { "modalPresentationStyle": "formSheet" },
                       "P": { "modalPresentationStyle": "popover", "preferredContentSize": [300, 400],
                              "popoverSource": { "view": "F", "rect": [500, 300, 30, 30] } } },
      "steps": [ { "present": "F", "from": "V" }, { "present": "P", "from": "F" } ] }
    """

private func n(_ value: Double) -> String { CanonicalNumber.format(value) }

/// Whether two rects share interior points.
private func intersects(_ a: Rect, _ b: Rect) -> Bool {
    a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
}

/// The arrow's base lies on `edge` of the popover, inside that edge, and its tip is on or inside
/// the source, outside the popover.
private func expectArrow(_ arrow: ParsedPicture.Element, from popover: Rect, edge: String, to source: Rect,
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
    let points = try arrow.points()
    try #require(points.count == 3, sourceLocation: sourceLocation)
    let (base, tip) = ([points[0], points[2]], points[1])
    for point in base {
        switch edge {
        case "top": #expect(point.y == popover.minY, sourceLocation: sourceLocation)
        case "bottom": #expect(point.y == popover.maxY, sourceLocation: sourceLocation)
        case "left": #expect(point.x == popover.minX, sourceLocation: sourceLocation)
        default: #expect(point.x == popover.maxX, sourceLocation: sourceLocation)
        }
        #expect(point.x >= popover.minX && point.x <= popover.maxX && point.y >= popover.minY && point.y <= popover.maxY,
                "the base is on the popover's edge", sourceLocation: sourceLocation)
    }
    #expect(tip.x >= source.minX && tip.x <= source.maxX && tip.y >= source.minY && tip.y <= source.maxY,
            "the tip \(tip) is at the source \(source)", sourceLocation: sourceLocation)
    #expect(!(tip.x > popover.minX && tip.x < popover.maxX && tip.y > popover.minY && tip.y < popover.maxY),
            "the tip is outside the popover", sourceLocation: sourceLocation)
    #expect(base[0] != base[1] && tip != base[0], "the arrow has an area", sourceLocation: sourceLocation)
}

/// `pc:presented`'s container, then its dimming view (as large as the container), then the presented frame.
private func expectDimmingUnder(_ presented: String, in picture: ParsedPicture, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let pc = "pc:" + presented
    let container = try #require(picture.rects.firstIndex { $0.id == pc && $0.classes.contains("container") }, sourceLocation: sourceLocation)
    let dimming = try #require(picture.rects.firstIndex { $0.id == pc && $0.classes.contains("dimming") }, sourceLocation: sourceLocation)
    let frame = try #require(picture.rects.firstIndex { $0.id == presented }, sourceLocation: sourceLocation)
    #expect(container < dimming && dimming < frame, sourceLocation: sourceLocation)
    for key in ["x", "y", "width", "height"] {
        #expect(picture.rects[dimming].attributes[key] == picture.rects[container].attributes[key], sourceLocation: sourceLocation)
    }
}

/// Every heading line starts at the margin and ends inside the picture; the lines give the heading back.
private func expectHeadingFits(_ picture: ParsedPicture, heading: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(!picture.headingLines.isEmpty, sourceLocation: sourceLocation)
    #expect(picture.headingLines.joined(separator: " ") == heading, sourceLocation: sourceLocation)
    let widest = picture.headingLines.map { ScreenPicture.textWidth($0, fontSize: ScreenPicture.headingFontSize, bold: true) }.max() ?? 0
    #expect(picture.width >= widest + 2 * 20, "svg width \(picture.width) holds the heading (\(widest))", sourceLocation: sourceLocation)
    // The window starts below the last heading line.
    let origin = try #require(picture.windowOrigin, sourceLocation: sourceLocation)
    #expect(origin.y >= 20 + Double(picture.headingLines.count) * 18, sourceLocation: sourceLocation)
}

/// The labels' boxes, none intersecting another.
@discardableResult
private func expectLabelsApart(_ picture: ParsedPicture, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Rect] {
    let boxes = picture.labelElements.map { ScreenPicture.labelBox($0.text, at: $0.position) }
    for i in boxes.indices {
        for j in boxes.indices where j > i {
            #expect(!intersects(boxes[i], boxes[j]),
                    "\(picture.labelElements[i].text) at \(boxes[i]) and \(picture.labelElements[j].text) at \(boxes[j])",
                    sourceLocation: sourceLocation)
        }
    }
    return boxes
}

/// What an SVG says, as Foundation's XML parser reads it.
private struct ParsedPicture {
    struct RectElement {
        var attributes: [String: String]
        var title: String
        var id: String { attributes["data-id"] ?? "" }
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
    }

    /// An element with its attributes (a `<rect>` or `<path>` in document order, or a label).
    struct Element {
        var name: String
        var attributes: [String: String]
        var text = ""
        var id: String { attributes["data-id"] ?? "" }
        var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }
        var position: Point { Point(x: Double(attributes["x"] ?? "") ?? .nan, y: Double(attributes["y"] ?? "") ?? .nan) }

        /// A path's points (`M x y L x y …`).
        func points() throws -> [Point] {
            let numbers = (attributes["d"] ?? "").split { "MLZ ".contains($0) }.map { Double($0) }
            guard numbers.count % 2 == 0, numbers.allSatisfy({ $0 != nil }) else { throw Malformed(description: "path \(attributes)") }
            return stride(from: 0, to: numbers.count, by: 2).map { Point(x: numbers[$0]!, y: numbers[$0 + 1]!) }
        }
    }

    var title = ""
    var rects: [RectElement] = []
    var labels: [String] = []
    /// The `<rect>` and `<path>` elements, in drawing order; the `<path>`s alone.
    var elements: [Element] = []
    var paths: [Element] { elements.filter { $0.name == "path" } }
    var labelElements: [Element] = []
    var headingLines: [String] = []
    var width = 0.0
    var height = 0.0
    /// Where the window's group puts the window's origin.
    var windowOrigin: Point?

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
        elements = collector.elements
        labelElements = collector.labelElements
        headingLines = collector.headingLines
        width = Double(collector.svgAttributes["width"] ?? "") ?? 0
        height = Double(collector.svgAttributes["height"] ?? "") ?? 0
        windowOrigin = collector.windowTransform.flatMap { transform in
            let numbers = transform.split { "translate(,) ".contains($0) }.compactMap { Double($0) }
            return numbers.count == 2 ? Point(x: numbers[0], y: numbers[1]) : nil
        }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var stack: [String] = []
        var text = ""
        var documentTitle = ""
        var rects: [RectElement] = []
        var labels: [String] = []
        var elements: [Element] = []
        var labelElements: [Element] = []
        var headingLines: [String] = []
        var svgAttributes: [String: String] = [:]
        var windowTransform: String?
        var attributeStack: [[String: String]] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(name)
            attributeStack.append(attributes)
            text = ""
            if name == "rect" { rects.append(RectElement(attributes: attributes, title: "")) }
            if name == "rect" || name == "path" { elements.append(Element(name: name, attributes: attributes)) }
            if name == "svg" { svgAttributes = attributes }
            if name == "g", attributes["class"] == "window" { windowTransform = attributes["transform"] }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            let attributes = attributeStack.removeLast()
            switch name {
            case "title" where stack.last == "rect":
                rects[rects.count - 1].title = text
            case "title" where stack.last == "svg":
                documentTitle = text
            case "text" where stack.last == "g":
                labels.append(text)
                labelElements.append(Element(name: name, attributes: attributes, text: text))
            case "tspan" where stack.last == "text" && attributeStack.last?["class"] == "heading":
                headingLines.append(text)
            default:
                break
            }
            text = ""
        }
    }
}
