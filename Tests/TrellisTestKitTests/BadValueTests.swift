import Testing
import TrellisTestKit

/// Values Swift code can hand the kits that a scenario file cannot carry: each fails the test at
/// its call, nothing happens, and the test goes on (the process is not stopped).
@Suite struct BadValueTests {
    @Test("an action value that is not JSON (an infinite number) is refused at the call; the store goes on")
    func aNonJSONActionValue() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await withKnownIssue {
            await store.action("tap", on: "A", value: .number(.infinity))
        } matching: { issue in
            issue.text.contains("action tap: its value must be JSON")
        }
        store.expect([])
        await store.resizeWindow(to: Size(768, 1024))
        store.expect([
            "R viewWillTransition(to: 768x1024)", "A viewWillTransition(to: 768x1024)", "B viewWillTransition(to: 768x1024)",
        ], kinds: ["viewWillTransition"])
        await store.finish()
    }

    @Test("a window size or a preferred size that is not a size is refused at the call, nothing traced")
    func sizesThatAreNotSizes() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await withKnownIssue {
            await store.resizeWindow(to: Size(.infinity, .nan))
        } matching: { issue in
            issue.text.contains("the window's size") && issue.text.contains("infinite")
        }
        await withKnownIssue {
            await store.setPreferredContentSize(Size(-10, 20), of: "A")
        } matching: { issue in
            issue.text.contains("A's preferred content size") && issue.text.contains("negative")
        }
        store.expect([])
        await store.finish()
    }

    @Test("traits whose display scale is not one are refused at the call; a window described with them, or with a size that is not one, is not built")
    func traitsAndWindowsThatAreNotOnes() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await withKnownIssue {
            await store.setTraits(TraitCollection(displayScale: .nan))
        } matching: { issue in
            issue.text.contains("the window's traits: displayScale must be between 0 and 100, got nan")
        }
        store.expect([])
        await store.finish()
        await #expect(throws: RuntimeError.invalidValue("the hierarchy describes no controller: it needs one at least, its root")) {
            _ = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {})
        }
        for window in [WindowSetup(size: Size(.nan, 10), traits: TraitCollection()), WindowSetup(size: Size(10, 10), traits: TraitCollection(displayScale: 1000))] {
            await #expect(throws: RuntimeError.self) {
                _ = try await TraceTestStore(HierarchyDescription(window) { ViewController("R") })
            }
        }
    }

    @Test("a single controller's action with a value that is not JSON: an issue at the call and an empty report")
    func aSingleControllersNonJSONAction() async {
        let vc = await ControllerUnderTest("V", size: Size(320, 568))
        var lines: [String]?
        await withKnownIssue {
            lines = await vc.action("tap", value: .number(.nan)).lines
        } matching: { issue in
            issue.text.contains("action tap: its value must be JSON")
        }
        #expect(lines == [])
    }

    @Test("a kind in expect(_:kinds:) that no message has fails at the call, with the name it is closest to")
    func aMisspeltKind() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.resizeWindow(to: Size(768, 1024))
        withKnownIssue {
            store.expect([], kinds: ["viewWillTransiton"])
        } matching: { issue in
            issue.text.contains("kinds: \"viewWillTransiton\" is no message's name (did you mean \"viewWillTransition\"?)")
        }
        await store.finish()
    }
}
