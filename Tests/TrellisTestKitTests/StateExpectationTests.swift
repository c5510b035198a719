import Testing
import TrellisTestKit

/// State as well as trace: a controller's size, traits and preferred size, asserted field by
/// field with plain values in the diff.
@Suite struct StateExpectationTests {
    @Test func theStateOfAControllerInAHierarchyHolds() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R", grant: .all) { ViewController("V") }
        })
        await store.setPreferredContentSize(Size(320, 400), of: "V")
        store.skipReceivedEvents()
        await store.expectState(of: "V", ExpectedState(
            size: Size(320, 400), traits: WindowSetup.iPhonePortrait.traits, preferredContentSize: Size(320, 400)))
        #expect(await store.state(of: "R")?.size == Size(320, 568))
        await store.finish()
    }

    @Test func aWrongStateIsReportedFieldByFieldAtItsLine() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        store.skipReceivedEvents()
        let line = #line + 2
        await withKnownIssue {
            await store.expectState(of: "A", ExpectedState(size: Size(1024, 768), traits: WindowSetup.iPadLandscape.traits))
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID)
                && issue.text.contains("the state of A differs")
                && issue.text.contains("  - size:   1024x768")
                && issue.text.contains("  + size:   768x1024")
                && issue.text.contains("    traits: h=regular v=regular idiom=pad scale=2")
                && !issue.text.contains("Optional")
        }
        await store.finish()
    }

    @Test func anUnknownControllerIsReportedAtTheCall() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await withKnownIssue {
            await store.expectState(of: "Z", ExpectedState(size: .zero))
        } matching: { issue in
            issue.text.contains("the window has no controller Z")
        }
        await store.finish()
    }

    @Test func aSingleControllersStateAfterAMessage() async {
        let vc = await ControllerUnderTest("V", size: Size(320, 568))
        _ = await vc.viewWillTransition(to: Size(568, 320))
        await vc.expectState(ExpectedState(size: Size(568, 320)))
        _ = await vc.setPreferredContentSize(Size(100, 100))
        await vc.expectState(ExpectedState(preferredContentSize: Size(100, 100)))
        await withKnownIssue {
            await vc.expectState(ExpectedState(preferredContentSize: Size(1, 1)))
        } matching: { issue in
            issue.text.contains("  - preferredContentSize: 1x1") && issue.text.contains("  + preferredContentSize: 100x100")
        }
    }
}
