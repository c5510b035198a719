import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisTraceFiles

/// Overrides the size hooks only to call super: the synchronous walk stops at its controller.
private struct SuperOnlySizeHooks: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superViewWillTransition(to: size, with: coordinator)
    }

    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        vc.superSize(forChild: child, parentSize: parentSize)
    }
}

/// The synchronous walk records as one segment of the recorder's (`recordingSegment`), holding
/// its lock, and gives it up where it stops for an async message. Two windows sharing one
/// recorder, walking at the same time, must each still get the trace a window alone gets.
@Suite("the synchronous walk's recording segments, with two windows recording at once")
struct SynchronousWalkSegmentTests {
    /// Controllers whose own size hooks stop the synchronous walk (and whose subtrees resume it);
    /// below a30 the chain is deeper than a synchronous walk recurses, so it stops on depth too.
    static let stops: Set<String> = ["a5", "a30", "b1"]

    static func hierarchy(_ prefix: String) -> HierarchyDescription {
        func id(_ name: String) -> ControllerID { ControllerID(prefix + name) }
        func behavior(_ name: String) -> any ViewControllerBehavior {
            stops.contains(name) ? SuperOnlySizeHooks() : DefaultBehavior()
        }
        let chainLength = 80
        var controllers = [
            ControllerDescription(id("R"), children: [id("a0"), id("B")], behavior: behavior("R")),
            ControllerDescription(id("B"), children: [id("b0"), id("b1"), id("b2")], behavior: behavior("B")),
        ]
        for leaf in ["b0", "b1", "b2"] {
            controllers.append(ControllerDescription(id(leaf), behavior: behavior(leaf)))
        }
        for index in 0..<chainLength {
            let children = index + 1 < chainLength ? [id("a\(index + 1)")] : []
            controllers.append(ControllerDescription(id("a\(index)"), children: children, behavior: behavior("a\(index)")))
        }
        return HierarchyDescription(
            windowSize: Size(1024, 768),
            windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2),
            root: id("R"), controllers: controllers)
    }

    static let sizes = [Size(768, 1024), Size(320, 568), Size(568, 320), Size(1024, 768), Size(700, 700)]

    /// Builds the window of `prefix` on its own environment recording to `recorder`, and runs
    /// the size transitions.
    static func run(_ prefix: String, recorder: TraceRecorder) async throws {
        let window = try await Window(hierarchy(prefix), environment: RuntimeEnvironment(recorder: recorder))
        await window.start()
        for size in sizes {
            try await window.perform(.environmentChange(size: size, traits: nil))
        }
    }

    /// The events of the controllers named with `prefix`, as lines with their cause given as the
    /// position of the cause among those events (or "outside"): the trace without its numbers.
    static func shape(_ events: [TraceEvent], prefix: String) -> [String] {
        let own = events.filter { $0.controller.name.hasPrefix(prefix) }
        var position: [UInt64: Int] = [:]
        for (index, event) in own.enumerated() { position[event.id.sequence] = index }
        return own.map { event in
            let cause = event.cause.map { position[$0.sequence].map(String.init) ?? "outside" } ?? "none"
            return "\(event.canonicalLine) <- \(cause)"
        }
    }

    @Test("each of two windows walking at once gets the trace it gets alone, with contiguous sequence numbers")
    func twoWindowsAtOnce() async throws {
        let alone = TraceRecorder()
        try await Self.run("x-", recorder: alone)
        let expected = Self.shape(alone.events, prefix: "x-")
        // The walks stop and resume: at the behaviours with their own hooks, and on depth (a30's
        // chain of 49 below it).
        #expect(expected.contains { $0.hasPrefix("x-a79 viewWillTransition") })
        #expect(expected.contains { $0.hasPrefix("x-b2 viewWillLayoutSubviews") })

        let shared = TraceRecorder()
        async let first: Void = Self.run("x-", recorder: shared)
        async let second: Void = Self.run("y-", recorder: shared)
        _ = try await (first, second)
        let events = shared.events
        #expect(events.map(\.id.sequence) == (1...UInt64(events.count)).map { $0 })
        let x = Self.shape(events, prefix: "x-")
        let y = Self.shape(events, prefix: "y-").map { $0.replacing("y-", with: "x-") }
        #expect(x == expected, "- alone, + shared (x):\n\(LineDiff.render(expected: expected, actual: x))")
        #expect(y == expected, "- alone, + shared (y):\n\(LineDiff.render(expected: expected, actual: y))")
    }
}
