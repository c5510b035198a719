import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisTraceFiles

/// Overrides both size hooks only to call super: Swift cannot tell, so the router always asks
/// it, and the size walk reaches its controller as an async message.
private struct CallsSuperOnSize: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superViewWillTransition(to: size, with: coordinator)
    }

    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        vc.superSize(forChild: child, parentSize: parentSize)
    }
}

/// Notes, then calls super — or not, in b1x and a41 — in the synchronous form, which the
/// synchronous walk runs itself.
private struct NotesBeforeSuper: ViewControllerBehavior {
    func viewWillTransitionBeforeSuper(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) -> SuperStep {
        vc.note("before \(size)")
        return ["b1x", "a41"].contains(vc.id) ? .suppress : .callSuper
    }
}

/// `NotesBeforeSuper` in the async form: the same trace, through async messages.
private struct NotesThenAwaitsSuper: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        vc.note("before \(size)")
        guard !["b1x", "a41"].contains(vc.id) else { return }
        await vc.superViewWillTransition(to: size, with: coordinator)
    }
}

/// A size transition's two walks reach a child with UIKit's hooks as a synchronous call and
/// anything else as an async message, stopping and resuming the synchronous walk there
/// (`SynchronousWalk.swift`). Whichever controllers take which path, the trace and the state
/// must be those of a walk that sends every message async.
@Suite("the synchronous walk gives the trace of a walk of async messages")
struct SynchronousWalkTests {
    /// A chain deeper than a synchronous walk recurses (`synchronousDepth`), so the walk must stop
    /// and resume on depth alone too.
    static let chainLength = 80

    static func chain(_ index: Int) -> ControllerID { ControllerID("a\(index)") }

    /// Controllers whose behaviour has its own size hooks in the mixed hierarchy: the walk stops
    /// at them at several depths, in and below a chain, a tab bar and a navigation stack. b1xx,
    /// below b1x (whose sibling b1y follows) below b1 (whose sibling b2 follows), stops a walk two
    /// synchronous levels down: the frames must resume innermost first (checked by resuming them
    /// the other way round on purpose: the mixed trace differed).
    static let mixed: Set<ControllerID> = ["a5", "a41", "a42", "b0", "b1xx", "n0", "sheet", "deep2"]

