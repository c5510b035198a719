import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisTraceFiles

/// A behaviour that overrides nothing, written as a user would: it takes the router's general
/// path (the behaviour is asked, super is an explicit call), where `DefaultBehavior` takes the
/// path that skips the behaviour.
private struct CallsSuperEverywhere: ViewControllerBehavior {}

/// The router runs `DefaultBehavior` without asking it; whatever happens, the trace and the
/// state must be exactly those of a behaviour that calls super everywhere.
@Suite("DefaultBehavior's fast path gives the trace of a behaviour that calls super")
struct DefaultBehaviorFastPathTests {
    static func hierarchy(_ behavior: @escaping @Sendable () -> any ViewControllerBehavior) -> HierarchyDescription {
        HierarchyDescription(
            windowSize: Size(1024, 768),
            windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2),
            root: "R",
            controllers: [
                ControllerDescription("R", children: ["split", "tabs", "nav"], behavior: behavior()),
                ControllerDescription("split", kind: .split, children: ["primary", "secondary"], behavior: behavior()),
                ControllerDescription("primary", children: ["p1", "p2"], behavior: behavior()),
                ControllerDescription("p1", behavior: behavior()),
                ControllerDescription("p2", preferredContentSize: Size(100, 50), behavior: behavior()),
                ControllerDescription("secondary", behavior: behavior()),
                ControllerDescription("tabs", kind: .tab, children: ["t0", "t1"], selectedIndex: 1, behavior: behavior()),
                ControllerDescription("t0", behavior: behavior()),
                ControllerDescription("t1", children: ["t1a"], traitOverrides: ["t1a": TraitCollection(userInterfaceStyle: .dark)], behavior: behavior()),
                ControllerDescription("t1a", behavior: behavior()),
                ControllerDescription("nav", kind: .navigation, children: ["n0"], grant: .all, behavior: behavior()),
                ControllerDescription("n0", behavior: behavior()),
                ControllerDescription("pushed", behavior: behavior()),
                ControllerDescription("sheet", children: ["sheetChild"], behavior: behavior(), modalPresentationStyle: .formSheet),
                ControllerDescription("sheetChild", behavior: behavior()),
                ControllerDescription("cover", behavior: behavior(), modalPresentationStyle: .overCurrentContext),
            ])
    }

    static let events: [WindowEvent] = [
        .environmentChange(size: Size(768, 1024), traits: nil),
        .environmentChange(size: nil, traits: TraitCollection(horizontalSizeClass: .compact)),
        .present("sheet", from: "t1a", animated: true, style: nil),
        .environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .regular)),
        .present("cover", from: "sheetChild", animated: false, style: nil),
        .environmentChange(size: Size(320, 568), traits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular)),
        .setPreferredContentSize("sheet", Size(400, 300)),
        .push("pushed", onto: "nav"),
        .setPreferredContentSize("pushed", Size(200, 200)),
        .environmentChange(size: Size(568, 320), traits: TraitCollection(verticalSizeClass: .compact)),
        .setTraitOverride(container: "R", child: "split", traits: TraitCollection(horizontalSizeClass: .regular)),
        .dismiss("cover", animated: true),
        .select(tab: "tabs", index: 0),
        .pop("nav"),
        .dismiss("sheet", animated: true),
        .environmentChange(size: Size(1024, 768), traits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular)),
    ]

    /// The canonical trace and every controller's final state.
    static func run(_ behavior: @escaping @Sendable () -> any ViewControllerBehavior) async throws -> (lines: [String], states: [ControllerID: ControllerSnapshot]) {
        let window = try await Window(hierarchy(behavior))
        await window.start()
        for event in events {
            do {
                try await window.perform(event)
            } catch {
                window.environment.recorder.record(.note("refused: \(error)"), controller: "test", cause: nil)
            }
        }
        var states: [ControllerID: ControllerSnapshot] = [:]
        for description in hierarchy(behavior).controllers {
            states[description.id] = try await window.controller(description.id).snapshot()
        }
        return (window.environment.recorder.canonicalLines, states)
    }

    @Test("a long run of resizes, trait changes, presentations, pushes and preferred sizes")
    func sameTraceAndState() async throws {
        let fast = try await Self.run { DefaultBehavior() }
        let general = try await Self.run { CallsSuperEverywhere() }
        #expect(fast.lines.count > 100)
        let sameTrace = fast.lines == general.lines
        #expect(sameTrace, "- general path, + DefaultBehavior:\n\(LineDiff.render(expected: general.lines, actual: fast.lines))")
        let sameStates = fast.states == general.states
        #expect(sameStates)
    }
}

