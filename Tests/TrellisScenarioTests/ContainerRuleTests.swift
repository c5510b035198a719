import Testing
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport

/// SPEC §3.2: the built-in containers' forwarding and default sizes.
@Suite("SPEC 3.2 built-in containers")
struct ContainerRuleTests {
    @Test("view: forwards to all its children")
    func viewForwardsToAll() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "kind": "view", "children": ["A", "B", "C"] }, "A": {}, "B": {}, "C": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.lines(step: 1, kinds: ["viewWillTransition"]) == [
            "R viewWillTransition(to: 568x320)",
            "A viewWillTransition(to: 568x320)",
            "B viewWillTransition(to: 568x320)",
            "C viewWillTransition(to: 568x320)",
        ])
    }

    @Test("navigation: the children are the stack and transitions (size and traits) go to the top controller only")
    func navigationTopOnly() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["V1", "V2", "V3"] }, "V1": {}, "V2": {}, "V3": {} },
              "steps": [ { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
            """)
        #expect(trace.lines(step: 0, kinds: ["sizeForChild"]) == [])
        #expect(trace.laidOutFrames(step: 0) == ["N 0,0 320x568", "V3 0,0 320x568"])
        #expect(trace[step: 1] == [
            "N willTransition(to: \(Phone.landscape))",
            "V3 willTransition(to: \(Phone.landscape))",
            "N viewWillTransition(to: 568x320)",
            "N sizeForChild(V3, parent: 568x320) -> 568x320",
            "V3 viewWillTransition(to: 568x320)",
            "N traitCollectionDidChange(previous: \(Phone.portrait))",
            "V3 traitCollectionDidChange(previous: \(Phone.portrait))",
        ] + Lines.layout("N", "V3"))
    }

    @Test("tab: transitions go to the selected child only")
    func tabSelectedOnly() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["A", "B", "C"], "selected": 1 },
                               "A": {}, "B": { "children": ["B1"] }, "B1": {}, "C": {} },
              "steps": [ { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
            """)
        #expect(trace[step: 1] == [
            "T willTransition(to: \(Phone.landscape))",
            "B willTransition(to: \(Phone.landscape))",
            "B1 willTransition(to: \(Phone.landscape))",
            "T viewWillTransition(to: 568x320)",
            "T sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "B sizeForChild(B1, parent: 568x320) -> 568x320",
            "B1 viewWillTransition(to: 568x320)",
            "T traitCollectionDidChange(previous: \(Phone.portrait))",
            "B traitCollectionDidChange(previous: \(Phone.portrait))",
            "B1 traitCollectionDidChange(previous: \(Phone.portrait))",
        ] + Lines.layout("T", "B", "B1"))
    }

    @Test("tab: without \"selected\" the first child is the selected one")
    func tabDefaultSelection() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["A", "B"] }, "A": {}, "B": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.lines(step: 1, kinds: ["viewWillTransition"]) == [
            "T viewWillTransition(to: 568x320)",
            "A viewWillTransition(to: 568x320)",
        ])
    }

    @Test("split, regular width: the primary gets 320 points wide, a 1-point divider, the secondary the rest")
    func splitRegular() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": {} },
              "steps": [ { "resizeWindow": [768, 1024] } ] }
            """)
        #expect(trace.lines(step: 0, kinds: ["sizeForChild"]) == [])
        #expect(trace.laidOutFrames(step: 0) == ["S 0,0 1024x768", "M 0,0 320x768", "D 321,0 703x768"])
        #expect(trace[step: 1] == [
            "S viewWillTransition(to: 768x1024)",
            "S sizeForChild(M, parent: 768x1024) -> 320x1024",
            "M viewWillTransition(to: 320x1024)",
            "S sizeForChild(D, parent: 768x1024) -> 447x1024",
            "D viewWillTransition(to: 447x1024)",
        ] + Lines.layout("S", "M", "D"))
    }

    @Test("split: a transition to compact width collapses it: the primary gets the full size, the secondary is not messaged")
    func splitCollapses() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": { "children": ["M1"] }, "M1": {}, "D": {} },
              "steps": [ { "transition": { "size": [507, 768], "traits": { "horizontalSizeClass": "compact" } } } ] }
            """)
        #expect(trace[step: 1] == [
            "S willTransition(to: \(Pad.compactWidth))",
            "M willTransition(to: \(Pad.compactWidth))",
            "M1 willTransition(to: \(Pad.compactWidth))",
            "S viewWillTransition(to: 507x768)",
            "S sizeForChild(M, parent: 507x768) -> 507x768",
            "M viewWillTransition(to: 507x768)",
            "M sizeForChild(M1, parent: 507x768) -> 507x768",
            "M1 viewWillTransition(to: 507x768)",
            "S traitCollectionDidChange(previous: \(Pad.regular))",
            "M traitCollectionDidChange(previous: \(Pad.regular))",
            "M1 traitCollectionDidChange(previous: \(Pad.regular))",
        ] + Lines.layout("S", "M", "M1"))
    }

    /// Slide Over's 320 points: collapsing, the primary's size stays 320 wide (R4 skips it);
    /// expanding, both columns keep their sizes. Applying the new traits must not ask the
    /// columns again with the size the split view had before the transition (it answered 1024
    /// for the collapsed primary, and 0 — 54 from 375 — for the expanded secondary).
    @Test("split: collapsing and expanding in the same step as a size change sizes the columns once, with the new size",
          arguments: [320, 375])
    func splitCollapsesAndExpandsWithASizeChange(width: Int) async throws {
        let scenario = """
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": {} },
              "steps": [ { "transition": { "size": [\(width), 768], "traits": { "horizontalSizeClass": "compact" } } },
                         { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } } ] }
            """
        let trace = try await Scenarios.run(scenario)
        let primaryChanges = width != 320
        #expect(trace[step: 1] == [
            "S willTransition(to: \(Pad.compactWidth))",
            "M willTransition(to: \(Pad.compactWidth))",
            "S viewWillTransition(to: \(width)x768)",
            "S sizeForChild(M, parent: \(width)x768) -> \(width)x768",
        ] + (primaryChanges ? ["M viewWillTransition(to: \(width)x768)"] : []) + [
            "S traitCollectionDidChange(previous: \(Pad.regular))",
            "M traitCollectionDidChange(previous: \(Pad.regular))",
        ] + (primaryChanges ? Lines.layout("S", "M") : Lines.layout("S")))
        #expect(trace[step: 2] == [
            "S willTransition(to: \(Pad.regular))",
            "M willTransition(to: \(Pad.regular))",
            "S viewWillTransition(to: 1024x768)",
            "S sizeForChild(M, parent: 1024x768) -> 320x768",
        ] + (primaryChanges ? ["M viewWillTransition(to: 320x768)"] : []) + [
            "S sizeForChild(D, parent: 1024x768) -> 703x768",
            "S traitCollectionDidChange(previous: \(Pad.compactWidth))",
            "M traitCollectionDidChange(previous: \(Pad.compactWidth))",
        ] + (primaryChanges ? Lines.layout("S", "M") : Lines.layout("S")))
        #expect(trace.laidOutFrames(step: 1) == ["S 0,0 \(width)x768"] + (primaryChanges ? ["M 0,0 \(width)x768"] : []))
    }

    @Test("split: in a compact window from the start only the primary is laid out and messaged, at the full size")
    func splitCompactFromTheStart() async throws {
        let trace = try await Scenarios.run("""
            { "window": { "size": [375, 1024], "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular",
                                                           "userInterfaceIdiom": "pad", "displayScale": 2 } },
              "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": {} },
              "steps": [ { "resizeWindow": [320, 1024] } ] }
            """)
        #expect(trace.lines(step: 0, kinds: ["sizeForChild"]) == [])
        #expect(trace.laidOutFrames(step: 0) == ["S 0,0 375x1024", "M 0,0 375x1024"])
        #expect(trace[step: 1] == [
            "S viewWillTransition(to: 320x1024)",
            "S sizeForChild(M, parent: 320x1024) -> 320x1024",
            "M viewWillTransition(to: 320x1024)",
        ] + Lines.layout("S", "M"))
    }
}

