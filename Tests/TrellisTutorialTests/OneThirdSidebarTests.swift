// docs/testing.md, part 1: the tests import only Testing and TrellisTestKit.

import Testing
import TrellisTestKit

@Test func aloneItGivesAThirdOfTheWidth() async {
    let pc = await PresentationControllerUnderTest(
        presented: "S", style: .custom,
        description: PresentationControllerDescription(behavior: OneThirdSidebar()),
        containerSize: Size(1024, 768))
    let report = await pc.viewWillTransition(to: Size(768, 1024))
    #expect(report.queries.map(\.answer) == [Size(256, 1024)])
    #expect(report.forwardedSizes == ["S": Size(256, 1024)])
    report.expect(lines: [
        "pc:S viewWillTransition(to: 768x1024)",
        "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",
        "S viewWillTransition(to: 256x1024)",
        "pc:S containerViewWillLayoutSubviews",
        "pc:S frameOfPresentedViewInContainerView -> 512,0 256x1024",
        "pc:S containerViewDidLayoutSubviews",
    ])
}

@Test func inAHierarchyItRotatesWithItsPresenter() async throws {
    let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
        ViewController("R")
        ViewController("S", modalPresentationStyle: .custom,
                       presentationController: PresentationControllerDescription(behavior: OneThirdSidebar()))
    })
    await store.present("S", from: "R")
    store.expect([
        "R present(S, style: custom)",
        "S viewWillAppear",
        "pc:S presentationTransitionWillBegin(animated: true)",
        "pc:S containerViewWillLayoutSubviews",
        "pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768",
        "pc:S containerViewDidLayoutSubviews",
        "S viewWillLayoutSubviews",
        "S viewDidLayoutSubviews",
        "pc:S presentationTransitionDidEnd(completed: true)",
        "S viewDidAppear",
        "R presentCompletion(S)",
    ])
    await store.resizeWindow(to: Size(768, 1024))
    store.expect([
        "R viewWillTransition(to: 768x1024)",
        "pc:S viewWillTransition(to: 768x1024)",
        "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",
        "S viewWillTransition(to: 256x1024)",
    ], kinds: nil)
    await store.expectState(of: "S", ExpectedState(size: Size(256, 1024)))
    await store.finish()
}

/// The same window for the tests that follow: R, and S ready to be presented in the sidebar.
func sidebarHierarchy() -> HierarchyDescription {
    HierarchyDescription(.iPadLandscape) {
        ViewController("R")
        ViewController("S", modalPresentationStyle: .custom,
                       presentationController: PresentationControllerDescription(behavior: OneThirdSidebar()))
    }
}
