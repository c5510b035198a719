import Testing
import TrellisTestKit

/// Record mode: what happened, as Swift ready to paste into the test.
@Suite struct RecordModeTests {
    @Test func aFailedExpectationPrintsTheActualLinesAsAnExpectCall() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        withKnownIssue {
            store.expect([])
        } matching: { issue in
            issue.text.contains("""
                What happened, ready to paste:
                store.expect([
                    "R viewWillTransition(to: 768x1024)",
                    "R sizeForChild(A, parent: 768x1024) -> 768x1024",
                """)
        }
        await store.finish()
    }

    @Test func aKindFilteredExpectationPastesItsKinds() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        withKnownIssue {
            store.expect([], kinds: ["sizeForChild"])
        } matching: { issue in
            issue.text.contains("""
                store.expect([
                    "R sizeForChild(A, parent: 768x1024) -> 768x1024",
                    "R sizeForChild(B, parent: 768x1024) -> 768x1024",
                ], kinds: ["sizeForChild"])
                """)
        }
        await store.finish()
    }

    @Test func theEventsNotAssertedYetAsSwiftOnDemand() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) { ViewController("R") })
        await store.resizeWindow(to: Size(568, 320))
        #expect(store.receivedAsSwift == """
            store.expect([
                "R viewWillTransition(to: 568x320)",
                "R viewWillLayoutSubviews",
                "R viewDidLayoutSubviews",
            ])
            """)
        store.skipReceivedEvents()
        await store.finish()
    }

    @Test func linesAreEscapedAsSwiftStrings() {
        #expect(RecordedLines.swiftArray([#"R note "a\b""#]) == """
            [
                "R note \\"a\\\\b\\"",
            ]
            """)
        #expect(RecordedLines.swiftArray([]) == "[]")
    }
}
