// The test kit's Testing article, part 4: the tests import only Testing and TrellisTestKit.

import Testing
import TrellisTestKit

@Test func aloneItHalvesTheWidthAtTheFirstLayoutAndOnRotation() async {
    let vc = await ControllerUnderTest("R", children: ["A", "B"], behavior: SideBySide(), size: Size(1024, 768))
    #expect(await vc.childFrames["B"] == Rect(x: 512, y: 0, width: 512, height: 768))
    let report = await vc.viewWillTransition(to: Size(768, 1024))
    #expect(report.forwardedSizes == ["A": Size(384, 1024), "B": Size(384, 1024)])
    #expect(report.frames["B"] == Rect(x: 384, y: 0, width: 384, height: 1024))
}

@Test func inAHierarchyTheFirstLayoutAsksNoSize() async throws {
    let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
        ViewController("R", behavior: SideBySide()) {
            ViewController("A")
            ViewController("B")
        }
    }, expectInitialLayout: true)
    store.expect([], kinds: ["sizeForChild"])
    await store.expectState(of: "B", ExpectedState(size: Size(512, 768), frame: Rect(x: 512, y: 0, width: 512, height: 768)))
    await store.resizeWindow(to: Size(768, 1024))
    store.expect([
        "R sizeForChild(A, parent: 768x1024) -> 384x1024",
        "R sizeForChild(B, parent: 768x1024) -> 384x1024",
    ], kinds: ["sizeForChild"])
    await store.expectState(of: "B", ExpectedState(size: Size(384, 1024), frame: Rect(x: 384, y: 0, width: 384, height: 1024)))
    await store.finish()
}