    static func hierarchy(behavior: (ControllerID) -> any ViewControllerBehavior) -> HierarchyDescription {
        var controllers = [
            ControllerDescription("R", children: [chain(0), "B", "tabs", "nav"], behavior: behavior("R")),
            ControllerDescription("B", children: ["b0", "b1", "b2"], behavior: behavior("B")),
            ControllerDescription("b0", children: ["b0x"], behavior: behavior("b0")),
            ControllerDescription("b0x", behavior: behavior("b0x")),
            ControllerDescription("b1", children: ["b1x", "b1y"], behavior: behavior("b1")),
            ControllerDescription("b1x", children: ["b1xx"], behavior: behavior("b1x")),
            ControllerDescription("b1xx", behavior: behavior("b1xx")),
            ControllerDescription("b1y", behavior: behavior("b1y")),
            ControllerDescription("b2", behavior: behavior("b2")),
            ControllerDescription("tabs", kind: .tab, children: ["t0", "t1"], selectedIndex: 1, behavior: behavior("tabs")),
            ControllerDescription("t0", behavior: behavior("t0")),
            ControllerDescription("t1", children: ["t1a"], behavior: behavior("t1")),
            ControllerDescription("t1a", behavior: behavior("t1a")),
            ControllerDescription("nav", kind: .navigation, children: ["n0"], behavior: behavior("nav")),
            ControllerDescription("n0", children: ["n0x"], behavior: behavior("n0")),
            ControllerDescription("n0x", behavior: behavior("n0x")),
            ControllerDescription("sheet", children: ["deep0"], behavior: behavior("sheet"), modalPresentationStyle: .formSheet),
            ControllerDescription("deep0", children: ["deep1"], behavior: behavior("deep0")),
            ControllerDescription("deep1", children: ["deep2"], behavior: behavior("deep1")),
            ControllerDescription("deep2", children: ["deep3"], behavior: behavior("deep2")),
            ControllerDescription("deep3", behavior: behavior("deep3")),
            ControllerDescription("cover", behavior: behavior("cover"), modalPresentationStyle: .formSheet),
        ]
        for index in 0..<chainLength {
            let children = index + 1 < chainLength ? [chain(index + 1)] : []
            controllers.append(ControllerDescription(chain(index), children: children, behavior: behavior(chain(index))))
        }
        return HierarchyDescription(
            windowSize: Size(1024, 768),
            windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2),
            root: "R", controllers: controllers)
    }

    /// Presentations from deep in the chain and from inside a presented subtree, so the walks
    /// meet presentation controllers (always async) in the middle of synchronous subtrees.
    static let events: [WindowEvent] = [
        .environmentChange(size: Size(768, 1024), traits: nil),
        .present("sheet", from: chain(60), animated: true, style: nil),
        .environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .compact)),
        .present("cover", from: "deep1", animated: false, style: nil),
        .environmentChange(size: Size(320, 568), traits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular)),
        .push("pushed", onto: "nav"),
        .environmentChange(size: Size(568, 320), traits: nil),
        .select(tab: "tabs", index: 0),
        .dismiss("cover", animated: true),
        .environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .regular)),
        .pop("nav"),
        .dismiss("sheet", animated: true),
        .environmentChange(size: Size(768, 1024), traits: nil),
    ]

    /// The canonical trace and every controller's final state.
    static func run(swiftBehavior: @escaping (ControllerID) -> Bool) async throws -> (lines: [String], states: [ControllerID: ControllerSnapshot]) {
        try await run { swiftBehavior($0) ? CallsSuperOnSize() as any ViewControllerBehavior : DefaultBehavior() }
    }

    /// The canonical trace and every controller's final state, each controller with `behavior`.
    static func run(behavior: (ControllerID) -> any ViewControllerBehavior) async throws -> (lines: [String], states: [ControllerID: ControllerSnapshot]) {
        var description = hierarchy(behavior: behavior)
        description.controllers.append(ControllerDescription("pushed", behavior: behavior("pushed")))
        let window = try await Window(description)
        await window.start()
        for event in events {
            try await window.perform(event)
        }
        var states: [ControllerID: ControllerSnapshot] = [:]
        for controller in description.controllers {
            states[controller.id] = try await window.controller(controller.id).snapshot()
        }
        return (window.environment.recorder.canonicalLines, states)
    }

    @Test("defaults everywhere, hooks of their own everywhere, and the two mixed give one trace and one state")
    func sameTraceWhateverTakesWhichPath() async throws {
        let synchronous = try await Self.run { _ in false }
        let async = try await Self.run { _ in true }
        let mixed = try await Self.run { Self.mixed.contains($0) }
        // The walks reach the whole chain, the presented subtree and the controller presented from it.
        #expect(synchronous.lines.contains { $0.contains("a79") && $0.contains("viewWillTransition") })
        #expect(synchronous.lines.contains { $0.contains("deep3") && $0.contains("viewWillLayoutSubviews") })
        #expect(synchronous.lines.contains { $0.contains("cover") && $0.contains("viewWillTransition") })
        let sameAsAsync = synchronous.lines == async.lines
        #expect(sameAsAsync, "- async, + synchronous:\n\(LineDiff.render(expected: async.lines, actual: synchronous.lines))")
        let mixedSame = mixed.lines == async.lines
        #expect(mixedSame, "- async, + mixed:\n\(LineDiff.render(expected: async.lines, actual: mixed.lines))")
        #expect(synchronous.states == async.states)
        #expect(mixed.states == async.states)
    }

    @Test("a hook's synchronous form, run within the synchronous walk, gives the trace of its async form: notes, suppressions (R8), state")
    func synchronousFormIsTheAsyncForm() async throws {
        for chosen in [Self.mixed, Set(Self.hierarchy { _ in DefaultBehavior() }.controllers.map(\.id) + ["pushed"])] {
            let synchronous = try await Self.run { chosen.contains($0) ? NotesBeforeSuper() as any ViewControllerBehavior : DefaultBehavior() }
            let async = try await Self.run { chosen.contains($0) ? NotesThenAwaitsSuper() as any ViewControllerBehavior : DefaultBehavior() }
            for id in ["b1x", "a41"] {
                let suppressed = synchronous.lines.contains { $0.hasPrefix("\(id) ") && $0.contains("suppressed") }
                #expect(suppressed == chosen.contains(ControllerID(id)), "\(id)")
            }
            #expect(synchronous.lines.contains { $0.hasPrefix("b0 ") && $0.contains("before 768x1024") })
            let same = synchronous.lines == async.lines
            #expect(same, "- async form, + synchronous form:\n\(LineDiff.render(expected: async.lines, actual: synchronous.lines))")
            #expect(synchronous.states == async.states)
        }
    }
}
