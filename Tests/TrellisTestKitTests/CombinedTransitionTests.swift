import Testing
import TrellisTestKit

/// R14 with the single-controller kits: one transition carrying a new size and new traits, as
/// a rotation does — the trait pass, then the size pass, then the traits apply, then layout.
@Suite struct CombinedTransitionTests {
    @Test("R14: a controller under test rotates: willTransition, viewWillTransition, traitCollectionDidChange, layout")
    func controllerUnderTestRotates() async {
        let vc = await ControllerUnderTest("R", children: ["A"], size: Size(320, 568))
        let report = await vc.transition(to: Size(568, 320), traits: WindowSetup.iPhoneLandscape.traits)
        report.expect(lines: [
            "R willTransition(to: h=compact v=compact idiom=phone scale=2)",
            "A willTransition(to: h=compact v=compact idiom=phone scale=2)",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "R traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
        ])
        #expect(report.forwardedSizes == ["A": Size(568, 320)])
        #expect(report.traitsDelivered["A"] == WindowSetup.iPhoneLandscape.traits)
        await vc.expectState(ExpectedState(size: Size(568, 320), traits: WindowSetup.iPhoneLandscape.traits))
    }

    @Test("R14 + R48: a presentation controller under test rotates into compact width and adapts")
    func presentationControllerUnderTestRotates() async {
        let pc = await PresentationControllerUnderTest(style: .formSheet, containerSize: Size(1024, 768))
        var compact = WindowSetup.iPadPortrait.traits
        compact.horizontalSizeClass = .compact
        let report = await pc.transition(to: Size(768, 1024), traits: compact)
        report.expect(lines: [
            "pc:P willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "pc:P adaptivePresentationStyle -> fullScreen",
            "pc:P willPresentWithAdaptiveStyle(fullScreen)",
            "P willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "pc:P viewWillTransition(to: 768x1024)",
            "pc:P sizeForChild(P, parent: 768x1024) -> 768x1024",
            "P viewWillTransition(to: 768x1024)",
            "pc:P traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
            "pc:P containerViewWillLayoutSubviews",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 768x1024",
            "pc:P containerViewDidLayoutSubviews",
        ])
    }
}
