import TrellisModel
import TrellisRuntime
import TrellisTestKit
import XCTest

/// The kit under XCTest: the same calls, failures arrive as thrown errors with the diff.
final class XCTestUsageTests: XCTestCase {
    func testHierarchyStoreUnderXCTest() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A") }
        })
        try await store.resizeWindow(to: Size(568, 320))
        try store.expect(["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"], kinds: nil)
        try store.finish()
    }

    func testAFailingExpectationThrowsTheDiff() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) { ViewController("R") })
        try await store.resizeWindow(to: Size(568, 320))
        XCTAssertThrowsError(try store.expect(["R viewWillTransition(to: 1x1)"], kinds: nil)) { error in
            XCTAssertTrue("\(error)".contains("   1   - R viewWillTransition(to: 1x1)"))
            XCTAssertTrue("\(error)".contains("       + R viewWillTransition(to: 568x320)"))
        }
    }

    func testSingleControllerUnderXCTest() async {
        let vc = await ControllerUnderTest("N", kind: .navigation, children: ["V1", "V2"], size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        XCTAssertEqual(report.forwardedSizes, ["V2": Size(568, 320)])  // navigation: the top only
    }
}
