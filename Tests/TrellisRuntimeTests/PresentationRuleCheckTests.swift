import Testing
import TrellisModel
@testable import TrellisRuntime

/// R30, R31 and R48's checks as pure functions of values (the scenario suites show them
/// through traces): each decides from the structure and traits alone.
@Suite struct PresentationRuleCheckTests {
    /// R{A}, R presents P; B is in no window hierarchy.
    func structure() -> HierarchyStructure {
        var structure = HierarchyStructure(root: "R", nodes: [
            .init(id: "R", children: ["A"]), .init(id: "A", parent: "R"), .init(id: "P"), .init(id: "Q"),
            .init(id: "B"), .init(id: "S", hasPopoverSource: true),
        ])
        structure.update("R") { $0.presented = "P" }
        structure.update("P") { $0.presenting = "R" }
        return structure
    }

    @Test func r31RefusalsAreWordedAsUIKitWordsThem() throws {
        let structure = structure()
        let node = { (id: ControllerID) in try #require(structure[id]) }
        #expect(PresentationRules.presentationRefusal(of: try node("Q"), on: "A", in: structure) == nil)
        #expect(PresentationRules.presentationRefusal(of: try node("A"), on: "A", in: structure)
            == "Application tried to present modally a view controller A on itself")
        #expect(PresentationRules.presentationRefusal(of: try node("P"), on: "A", in: structure)
            == "Application tried to present modally a view controller P that is already being presented by R")
        #expect(PresentationRules.presentationRefusal(of: try node("A"), on: "P", in: structure)
            == "Application tried to present modally a view controller A that is a child of R")
        #expect(PresentationRules.presentationRefusal(of: try node("R"), on: "A", in: structure)
            == "Application tried to present modally the window's root view controller R")
        #expect(PresentationRules.presentationRefusal(of: try node("Q"), on: "B", in: structure)
            == "Attempt to present Q on B whose view is not in the window hierarchy")
    }

    /// A controller a container does not show has its view in no window: a tab bar
    /// controller's other tab, a navigation controller's controller below its top. Shown ones
    /// present (the selected tab, the top, a split's columns).
    @Test func aControllerItsContainerDoesNotShowIsNotInTheWindowHierarchy() throws {
        let structure = HierarchyStructure(root: "T", nodes: [
            .init(id: "T", kind: .tab, children: ["N", "B"]), .init(id: "N", kind: .navigation, parent: "T", children: ["N1", "N2"]),
            .init(id: "N1", parent: "N"), .init(id: "N2", parent: "N"), .init(id: "B", parent: "T"), .init(id: "Q"),
        ])
        let q = try #require(structure["Q"])
        #expect(PresentationRules.presentationRefusal(of: q, on: "N2", in: structure) == nil)
        #expect(PresentationRules.presentationRefusal(of: q, on: "N", in: structure) == nil)
        #expect(PresentationRules.presentationRefusal(of: q, on: "N1", in: structure) == "Attempt to present Q on N1 whose view is not in the window hierarchy")
        #expect(PresentationRules.presentationRefusal(of: q, on: "B", in: structure) == "Attempt to present Q on B whose view is not in the window hierarchy")
    }

    /// R49: a presented controller its adaptive wrapper holds is in the window: it may present.
    @Test func aWrappedPresentedControllerIsInTheWindowHierarchy() throws {
        var structure = structure()
        structure.insert(.init(id: "wrap:P", kind: .navigation, children: ["P"]))
        structure.update("P") { $0.parent = "wrap:P" }
        let q = try #require(structure["Q"])
        #expect(structure.isInHierarchy("P"))
        #expect(PresentationRules.presentationRefusal(of: q, on: "P", in: structure) == nil)
        #expect(PresentationRules.presentationRefusal(of: q, on: "B", in: structure) != nil)
    }

    /// §6.5 rule 3 at run time: a copy no container shows gives way to the latest earlier copy
    /// shown, else the file's controller; a file's own id that looks like a copy is never one.
    @Test func aHiddenCopyGivesWayToTheLatestShownOne() {
        let structure = HierarchyStructure(root: "T", nodes: [
            .init(id: "T", kind: .tab, children: ["N", "Page~1", "Page~2"]),
            .init(id: "N", kind: .navigation, parent: "T", children: ["Item", "Item~1"]),
            .init(id: "Item", parent: "N"), .init(id: "Item~1", parent: "N"), .init(id: "Item~2"), .init(id: "Item~3"),
            .init(id: "Page~1", parent: "T"), .init(id: "Page~2", parent: "T"),
        ])
        let lineage = SegueCopyLineage(copiedFrom: ["Item~1": "Item", "Item~2": "Item", "Item~3": "Item"], order: ["T", "Item~1", "Item~2", "Item~3"])
        #expect(lineage.shownInstead(of: "Item~3", in: structure) == "Item~1")
        #expect(lineage.shownInstead(of: "Item~1", in: structure) == nil)  // shown: used as read
        #expect(lineage.shownInstead(of: "Page~2", in: structure) == nil)  // the file's own id
        var popped = structure
        popped.update("N") { $0.children = ["Item"] }
        popped.update("Item~1") { $0.parent = nil }
        #expect(lineage.shownInstead(of: "Item~2", in: popped) == "Item")
    }

    @Test func r31APopoverNeedsASourceInRegularWidthOnly() throws {
        let structure = structure()
        let regular = TraitCollection(horizontalSizeClass: .regular), compact = TraitCollection(horizontalSizeClass: .compact)
        let q = try #require(structure["Q"]), s = try #require(structure["S"])
        #expect(PresentationRules.popoverSourceRefusal(of: q, style: .popover, windowTraits: regular)
            == "popover presentation of Q needs a sourceView or sourceRect in regular width")
        #expect(PresentationRules.popoverSourceRefusal(of: q, style: .popover, windowTraits: compact) == nil)
        #expect(PresentationRules.popoverSourceRefusal(of: s, style: .popover, windowTraits: regular) == nil)
        #expect(PresentationRules.popoverSourceRefusal(of: q, style: .formSheet, windowTraits: regular) == nil)
    }

    @Test func r31NoneIsNoPresentationStyle() {
        for style in ModalPresentationStyle.allCases {
            #expect((PresentationRules.styleRefusal(of: "Q", style: style) != nil) == (style == .none), "\(style)")
        }
    }

    @Test func r30APresenterPresentsOneControllerAtATime() {
        let structure = structure()
        #expect(PresentationRules.alreadyPresentingWarning(presenting: "Q", on: "R", from: "A", in: structure)
            == "Attempt to present Q on R (from A) which is already presenting P")
        #expect(PresentationRules.alreadyPresentingWarning(presenting: "Q", on: "A", from: "A", in: structure) == nil)
    }

    @Test func r48ASizeClassChangeAsksAgain() {
        let regular = TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular)
        let compactWidth = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular)
        let compactHeight = TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .compact)
        for profile in AdaptationProfile.allCases {
            #expect(PresentationRules.asksAgainForAdaptiveStyle(from: regular, to: compactWidth, profile: profile))
            #expect(!PresentationRules.asksAgainForAdaptiveStyle(from: regular, to: regular, profile: profile))
        }
        // Only ios13 adapts to compact height, so only it asks again when the height class changes.
        #expect(!PresentationRules.asksAgainForAdaptiveStyle(from: regular, to: compactHeight, profile: .ios8))
        #expect(PresentationRules.asksAgainForAdaptiveStyle(from: regular, to: compactHeight, profile: .ios13))
    }

    @Test func styleTablesNameEveryStyle() {
        // The tables whose default: arms became named cases keep their answers.
        #expect(ModalPresentationStyle.allCases.filter { PresentationRules.asksForAdaptiveStyle($0, hasDelegate: false) }
            == [.pageSheet, .formSheet, .currentContext, .overCurrentContext, .popover])
        #expect(ModalPresentationStyle.allCases.filter { PresentationRules.removesPresenterViews($0, customRemovesPresentersView: false) }
            == [.fullScreen, .currentContext])
        #expect(ModalPresentationStyle.allCases.filter { !PresentationRules.needsFullScreenPresenter($0, customPresentsInFullscreen: false) }
            == [.currentContext, .custom, .overCurrentContext])
        #expect(PresentationRules.resolvedStyle(nil, profile: .ios8) == .fullScreen)
        #expect(PresentationRules.resolvedStyle(nil, profile: .ios13) == .pageSheet)
        #expect(PresentationRules.resolvedStyle(.popover, profile: .ios13) == .popover)
        let window = Size(1024, 768)
        #expect(PresentationRules.defaultGrant(style: .formSheet, windowSize: window, traits: TraitCollection(horizontalSizeClass: .regular)) == .clamp(window))
        #expect(PresentationRules.defaultGrant(style: .formSheet, windowSize: window, traits: TraitCollection(horizontalSizeClass: .compact)) == GrantPolicy.none)
        #expect(PresentationRules.defaultGrant(style: .pageSheet, windowSize: window, traits: TraitCollection(horizontalSizeClass: .regular)) == GrantPolicy.none)
    }
}
