import TrellisTestKit
import XCTest

/// The kit under XCTest: the same calls; a failed expectation would be `XCTFail` at its line
/// (XCTest on Linux cannot expect a failure, so the user's-package check in docs/testing.md
/// shows one).
final class XCTestUsageTests: XCTestCase {
    func testHierarchyStoreUnderXCTest() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A") }
        })
        await store.resizeWindow(to: Size(568, 320))
        store.expect(["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"], kinds: nil)
        await store.finish()
    }

    func testFailuresInAnXCTestMethodGoToXCTest() {
        XCTAssertEqual(TestKitIssue.framework, .xcTest)
    }

    func testSingleControllerUnderXCTest() async {
        let vc = await ControllerUnderTest("N", kind: .navigation, children: ["V1", "V2"], size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        XCTAssertEqual(report.forwardedSizes, ["V2": Size(568, 320)])  // navigation: the top only
    }
}
