import Testing
import TrellisTestKit

/// Presentation rules written with the hierarchy kit (dogfood): each action, then every line it
/// caused, exhaustively.
@Suite struct PresentationWithKitTests {
    /// CONFORMANCE 21 (rerouted) — R30: a child asking for a full-screen presentation while its
    /// root already presents is refused with UIKit's warning; nothing else happens.
    @Test("R30: presenting while presenting is refused with the warning")
    func presentingWhilePresentingIsRefusedWithTheWarning() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("C1") }
            ViewController("Q", modalPresentationStyle: .overFullScreen)
            ViewController("P", modalPresentationStyle: .fullScreen)
        })
        await store.present("Q", from: "R")
        store.skipReceivedEvents()
        await store.present("P", from: "C1")
        store.expect(["R warning Attempt to present P on R (from C1) which is already presenting Q"])
        await store.finish()
    }

    /// CONFORMANCE 1 — R6/R7: after R's children, PC(P) gets R's own size, then sizes P.
    @Test("R6 + R7: rotation reaches the presentation after the children")
    func rotationReachesThePresentationAfterTheChildren() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("C1"); ViewController("C2") }
            ViewController("P", modalPresentationStyle: .fullScreen)
        })
        await store.present("P", from: "R")
        store.skipReceivedEvents()
        await store.resizeWindow(to: Size(568, 320))
        store.expect([
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(C1, parent: 568x320) -> 568x320",
            "C1 viewWillTransition(to: 568x320)",
            "R sizeForChild(C2, parent: 568x320) -> 568x320",
            "C2 viewWillTransition(to: 568x320)",
            "pc:P viewWillTransition(to: 568x320)",
            "pc:P sizeForChild(P, parent: 568x320) -> 568x320",
            "P viewWillTransition(to: 568x320)",
        ], kinds: nil)
    }

    /// CONFORMANCE 26 — R46: a child inside a presented navigation controller dismisses it all.
    @Test("R46: dismiss from inside a presented container")
    func dismissFromInsideAPresentedContainer() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R")
            ViewController("N", kind: .navigation, modalPresentationStyle: .fullScreen) { ViewController("V") }
        })
        await store.present("N", from: "R")
        store.skipReceivedEvents()
        await store.dismiss("V")
        store.expect(["R dismiss(N)", "V dismissCompletion(N)"], kinds: nil)
        #expect(await store.window.structure["R"]?.presented == nil)
    }
}
