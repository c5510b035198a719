import Testing
import TrellisModel
import TrellisRuntime

/// The built-in containers' rules as pure functions (SPEC §3.2, R2, R3, R55–R57, R61): the
/// scenario suites show them through traces; these pin each rule's table directly.
@Suite struct ContainerRulesTests {
    @Test func forwardTargetsByKind() {
        #expect(ContainerRules.forwardTargets(.view, childCount: 3, selected: 0, horizontal: .regular) == 0..<3)
        #expect(ContainerRules.forwardTargets(.navigation, childCount: 3, selected: 0, horizontal: .regular) == 2..<3)
        #expect(ContainerRules.forwardTargets(.tab, childCount: 3, selected: 1, horizontal: .regular) == 1..<2)
        #expect(ContainerRules.forwardTargets(.tab, childCount: 3, selected: 3, horizontal: .regular) == 0..<0)
        #expect(ContainerRules.forwardTargets(.split, childCount: 2, selected: 0, horizontal: .regular) == 0..<2)
        #expect(ContainerRules.forwardTargets(.split, childCount: 2, selected: 0, horizontal: .unspecified) == 0..<2)
        #expect(ContainerRules.forwardTargets(.split, childCount: 2, selected: 0, horizontal: .compact) == 0..<1)
        #expect(ContainerRules.forwardTargets(.split, childCount: 1, selected: 0, horizontal: .regular) == 0..<1)
        for kind in ContainerKind.allCases {
            #expect(ContainerRules.forwardTargets(kind, childCount: 0, selected: 0, horizontal: .regular).isEmpty)
        }
    }

    @Test func onlyACompactSplitViewIsCollapsed() {
        for kind in ContainerKind.allCases {
            #expect(ContainerRules.isCollapsed(kind, horizontal: .compact) == (kind == .split))
            #expect(!ContainerRules.isCollapsed(kind, horizontal: .regular))
            #expect(ContainerRules.hasColumns(kind) == (kind == .split))
        }
        #expect(ContainerRules.columnsMayChange(.split, from: .regular, to: .compact))
        #expect(ContainerRules.columnsMayChange(.split, from: .unspecified, to: .regular))
        #expect(!ContainerRules.columnsMayChange(.split, from: .compact, to: .compact))
        #expect(!ContainerRules.columnsMayChange(.view, from: .regular, to: .compact))
    }

    @Test func defaultSizesSplitTheWidthOnlyInARegularSplitView() {
        let parent = Size(1024, 768)
        for kind in ContainerKind.allCases where kind != .split {
            #expect(ContainerRules.defaultSize(kind, forChildAt: 1, parentSize: parent, horizontal: .regular) == parent)
        }
        #expect(ContainerRules.defaultSize(.split, forChildAt: 0, parentSize: parent, horizontal: .regular) == Size(320, 768))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: parent, horizontal: .regular) == Size(704, 768))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: parent, horizontal: .compact) == parent)
        // Narrower than a primary column: the primary takes it all, the secondary nothing.
        #expect(ContainerRules.defaultSize(.split, forChildAt: 0, parentSize: Size(200, 100), horizontal: .regular) == Size(200, 100))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: Size(200, 100), horizontal: .regular) == Size(0, 100))
    }

    @Test func originsPlaceTheSecondaryColumnAfterThePrimary() {
        let sizes = [Size(320, 768), Size(704, 768)]
        #expect(ContainerRules.origins(.split, layout: .overlay, children: ["M", "D"], sizes: sizes, visible: 0..<2)
            == [.zero, Point(x: 320, y: 0)])
        #expect(ContainerRules.origins(.split, layout: .overlay, children: ["M", "D"], sizes: sizes, visible: 0..<1) == [.zero, .zero])
        #expect(ContainerRules.origins(.view, layout: .row, children: ["M", "D"], sizes: sizes, visible: 0..<2)
            == [.zero, Point(x: 320, y: 0)])
        #expect(ContainerRules.origins(.view, layout: .column, children: ["M", "D"], sizes: sizes, visible: 0..<2)
            == [.zero, Point(x: 0, y: 768)])
        #expect(ContainerRules.origins(.navigation, layout: .overlay, children: ["M", "D"], sizes: sizes, visible: 1..<2) == [.zero, .zero])
        #expect(ContainerRules.placesChildren(.split, layout: .overlay))
        #expect(!ContainerRules.placesChildren(.view, layout: .overlay))
        #expect(ContainerRules.placesChildren(.view, layout: .row))
        #expect(!ContainerRules.placesChildren(.tab, layout: .row))
    }

    @Test func structureRulesByKind() {
        #expect(ContainerKind.allCases.filter(ContainerRules.handlesShow) == [.navigation])
        #expect(ContainerKind.allCases.filter(ContainerRules.handlesShowDetail) == [.split])
        #expect(ContainerKind.allCases.filter(ContainerRules.hasSelection) == [.tab])
        #expect(ContainerKind.allCases.filter(ContainerRules.takesLayoutRule) == [.view])
        #expect(ContainerKind.allCases.filter(ContainerRules.definesPresentationContextByDefault) == [.navigation])
        #expect(ContainerRules.childCountRefusal(.split, count: 2) == nil)
        #expect(ContainerRules.childCountRefusal(.split, count: 3) == "a split controller has at most two children [primary, secondary], found 3")
        #expect(ContainerRules.childCountRefusal(.view, count: 3) == nil)
    }

    /// R{S split [M, D]}; E is not in any container.
    func splitStructure(children: [ControllerID] = ["M", "D"]) -> HierarchyStructure {
        HierarchyStructure(root: "R", nodes: [
            .init(id: "R", children: ["S"]),
            .init(id: "S", kind: .split, parent: "R", children: children),
            .init(id: "M", parent: "S"), .init(id: "D", parent: "S"), .init(id: "E"),
        ])
    }

    @Test func showDetailOutcomes() {
        let structure = splitStructure()
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .regular, in: structure) == .replaceSecondary(of: "S"))
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .unspecified, in: structure) == .replaceSecondary(of: "S"))
        // R57: collapsed, `show` from the primary column.
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .compact, in: structure) == .show(from: "M"))
        // R56: nobody handles it (or a collapsed split view has no column): the root presents.
        #expect(ContainerRules.showDetailOutcome(handler: nil, horizontal: .regular, in: structure) == .present(from: "R"))
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .compact, in: splitStructure(children: [])) == .present(from: "R"))
        #expect(structure.showDetailHandler(from: "M") == "S")
        #expect(structure.showDetailHandler(from: "E") == nil)
    }
}
