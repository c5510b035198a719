import Synchronization
import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace

/// SPEC §4.1: names → Swift behaviours, one behaviour per controller built from a name.
@Suite("behaviour registry")
struct BehaviorRegistryTests {
    struct Noting: ViewControllerBehavior {
        let text: String
        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            vc.note(text)
        }
    }

    struct Centred: PresentationControllerBehavior {}

    struct AlwaysFullScreen: AdaptivePresentationDelegate {
        func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
            .style(.fullScreen)
        }
    }

    /// Counts the behaviours a `make` closure made.
    final class Made: Sendable {
        let count = Mutex(0)
    }

    @Test("the issue's builder chain registers each kind under its own names, listed sorted")
    func builderAndNames() {
        let registry = BehaviorRegistry()
            .presentationController("Overlay", Centred())
            .viewController("SideBySide", Noting(text: "a"))
            .adaptiveDelegate("SlideOver", AlwaysFullScreen())
            .viewController("Alpha", Noting(text: "b"))
        #expect(registry.names == [
            BehaviorName(.viewController, "Alpha"), BehaviorName(.viewController, "SideBySide"),
            BehaviorName(.presentationController, "Overlay"), BehaviorName(.adaptiveDelegate, "SlideOver"),
        ])
        #expect(registry.contains("Overlay", as: .presentationController))
        #expect(!registry.contains("Overlay", as: .viewController))
        #expect(registry.viewControllerBehavior(named: "SideBySide") is Noting)
        #expect(registry.presentationControllerBehavior(named: "Overlay") is Centred)
        #expect(registry.adaptiveDelegate(named: "SlideOver") is AlwaysFullScreen)
        #expect(registry.viewControllerBehavior(named: "Overlay") == nil)
        #expect(BehaviorRegistry().isEmpty && !registry.isEmpty)
    }

    @Test("registering a name again for the same kind replaces it; another kind keeps its own")
    func reRegistering() {
        let registry = BehaviorRegistry()
            .viewController("A", Noting(text: "first"))
            .viewController("A", Noting(text: "second"))
            .presentationController("A", Centred())
        #expect((registry.viewControllerBehavior(named: "A") as? Noting)?.text == "second")
        #expect(registry.names.count == 2)
        // Said, for a runner to refuse: one name for two kinds is not a mistake.
        #expect(registry.mistakes == ["\"A\" is registered twice as a view-controller behaviour: the later one replaces the earlier"])
    }

    @Test("each name knows the type it is registered with, module-qualified: what tells two runners with the same names apart")
    func implementations() {
        let registry = BehaviorRegistry()
            .viewController("A", Noting(text: "a"))
            .presentationController("A", Centred())
            .adaptiveDelegate("D") { AlwaysFullScreen() }
        #expect(registry.implementation(of: "A", as: .viewController) == String(reflecting: Noting.self))
        #expect(registry.implementation(of: "A", as: .presentationController) == String(reflecting: Centred.self))
        #expect(registry.implementation(of: "D", as: .adaptiveDelegate) == String(reflecting: AlwaysFullScreen.self))
        #expect(registry.implementation(of: "D", as: .viewController) == nil)
        #expect(String(reflecting: Noting.self).hasPrefix("TrellisRuntimeTests."))
    }

    @Test("names no scenario can write are mistakes a runner refuses; a registry built as intended has none")
    func namesNoScenarioCanWrite() {
        let registry = BehaviorRegistry()
            .viewController("", Noting(text: "empty"))
            .presentationController(" Overlay", Centred())
            .adaptiveDelegate("SlideOver", AlwaysFullScreen())
        #expect(registry.mistakes == [
            "a view-controller behaviour is registered under an empty name, which no scenario can name",
            "the presentation-controller behaviour \" Overlay\" has white space at an end of its name, which no scenario can name",
        ])
        #expect(BehaviorRegistry().viewController("A", Noting(text: "a")).presentationController("A", Centred()).mistakes.isEmpty)
    }

    @Test("a make closure makes one behaviour per lookup, so every controller gets its own")
    func madePerController() {
        let made = Made()
        let registry = BehaviorRegistry().viewController("Fresh") {
            made.count.withLock { $0 += 1 }
            return Noting(text: "fresh")
        }
        _ = registry.viewControllerBehavior(named: "Fresh")
        _ = registry.viewControllerBehavior(named: "Fresh")
        #expect(made.count.withLock { $0 } == 2)
    }

    @Test("a registered behaviour runs in the controllers built from its name")
    func runsInAWindow() async throws {
        let registry = BehaviorRegistry().viewController("Noting", Noting(text: "laid out"))
        let behavior = try #require(registry.viewControllerBehavior(named: "Noting"))
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", behavior: behavior),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines.contains("A note laid out"))
    }
}