/// R42 with containers that are not on screen: UIKit sends appearance callbacks as views join
/// or leave the window, so a push, pop or tab switch inside an unselected tab sends none, and
/// the controller it leaves on top appears with its tab, once.
@Suite("R42: appearance callbacks only for what is on screen")
struct OffScreenAppearanceTests {
    static let tabs = """
        { \(Phone.window), "root": "T",
          "controllers": { "T": { "kind": "tab", "children": ["N", "Other"] },
                           "N": { "kind": "navigation", "children": ["Inbox"] }, "Inbox": {}, "Message": {}, "Other": {} },
          "steps": [ { "select": "T", "index": 1 }, { "push": "Message", "onto": "N" }, { "select": "T", "index": 0 },
                     { "pop": "N" }, { "select": "T", "index": 1 }, { "pop": "N" } ] }
        """

    @Test("a push inside an unselected tab sends no appearance callback; the pushed controller appears with its tab, once")
    func pushInAnUnselectedTab() async throws {
        let trace = try await Scenarios.run(Self.tabs)
        let kinds: Set<String> = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        // UITabBarController's order: the new child's viewWillAppear first, its viewDidAppear last.
        #expect(trace.lines(step: 1, kinds: kinds) == [
            "Other viewWillAppear", "N viewWillDisappear", "Inbox viewWillDisappear",
            "N viewDidDisappear", "Inbox viewDidDisappear", "Other viewDidAppear",
        ])
        #expect(trace.lines(step: 2, kinds: kinds) == [])
        #expect(trace.lines(step: 3, kinds: kinds) == [
            "N viewWillAppear", "Message viewWillAppear", "Other viewWillDisappear",
            "Other viewDidDisappear", "N viewDidAppear", "Message viewDidAppear",
        ])
        // On screen, a pop sends them in UINavigationController's order: the old top's
        // viewDidDisappear before the revealed controller's viewDidAppear.
        #expect(trace.lines(step: 4, kinds: kinds) == [
            "Message viewWillDisappear", "Inbox viewWillAppear", "Message viewDidDisappear", "Inbox viewDidAppear",
        ])
        // Off screen again: a pop with nothing above the root is the usual warning, and silent.
        #expect(trace.lines(step: 6, kinds: kinds) == [])
    }

    @Test("R41: a push, pop or tab switch under a full-screen presentation is silent; what it left on top appears on dismissal, once")
    func underACoveringPresentation() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["N", "Other"] },
                               "N": { "kind": "navigation", "children": ["Inbox"] }, "Inbox": {}, "Message": {}, "Draft": {},
                               "Other": {}, "P": { "modalPresentationStyle": "fullScreen" } },
              "steps": [ { "present": "P", "from": "Inbox" }, { "push": "Message", "onto": "N" }, { "push": "Draft", "onto": "N" },
                         { "pop": "N" }, { "select": "T", "index": 1 }, { "select": "T", "index": 0 }, { "dismiss": "P" } ] }
            """)
        let kinds: Set<String> = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        for step in 2...6 {
            #expect(trace.lines(step: step, kinds: kinds) == [], "step \(step)")
        }
        #expect(trace.lines(step: 7, kinds: kinds) == [
            "P viewWillDisappear", "T viewWillAppear", "N viewWillAppear", "Message viewWillAppear",
            "T viewDidAppear", "N viewDidAppear", "Message viewDidAppear", "P viewDidDisappear",
        ])
    }

    @Test("R41: a tab's child that a covering presentation removed is silent when tabs switch, and reappears only when shown")
    func aCoveredTabChild() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["N", "Other"] },
                               "N": { "kind": "navigation", "children": ["Inbox"] }, "Inbox": {}, "Other": {},
                               "P": { "modalPresentationStyle": "currentContext" } },
              "steps": [ { "present": "P", "from": "Inbox" }, { "select": "T", "index": 1 }, { "dismiss": "P" },
                         { "select": "T", "index": 0 }, { "present": "P", "from": "Inbox" }, { "select": "T", "index": 1 },
                         { "select": "T", "index": 0 }, { "dismiss": "P" } ] }
            """)
        let kinds: Set<String> = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        #expect(trace.lines(step: 1, kinds: kinds) == [
            "N viewWillDisappear", "Inbox viewWillDisappear", "P viewWillAppear", "P viewDidAppear",
            "N viewDidDisappear", "Inbox viewDidDisappear",
        ])
        // N disappeared when it was covered: leaving its tab sends it nothing more.
        #expect(trace.lines(step: 2, kinds: kinds) == ["Other viewWillAppear", "Other viewDidAppear"])
        // Dismissed while its tab is not selected: N is not on screen, so it does not appear here…
        #expect(trace.lines(step: 3, kinds: kinds) == ["P viewWillDisappear", "P viewDidDisappear"])
        // …but with its tab.
        #expect(trace.lines(step: 4, kinds: kinds) == [
            "N viewWillAppear", "Inbox viewWillAppear", "Other viewWillDisappear", "Other viewDidDisappear",
            "N viewDidAppear", "Inbox viewDidAppear",
        ])
        // Covered again: its tab selected again does not make it appear under the presentation…
        #expect(trace.lines(step: 7, kinds: kinds) == ["Other viewWillDisappear", "Other viewDidDisappear"])
        // …the dismissal does, once.
        #expect(trace.lines(step: 8, kinds: kinds) == [
            "P viewWillDisappear", "N viewWillAppear", "Inbox viewWillAppear", "N viewDidAppear", "Inbox viewDidAppear",
            "P viewDidDisappear",
        ])
    }

    @Test("R41: a split view's secondary that a covering presentation removed is silent when showDetail replaces it")
    func aCoveredSecondaryReplaced() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "D"] }, "M": {}, "D": { "definesPresentationContext": true },
                               "E": {}, "P": { "modalPresentationStyle": "currentContext" } },
              "steps": [ { "present": "P", "from": "D" }, { "showDetail": "E", "from": "M" } ] }
            """)
        let kinds: Set<String> = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        #expect(trace.lines(step: 1, kinds: kinds) == ["D viewWillDisappear", "P viewWillAppear", "P viewDidAppear", "D viewDidDisappear"])
        // D disappeared when it was covered: replacing it sends it nothing more.
        #expect(trace.lines(step: 2, kinds: kinds) == ["E viewWillAppear", "E viewDidAppear"])
    }

    @Test("§3.2: a collapse or an expansion sends no appearance callbacks, so a push in a collapsed secondary sends its own, and every controller's stay paired")
    func pushesInACollapsedSecondaryStayPaired() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "S",
              "controllers": { "S": { "kind": "split", "children": ["M", "N"] }, "M": {},
                               "N": { "kind": "navigation", "children": ["D"] }, "D": {}, "E": {}, "F": {} },
              "steps": [ { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } },
                         { "push": "E", "onto": "N" },
                         { "transition": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular" } } },
                         { "push": "F", "onto": "N" }, { "pop": "N" }, { "pop": "N" } ] }
            """)
        let kinds: Set<String> = ["viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear"]
        #expect(trace.lines(step: 1, kinds: kinds).isEmpty)
        #expect(trace.lines(step: 2, kinds: kinds) == ["D viewWillDisappear", "E viewWillAppear", "D viewDidDisappear", "E viewDidAppear"])
        #expect(trace.lines(step: 3, kinds: kinds).isEmpty)
        #expect(trace.lines(step: 4, kinds: kinds) == ["E viewWillDisappear", "F viewWillAppear", "E viewDidDisappear", "F viewDidAppear"])
        #expect(trace.lines(step: 5, kinds: kinds) == ["F viewWillDisappear", "E viewWillAppear", "F viewDidDisappear", "E viewDidAppear"])
        #expect(trace.lines(step: 6, kinds: kinds) == ["E viewWillDisappear", "D viewWillAppear", "E viewDidDisappear", "D viewDidAppear"])
    }

    @Test("the rule: a tab's unselected child and a navigation controller's non-top are off screen, and what is under them")
    func rule() async throws {
        let scenario = try ScenarioDecoder.decode(Self.tabs, file: "tabs.json")
        let window = try await Window(ScenarioRunner.hierarchy(of: scenario))
        let structure = await window.structure
        #expect(structure.isOnScreen("Inbox", coveredPresenters: []))
        #expect(!structure.isOnScreen("Other", coveredPresenters: []))
        #expect(!structure.isOnScreen("Message", coveredPresenters: []))
    }

    @Test("the rule: in the window, a collapsed split view shows its primary only, and what is under it; on screen for appearance, both")
    func ruleOfACollapsedSplit() {
        let structure = HierarchyStructure(root: "S", nodes: [
            .init(id: "S", kind: .split, children: ["M", "N"]), .init(id: "M"),
            .init(id: "N", kind: .navigation, children: ["D"]), .init(id: "D")])
        #expect(structure.splits == ["S"])
        #expect(structure.isInWindow("D", collapsedSplits: []))
        #expect(structure.isInWindow("M", collapsedSplits: ["S"]))
        #expect(!structure.isInWindow("N", collapsedSplits: ["S"]))
        #expect(!structure.isInWindow("D", collapsedSplits: ["S"]))
        #expect(structure.isOnScreen("D", coveredPresenters: []))
    }
}
