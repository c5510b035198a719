import Synchronization
import Testing
import TrellisModel
import TrellisRuntime

/// A behaviour's size hooks reach the router as closures compiled for its type (`SizeHooks`),
/// each made with the behaviour value it came from, its coordinator made inside: two values of
/// one type with different stored properties must each answer with their own, and the
/// coordinator a hook is handed must be its own controller's, in its transition.
@Suite("size hooks compiled for their type answer with their own value and coordinator")
struct SizeHooksTests {
    /// Gives each child `fraction` of the parent's width, and notes its coordinator.
    struct Fraction: ViewControllerBehavior {
        let fraction: Double
        let label: String

        func viewWillTransitionBeforeSuper(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) -> SuperStep {
            vc.note("\(label) owner=\(coordinator.owner) transition=\(coordinator.transitionID) vc=\(vc.id)")
            return .callSuper
        }

        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            Size(parentSize.width * fraction, parentSize.height)
        }
    }

    @Test("two values of one behaviour type, a half and a quarter, size their children by their own fraction")
    func eachValueAnswersWithItsOwnFraction() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Size(400, 800), windowTraits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2), root: "R",
            controllers: [
                ControllerDescription("R", children: ["half", "quarter"]),
                ControllerDescription("half", children: ["h1"], behavior: Fraction(fraction: 0.5, label: "H")),
                ControllerDescription("quarter", children: ["q1"], behavior: Fraction(fraction: 0.25, label: "Q")),
                ControllerDescription("h1"), ControllerDescription("q1"),
            ]))
        await window.start()
        try await window.perform(.environmentChange(size: Size(800, 400), traits: nil))
        let lines = window.environment.recorder.events(after: 0).map(\.canonicalLine)
        let start = try #require(lines.firstIndex(of: "R viewWillTransition(to: 800x400)"))
        // Each value answers with its own fraction of the new width, and each hook's coordinator
        // is its own controller's, in transition 1.
        #expect(Array(lines[start...].prefix(11)) == [
            "R viewWillTransition(to: 800x400)",
            "R sizeForChild(half, parent: 800x400) -> 800x400",
            "half viewWillTransition(to: 800x400)",
            "half note H owner=half transition=1 vc=half",
            "half sizeForChild(h1, parent: 800x400) -> 400x400",
            "h1 viewWillTransition(to: 400x400)",
            "R sizeForChild(quarter, parent: 800x400) -> 800x400",
            "quarter viewWillTransition(to: 800x400)",
            "quarter note Q owner=quarter transition=1 vc=quarter",
            "quarter sizeForChild(q1, parent: 800x400) -> 200x400",
            "q1 viewWillTransition(to: 200x400)",
        ])
    }

    /// Keeps every id its `size(forChild:)` is handed, and answers with super.
    struct KeepsIDs: ViewControllerBehavior {
        let kept: Kept

        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            kept.append(child)
            return vc.superSize(forChild: child, parentSize: parentSize)
        }
    }

    final class Kept: Sendable {
        private let ids = Mutex<[ControllerID]>([])
        func append(_ id: ControllerID) { ids.withLock { $0.append(id) } }
        var all: [ControllerID] { ids.withLock { $0 } }
    }

    @Test("an id handed to size(forChild:) (lent by the parent for the call) stays whole when the hook keeps it, after its children are gone")
    func keptIDsOutliveTheWindow() async throws {
        // Names longer than a small string (15 bytes), so their storage is on the heap.
        let children = (0..<3).map { ControllerID("a-child-with-a-long-name-\($0)") }
        let kept = Kept()
        var window: Window? = try await Window(HierarchyDescription(
            windowSize: Size(400, 800), windowTraits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2), root: "R",
            controllers: [ControllerDescription("R", children: children, behavior: KeepsIDs(kept: kept))] + children.map { ControllerDescription($0) }))
        await window?.start()
        try await window?.perform(.environmentChange(size: Size(800, 400), traits: nil))
        try await window?.perform(.environmentChange(size: Size(400, 800), traits: nil))
        window = nil
        // Asked about each child by the first layout's sizing rule (untraced, R2a) and once in
        // each transition.
        #expect(kept.all == children + children + children)
        #expect(kept.all.map(\.name) == (children + children + children).map(\.name))
    }
}
