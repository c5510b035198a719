import Testing
import TrellisScenario
import TrellisTestKit

/// SPEC §9: exhaustive to the end. Events nobody asserted fail the test at the next action, at
/// `finish()`, or when the store goes away; with exhaustivity off, or events skipped, they do not.
@Suite struct ExhaustivityTests {
    @Test func eventsNotAssertedFailAtTheNextAction() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        let line = #line + 2
        await withKnownIssue {
            await store.resizeWindow(to: Size(1024, 768))
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID) && issue.text.contains("event(s) nobody asserted")
                && issue.text.contains("R viewWillTransition(to: 768x1024)")
        }
        // The previous action's events were dropped with the failure; this action's remain.
        store.expect([
            "R viewWillTransition(to: 1024x768)",
            "A viewWillTransition(to: 1024x768)",
            "B viewWillTransition(to: 1024x768)",
        ], kinds: nil)
        await store.finish()
    }

    @Test func eventsNotAssertedFailAtFinish() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        let line = #line + 2
        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID) && issue.text.contains("the test finished with")
                && issue.text.contains("+ A viewWillTransition(to: 768x1024)")
        }
    }

    @Test func aForgottenAssertionFailsWhenTheStoreGoesAwayAtTheLineThatMadeIt() async throws {
        let line = #line + 3
        await withKnownIssue {
            do {
                let store = try await TraceTestStore(padHierarchy())
                await store.resizeWindow(to: Size(768, 1024))
            } catch {
                Issue.record(error)
            }
        } matching: { issue in
            issue.isAt(line: line, fileID: #fileID) && issue.text.contains("the store went away with")
                && issue.text.contains("R viewWillTransition(to: 768x1024)")
        }
    }

    @Test func aStoreThatFinishedReportsNothingWhenItGoesAway() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        store.skipReceivedEvents()
        await store.finish()
    }

    @Test func exhaustivityOffChecksOrderOnlyAndNeverFailsForTheRest() async throws {
        let store = try await TraceTestStore(padHierarchy())
        store.exhaustivity = .off
        await store.resizeWindow(to: Size(768, 1024))
        store.expect(["R viewWillTransition(to: 768x1024)", "B viewWillTransition(to: 768x1024)"])
        await store.resizeWindow(to: Size(1024, 768))
        withKnownIssue {
            store.expect(["B viewWillTransition(to: 1024x768)", "A viewWillTransition(to: 1024x768)"])
        } matching: { issue in
            issue.text.contains("expected line not found in order: A viewWillTransition(to: 1024x768)")
        }
        await store.resizeWindow(to: Size(768, 1024))
        await store.finish()
    }

    @Test func expectingSomeKindsDropsTheOthers() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        store.expect([
            "R sizeForChild(A, parent: 768x1024) -> 768x1024",
            "R sizeForChild(B, parent: 768x1024) -> 768x1024",
        ], kinds: ["sizeForChild"])
        await store.finish()
    }

    @Test func theInitialLayoutCanBeAsserted() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A") }
        }, expectInitialLayout: true)
        store.expect([
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A viewDidLayoutSubviews",
        ])
        await store.finish()
    }

    @Test func aScenarioFileBuildsTheSameHierarchy() async throws {
        // The kit links no scenario module: a test that wants one imports TrellisScenario.
        let scenario = try ScenarioDecoder.decode("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {} } }
            """, file: "inline")
        let store = try await TraceTestStore(ScenarioRunner.hierarchy(of: scenario))
        await store.resizeWindow(to: Size(568, 320))
        store.expect(["R viewWillTransition(to: 568x320)", "A viewWillTransition(to: 568x320)"], kinds: nil)
        await store.finish()
    }
}
