// docs/testing.md, part 2: the tests import only Testing and TrellisTestKit.

import Testing
import TrellisTestKit

@Test func aloneItGrantsHalfAndSendsAReceipt() async {
    let vc = await ControllerUnderTest("N", children: ["V"], behavior: HalfGrant(), size: Size(400, 400))
    let report = await vc.preferredContentSizeDidChange(forChild: "V", preferredSize: Size(400, 600))
    #expect(report.forwardedSizes == ["V": Size(400, 500)])          // the receipt
    #expect(report.askedOfContainer.isEmpty)                          // R22: one level only
}

@Test func inAHierarchyTheChildKeepsWhatItAskedFor() async throws {
    let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
        ViewController("R", behavior: HalfGrant()) {
            ViewController("V") { ViewController("V1") }
        }
    })
    await store.setPreferredContentSize(Size(320, 700), of: "V")
    store.expect([
        "R preferredContentSizeDidChange(forChild: V)",
        "V viewWillTransition(to: 320x634)",
        "V sizeForChild(V1, parent: 320x634) -> 320x634",
        "V1 viewWillTransition(to: 320x634)",
        "R viewWillLayoutSubviews",
        "R viewDidLayoutSubviews",
        "V viewWillLayoutSubviews",
        "V viewDidLayoutSubviews",
        "V1 viewWillLayoutSubviews",
        "V1 viewDidLayoutSubviews",
    ])
    await store.expectState(of: "V", ExpectedState(size: Size(320, 634), preferredContentSize: Size(320, 700)))  // R26
    await store.finish()
}
