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
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: parent, horizontal: .regular) == Size(703, 768))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: parent, horizontal: .compact) == parent)
        // Narrower than a primary column: the primary takes it all, the secondary nothing.
        #expect(ContainerRules.defaultSize(.split, forChildAt: 0, parentSize: Size(200, 100), horizontal: .regular) == Size(200, 100))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: Size(200, 100), horizontal: .regular) == Size(0, 100))
    }

    @Test func originsPlaceTheSecondaryColumnAfterThePrimary() {
        let sizes = [Size(320, 768), Size(703, 768)]
        #expect(ContainerRules.origins(.split, layout: .overlay, children: ["M", "D"], sizes: sizes, visible: 0..<2)
            == [.zero, Point(x: 321, y: 0)])
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

    /// R{S split [M, D]}; E is not in any container; M is of `primary` kind.
    func splitStructure(children: [ControllerID] = ["M", "D"], primary: ContainerKind = .view) -> HierarchyStructure {
        HierarchyStructure(root: "R", nodes: [
            .init(id: "R", children: ["S"]),
            .init(id: "S", kind: .split, parent: "R", children: children),
            .init(id: "M", kind: primary, parent: "S"), .init(id: "D", parent: "S"), .init(id: "E"),
        ])
    }

    @Test func showDetailOutcomes() {
        let structure = splitStructure()
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .regular, in: structure) == .replaceSecondary(of: "S"))
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .unspecified, in: structure) == .replaceSecondary(of: "S"))
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .regular, in: splitStructure(primary: .navigation))
            == .replaceSecondary(of: "S"))
        // §3.2, R57: collapsed, forwarded to the controller being replaced (the primary column, the
        // secondary collapsed onto it): a navigation controller pushes; any other primary, or
        // none, and the split view itself presents modally — not the window's root, not `show`.
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .compact, in: splitStructure(primary: .navigation))
            == .push(onto: "M"))
        for kind in ContainerKind.allCases where kind != .navigation {
            #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .compact, in: splitStructure(primary: kind))
                == .present(from: "S"), "a collapsed split view whose primary is a \(kind) presents")
        }
        #expect(ContainerRules.showDetailOutcome(handler: "S", horizontal: .compact, in: splitStructure(children: [])) == .present(from: "S"))
        // R56: nobody handles it: the window's root presents.
        #expect(ContainerRules.showDetailOutcome(handler: nil, horizontal: .regular, in: structure) == .present(from: "R"))
        #expect(ContainerRules.showDetailOutcome(handler: nil, horizontal: .compact, in: structure) == .present(from: "R"))
        #expect(structure.showDetailHandler(from: "M") == "S")
        #expect(structure.showDetailHandler(from: "E") == nil)
    }

    @Test func theSplitDividerIsOnePointAndEverySizeAndOriginDerivesFromIt() {
        // §3.2, R61: UIKit logs show 703 × 768 beside a 320-point primary in 1024 × 768, 447 in 768.
        #expect(ContainerRules.splitDividerWidth == 1)
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: Size(1024, 768), horizontal: .regular) == Size(703, 768))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: Size(768, 1024), horizontal: .regular) == Size(447, 1024))
        #expect(ContainerRules.defaultSize(.split, forChildAt: 1, parentSize: Size(320.5, 10), horizontal: .regular) == Size(0, 10))
        let width = ContainerRules.splitPrimaryWidth
        let origins = ContainerRules.origins(.split, layout: .overlay, children: ["M", "D"],
                                             sizes: [Size(width, 768), Size(703, 768)], visible: 0..<2)
        #expect(origins == [.zero, Point(x: width + ContainerRules.splitDividerWidth, y: 0)])
        #expect(origins[1] == Point(x: 321, y: 0))
        // The divider lies between the columns, the container's height; none when collapsed or for other kinds.
        let primary = Rect(x: 0, y: 0, width: width, height: 768)
        #expect(ContainerRules.divider(.split, visible: 0..<2, primary: primary, containerSize: Size(1024, 768))
            == Rect(x: 320, y: 0, width: 1, height: 768))
        #expect(ContainerRules.divider(.split, visible: 0..<1, primary: primary, containerSize: Size(1024, 768)) == nil)
        for kind in ContainerKind.allCases where kind != .split {
            #expect(ContainerRules.divider(kind, visible: 0..<2, primary: primary, containerSize: Size(1024, 768)) == nil)
        }
    }
}
