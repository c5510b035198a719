// docs/testing.md, "Behaviours that act": the tests import only Testing and TrellisTestKit.

import Testing
import TrellisTestKit

/// Dismisses its presentation when the dimming view is tapped, as the seeds' sidebar does.
struct DimmingTapDismisses: PresentationControllerBehavior {
    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        guard action == "dimmingTapped" else { return false }
        pc.dismiss()    // presentingViewController.dismiss(animated: true)
        return true
    }
}

@Test func aTapOnTheDimmingViewDismisses() async throws {
    let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
        ViewController("R")
        ViewController("S", modalPresentationStyle: .custom,
                       presentationController: PresentationControllerDescription(behavior: DimmingTapDismisses()))
    })
    await store.present("S", from: "R", animated: false)
    store.skipReceivedEvents()
    await store.action("dimmingTapped", on: "pc:S")
    store.expect([
        "pc:S action(dimmingTapped)",
        "pc:S request dismiss animated",
        "R dismiss(S)",
        "R dismissCompletion(S)",
    ], kinds: ["action", "request", "dismiss", "dismissCompletion"])
    await store.finish()
}
