import Testing
import TrellisTestKit

/// SPEC §9: a failed expectation is an issue of the running test, reported at the line of the
/// expectation, and the test goes on to its next expectation.
@Suite struct FailureReportingTests {
    @Test func twoWrongExpectationsInOneTestAreBothReportedEachAtItsOwnLine() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        let first = #line + 2
        withKnownIssue {
            store.expect(["R viewWillTransition(to: 1x1)"], kinds: nil)
        } matching: { issue in
            issue.isAt(line: first, fileID: #fileID) && issue.text.contains("   1   - R viewWillTransition(to: 1x1)")
        }
        // The test went on: the next action and expectation run, and the second wrong one is
        // reported at its own line.
        await store.resizeWindow(to: Size(1024, 768))
        let second = #line + 2
        withKnownIssue {
            store.expect(["R viewWillTransition(to: 2x2)"], kinds: nil)
        } matching: { issue in
            issue.isAt(line: second, fileID: #fileID) && issue.text.contains("       + R viewWillTransition(to: 1024x768)")
        }
        // And a right one after them passes.
        await store.resizeWindow(to: Size(768, 1024))
        store.expect([
            "R viewWillTransition(to: 768x1024)",
            "A viewWillTransition(to: 768x1024)",
            "B viewWillTransition(to: 768x1024)",
        ], kinds: nil)
        await store.finish()
    }

    @Test("an expected line whose message is no message's name: the failure says so, with the name it is closest to")
    func aMisspeltMessageIsPointedOut() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        withKnownIssue {
            store.expect(["R viewWillTransiton(to: 768x1024)"], kinds: ["viewWillTransition"])
        } matching: { issue in
            issue.text.contains("note: expected line 1 names \"viewWillTransiton\", which is no message's name (did you mean \"viewWillTransition\"?)")
        }
        await store.finish()
    }

    @Test func theDiffNumbersTheExpectedLinesAndShowsTheWholeTrace() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        withKnownIssue {
            store.expect([
                "R viewWillTransition(to: 768x1024)",
                "R sizeForChild(A, parent: 768x1024) -> 768x1024",
                "A viewWillTransition(to: 700x1024)",
            ], kinds: nil)
        } matching: { issue in
            issue.text.contains("   3   - A viewWillTransition(to: 700x1024)")
                && issue.text.contains("       + A viewWillTransition(to: 768x1024)")
                && issue.text.contains("Whole trace so far:")
        }
        await store.finish()
    }

    @Test func aRefusedActionIsReportedAtTheAction() async throws {
        let store = try await TraceTestStore(padHierarchy())
        let line = #line + 2
        await withKnownIssue {
            await store.present("nobody", from: "R")
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID) && issue.text.contains("the window refused")
        }
        store.skipReceivedEvents()
        await store.finish()
    }

    @Test func aFailureInsideATestGoesToSwiftTesting() {
        #expect(TestKitIssue.framework == .swiftTesting)
    }

    @Test func aSingleControllerReportsLinesAtTheExpectation() async {
        let vc = await ControllerUnderTest("R", children: ["A"], size: Size(320, 568))
        let report = await vc.viewWillTransition(to: Size(568, 320))
        let line = #line + 2
        withKnownIssue {
            report.expect(lines: ["R viewWillTransition(to: 1x1)"])
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID) && issue.text.contains("report.expect(lines: [")
        }
    }
}
