import Testing
import TrellisModel
import TrellisRuntime

/// A window's controllers reference their containers through the window's environment (no weak
/// references on the hot path); when the window goes, its hierarchy must go with it.
@Suite("a window that goes away takes its controllers with it")
struct WindowLifetimeTests {
    /// A test-side weak reference, to see whether an object was freed.
    final class WeakBox<Object: AnyObject> {
        weak var object: Object?
        init(_ object: Object) { self.object = object }
    }

    @Test("after a run, dropping the window frees every controller; one kept by the caller still works")
    func controllersAreFreed() async throws {
        var kept: Controller?
        var leaf: WeakBox<Controller>?
        var parent: WeakBox<Controller>?
        var window: WeakBox<Window>?
        do {
            let strong = try await Window(DefaultBehaviorFastPathTests.hierarchy { DefaultBehavior() })
            for event in DefaultBehaviorFastPathTests.events.prefix(9) {
                try? await strong.perform(event)
            }
            leaf = WeakBox(try await strong.controller("p1"))
            parent = WeakBox(try await strong.controller("primary"))
            window = WeakBox(strong)
            kept = try await strong.controller("p2")
            // `perform` returns once its event is handled; the drain task lets go of the window
            // just after. Wait for that (a condition, not a time), bounded.
            var turns = 0
            while await !strong.isQuiescent, turns < 100_000 {
                await Task.yield()
                turns += 1
            }
        }
        #expect(window?.object == nil)
        #expect(parent?.object == nil)
        #expect(leaf?.object == nil)
        // Its container is gone: a preferred-size change goes nowhere, and nothing traps.
        await kept?.setPreferredContentSize(Size(1, 1), cause: nil)
        #expect(await kept?.preferredContentSize == Size(1, 1))
    }
}
