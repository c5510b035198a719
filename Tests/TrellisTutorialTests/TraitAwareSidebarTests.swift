// docs/testing.md, part 3: a stateful presentation controller with both kits.

import Testing
import TrellisTestKit

@Test func aloneItGoesFullWidthInCompactWidth() async {
    let pc = await PresentationControllerUnderTest(
        presented: "S", style: .custom,
        description: PresentationControllerDescription(behavior: TraitAwareSidebar()),
        containerSize: Size(1024, 768))
    var compact = WindowSetup.iPadLandscape.traits
    compact.horizontalSizeClass = .compact
    let report = await pc.transition(to: Size(320, 768), traits: compact)   // slide-over
    #expect(report.queries.map(\.answer) == [Size(320, 768)])
    #expect(report.frames["S"] == Rect(x: 0, y: 0, width: 320, height: 768))
    report.expect(lines: [
        "pc:S willTransition(to: h=compact v=regular idiom=pad scale=2)",
        "S willTransition(to: h=compact v=regular idiom=pad scale=2)",
        "pc:S viewWillTransition(to: 320x768)",
        "pc:S sizeForChild(S, parent: 320x768) -> 320x768",
        "S viewWillTransition(to: 320x768)",
        "pc:S traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
        "pc:S containerViewWillLayoutSubviews",
        "pc:S frameOfPresentedViewInContainerView -> 0,0 320x768",
        "pc:S containerViewDidLayoutSubviews",
    ])
}

@Test func inAHierarchyItFollowsTheWindowIntoCompactWidthAndBack() async throws {
    let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
        ViewController("R")
        ViewController("S", modalPresentationStyle: .custom,
                       presentationController: PresentationControllerDescription(behavior: TraitAwareSidebar()))
    })
    await store.present("S", from: "R")
    store.skipReceivedEvents()
    var compact = WindowSetup.iPadLandscape.traits
    compact.horizontalSizeClass = .compact
    await store.transition(to: Size(320, 768), traits: compact)
    store.expect([
        "pc:S sizeForChild(S, parent: 320x768) -> 320x768",
        "pc:S frameOfPresentedViewInContainerView -> 0,0 320x768",
    ], kinds: nil)
    await store.expectState(of: "S", ExpectedState(size: Size(320, 768), frame: Rect(x: 0, y: 0, width: 320, height: 768)))
    await store.transition(to: Size(1024, 768), traits: WindowSetup.iPadLandscape.traits)
    store.expect([
        "pc:S sizeForChild(S, parent: 1024x768) -> 341.333x768",
        "pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768",
    ], kinds: nil)
    await store.finish()
}
