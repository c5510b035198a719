import Testing
import TrellisTestKit

/// Router rules tested one controller at a time (dogfood of the single-controller kit).
@Suite struct SingleControllerRuleTests {
    struct NoSuper: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {}
    }

    struct ForwardToSecondOnly: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            await vc.forwardViewWillTransition(toChild: "A2", size: Size(100, 100), with: coordinator)
        }
    }

    struct FixedChild: ViewControllerBehavior {
        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            child == "K" ? Size(200, 200) : parentSize
        }
    }

    @Test func r2DefaultForwardingAsksSizeForChildRightBeforeEachChild() async {
        let vc = await ControllerUnderTest("R", children: ["A", "B"], presenting: "P", size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        #expect(report.lines.prefix(6) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",  // R6: the presenter's own size, no SFC
        ])
        #expect(report.suppressed == nil)
    }

    @Test func r8NoSuperCutsChildrenAndPresentation() async {
        let vc = await ControllerUnderTest("A", children: ["A1"], presenting: "P", behavior: NoSuper(), size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        #expect(report.forwarded.isEmpty)
        #expect(report.suppressed == ["A1", "pc:P"])
    }

    @Test func r9ManualForwardingChoosesChildAndSize() async {
        let vc = await ControllerUnderTest("A", children: ["A1", "A2"], behavior: ForwardToSecondOnly(), size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        #expect(report.forwardedSizes == ["A2": Size(100, 100)])
        #expect(report.queries.isEmpty)  // no SFC unless the override asks
        #expect(report.suppressed == ["A1"])
    }

    @Test func r4UnchangedChildSizeIsSkipped() async {
        let vc = await ControllerUnderTest("R", children: ["K", "L"], behavior: FixedChild(), size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        #expect(report.forwardedSizes == ["L": Size(568, 320)])
        #expect(report.queries.map(\.child) == ["K", "L"])
    }

    @Test func r22PreferredSizeGoesOneLevelUp() async {
        let vc = await ControllerUnderTest("V", size: Size(320, 568))
        let report = await vc.setPreferredContentSize(Size(300, 500))
        #expect(report.askedOfContainer == [.preferredContentSizeDidChange(child: "V", preferredSize: Size(300, 500))])
        let again = await vc.setPreferredContentSize(Size(300, 500))
        #expect(again.askedOfContainer.isEmpty)  // only a different value is sent
    }

    @Test func r13TraitsReachOnlyChildrenWhoseTraitsChange() async {
        let vc = await ControllerUnderTest(
            "X", children: ["Y", "Z"], traitOverrides: ["Y": TraitCollection(horizontalSizeClass: .regular)],
            size: Size(768, 1024), traits: WindowSetup.iPadPortrait.traits)
        var compact = WindowSetup.iPadPortrait.traits
        compact.horizontalSizeClass = .compact
        let report = await vc.willTransition(to: compact)
        // Y's override hides the change (R17); the probe still sees the trait walk reach it.
        #expect(report.traitsDelivered["Z"]?.horizontalSizeClass == .compact)
        #expect(report.traitsDelivered["Y"]?.horizontalSizeClass == .regular)
        #expect(report.lines.first == "X willTransition(to: h=compact v=regular idiom=pad scale=2)")
    }
}
