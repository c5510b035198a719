import Foundation
import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisTraceFiles

/// The anchor of the in-process figures: the same traversal as a chain of bare Swift actor
/// calls — each node awaits each child in turn, nothing else. A size transition walks the tree
/// twice (SPEC R10: `viewWillTransition` down the whole tree, then the layout pass), so the
/// anchor does too: `announce`, then `layout`.
actor BareNode {
    var children: [BareNode] = []
    var size = Size.zero
    var pendingSize: Size?

    func adopt(_ children: [BareNode]) {
        self.children = children
    }

    /// The first walk; returns the hops (nodes reached).
    func announce(_ newSize: Size) async -> Int {
        pendingSize = newSize
        var hops = 1
        for child in children {
            hops += await child.announce(newSize)
        }
        return hops
    }

    /// The second walk; returns the hops.
    func layout() async -> Int {
        size = pendingSize ?? size
        pendingSize = nil
        var hops = 1
        for child in children {
            hops += await child.layout()
        }
        return hops
    }
}

/// A Swift behaviour that only calls super, as a registered behaviour that changes nothing: the
/// router asks it at every hook (only `DefaultBehavior` is run without asking). Its size hooks
/// are the synchronous ones, as UIKit's are: `viewWillTransitionBeforeSuper` and `size(forChild:)`.
struct SuperOnlyBehavior: ViewControllerBehavior {
    func viewWillTransitionBeforeSuper(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) -> SuperStep {
        .callSuper
    }

    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        vc.superSize(forChild: child, parentSize: parentSize)
    }
}

/// The same with the async `viewWillTransition`, whose super step is awaited: code after it
/// runs after the subtree (R11), so the router cannot run it within its synchronous walk.
struct AsyncSuperOnlyBehavior: ViewControllerBehavior {
    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        await vc.superViewWillTransition(to: size, with: coordinator)
    }

    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        vc.superSize(forChild: child, parentSize: parentSize)
    }
}

/// Measurements of one process.
package enum InProcessBench {
    /// Builds the bare tree bottom-up (iteratively; deep shapes cannot overflow the stack).
    static func bareTree(_ shape: HierarchyShape) async -> BareNode {
        var nodes = (0..<shape.count).map { _ in BareNode() }
        for index in stride(from: shape.count - 1, through: 0, by: -1) {
            let children = shape.children(of: index).map { nodes[$0] }
            await nodes[index].adopt(children)
        }
        let root = nodes[0]
        nodes.removeAll()
        return root
    }

    /// The in-process figures of `shape` measured turn about — a bare-actor round, a plain-call
    /// round (`PlainNode`, the floor), a traced plain-call round (`TracedPlainNode`, the floor of
    /// a traced walk), then a Trellis round, and so on, each round starting one side later
    /// (`Turns`) — so that all sample the same moments of a shared, noisy machine; each side's
    /// best round counts. Trellis's trace goes to memory; one
    /// more transition then checks that the traced floor records Trellis's events.
    package static func interleavedHopsPerSecond(
        _ shape: HierarchyShape, rounds: Int
    ) async throws -> (ours: Double, bare: Double, plain: Double, tracedPlain: Double) {
        let root = await bareTree(shape)
        let plainRoot = PlainNode.tree(shape)
        let tracedRoot = TracedPlainNode.tree(shape)
        // A transition records 4 events a controller but the root's sizeForChild.
        var trace = PlainTrace(capacity: 4 * shape.count)
        let recorder = TraceRecorder(storage: .memory)
        let window = try await Window(shape.hierarchy(windowSize: Size(320, 568)), environment: RuntimeEnvironment(recorder: recorder))
        await window.start()
        // The floor's tree starts where the window's initial layout leaves it.
        _ = tracedRoot.announce(Size(320, 568), cause: nil, trace: &trace)
        _ = tracedRoot.layout(frame: Rect(Size(320, 568)), cause: nil, trace: &trace)
        let best = try await Turns.best(rounds: rounds, [
            { round in
                let start = ContinuousClock.now
                var hops = await root.announce(Turns.size(ofRound: round))
                hops += await root.layout()
                return Double(hops) / seconds(since: start)
            },
            { round in
                let start = ContinuousClock.now
                var hops = plainRoot.announce(Turns.size(ofRound: round))
                hops += plainRoot.layout()
                return Double(hops) / seconds(since: start)
            },
            { round in
                let size = Turns.size(ofRound: round)
                trace.beginTransition()
                let start = ContinuousClock.now
                var hops = tracedRoot.announce(size, cause: nil, trace: &trace)
                hops += tracedRoot.layout(frame: Rect(size), cause: nil, trace: &trace)
                return Double(hops) / seconds(since: start)
            },
            { round in
                let start = ContinuousClock.now
                try await window.perform(.environmentChange(size: Turns.size(ofRound: round), traits: nil))
                return Double(2 * shape.count) / seconds(since: start)
            },
        ])
        // Checked up to 100k controllers: the floor's code is the same at every size, and at 1M
        // the two traces as `TraceEvent`s would take over a gigabyte.
        if shape.count <= Self.largestCheckedFloor {
            try await checkTracedFloor(tracedRoot, against: window, recorder: recorder, shape: shape, size: Turns.size(ofRound: rounds))
        }
        withExtendedLifetime(window) {}
        return (ours: best[3], bare: best[0], plain: best[1], tracedPlain: best[2])
    }

    /// The largest hierarchy whose traced floor `interleavedHopsPerSecond` checks against Trellis's trace.
    static let largestCheckedFloor = 100_000

    /// What the traced floor records that Trellis does not, or the reverse.
    package struct TracedFloorMismatch: Error, CustomStringConvertible {
        package var description: String
    }

    /// One more transition of the window and of the traced floor's tree, from the same sizes,
    /// with the floor numbering from where the recorder is: their events must be the same (the
    /// times aside), or the traced floor is not Trellis's walk and its figure would be wrong.
    static func checkTracedFloor(
        _ floor: TracedPlainNode, against window: Window, recorder: TraceRecorder, shape: HierarchyShape, size: Size
    ) async throws {
        let before = recorder.count
        try await window.perform(.environmentChange(size: size, traits: nil))
        let trellis = recorder.events(after: before).map { event in
            var event = event
            event.time = 0
            return event
        }
        guard let first = trellis.first, let transition = first.transition else {
            throw TracedFloorMismatch(description: "traced floor: Trellis recorded no transition to compare with")
        }
        var trace = PlainTrace(capacity: trellis.count, firstSequence: first.id.sequence, transition: Int32(truncatingIfNeeded: transition - 1))
        trace.beginTransition()
        _ = floor.announce(size, cause: nil, trace: &trace)
        _ = floor.layout(frame: Rect(size), cause: nil, trace: &trace)
        let ours = trace.traceEvents(controllers: (0..<shape.count).map(HierarchyShape.id), node: recorder.node)
        guard ours != trellis else { return }
        let index = (0..<min(ours.count, trellis.count)).first { ours[$0] != trellis[$0] } ?? min(ours.count, trellis.count)
        let floorEvent = index < ours.count ? "\(ours[index])" : "nothing"
        let trellisEvent = index < trellis.count ? "\(trellis[index])" : "nothing"
        throw TracedFloorMismatch(description: """
            traced floor: \(ours.count) events where Trellis recorded \(trellis.count); event \(index) differs: \
            floor \(floorEvent), Trellis \(trellisEvent)
            """)
    }

    /// The default walk and the same walk with a Swift behaviour that only calls super on every
    /// controller (SPEC §4.1: a registered behaviour must cost no more than the default), its
    /// size hook the synchronous one and the async one, measured in turns (`Turns`) on windows
    /// of the same shape; each side's best round counts. Trace to memory. `defaultAgain`, the
    /// control: the default walk on a fourth window, in the same turns — what the turns' noise
    /// alone makes of two equal walks, beside which the Swift behaviour's figure is read.
    package static func interleavedSuperOnlyHopsPerSecond(
        _ shape: HierarchyShape, rounds: Int
    ) async throws -> (superOnly: Double, asyncSuperOnly: Double, defaultWalk: Double, defaultAgain: Double) {
        let windowSize = Size(320, 568)
        func window(_ behavior: (any ViewControllerBehavior)?) async throws -> Window {
            let hierarchy = behavior.map { shape.hierarchy(windowSize: windowSize, behavior: $0) } ?? shape.hierarchy(windowSize: windowSize)
            let window = try await Window(hierarchy, environment: RuntimeEnvironment(recorder: TraceRecorder(storage: .memory)))
            await window.start()
            return window
        }
        let windows = [
            try await window(nil), try await window(SuperOnlyBehavior()), try await window(AsyncSuperOnlyBehavior()), try await window(nil),
        ]
        let best = try await Turns.best(rounds: rounds, windows.map { window in
            { round in
                let start = ContinuousClock.now
                try await window.perform(.environmentChange(size: Turns.size(ofRound: round), traits: nil))
                return Double(2 * shape.count) / seconds(since: start)
            }
        })
        withExtendedLifetime(windows) {}
        return (best[1], best[2], best[0], best[3])
    }

    /// Controller-hops per second of a full size transition (viewWillTransition with a
    /// size(forChild:) before each child, then the layout pass; default behaviours, every event
    /// traced to `storage`). A hop is a message delivered to a controller's actor: two per
    /// controller here, as in the anchor. Like the anchor, one hierarchy is built and the best of
    /// `rounds` transitions (alternating orientations) counts; the initial layout is excluded.
    package static func trellisHopsPerSecond(_ shape: HierarchyShape, rounds: Int, storage: TraceRecorder.Storage) async throws -> Double {
        let recorder = TraceRecorder(storage: storage)
        let window = try await Window(shape.hierarchy(windowSize: Size(320, 568)), environment: RuntimeEnvironment(recorder: recorder))
        await window.start()
        recorder.flush()
        var best = 0.0
        for round in 0..<rounds {
            let size = round % 2 == 0 ? Size(568, 320) : Size(320, 568)
            let start = ContinuousClock.now
            try await window.perform(.environmentChange(size: size, traits: nil))
            // A file trace counts until its last line is written.
            recorder.flush()
            best = max(best, Double(2 * shape.count) / seconds(since: start))
        }
        try closeFile(of: recorder)
        return best
    }

    /// Hops per second of `shape` traced to memory and traced to `file`, in turns (`Turns`: a
    /// round of each, `rounds` times, the order rotating, orientations alternating) — best round
    /// of each (the file's round counts until its last byte is written). As the other in-process figures: on a shared
    /// machine the memory walk's best of a minute before may have had a quieter minute.
    package static func interleavedFileTraceHopsPerSecond(
        _ shape: HierarchyShape, rounds: Int, file writer: TraceFileWriter
    ) async throws -> (memory: Double, file: Double) {
        let inMemory = TraceRecorder(storage: .memory)
        let toFile = TraceRecorder(storage: .file(writer))
        let description = shape.hierarchy(windowSize: Size(320, 568))
        let memoryWindow = try await Window(description, environment: RuntimeEnvironment(recorder: inMemory))
        let fileWindow = try await Window(description, environment: RuntimeEnvironment(recorder: toFile))
        await memoryWindow.start()
        await fileWindow.start()
        toFile.flush()
        let best = try await Turns.best(rounds: rounds, [memoryWindow, fileWindow].map { window in
            { round in
                let start = ContinuousClock.now
                try await window.perform(.environmentChange(size: Turns.size(ofRound: round), traits: nil))
                // The file's round counts until its last byte is written.
                window.environment.recorder.flush()
                return Double(2 * shape.count) / seconds(since: start)
            }
        })
        try closeFile(of: toFile)
        withExtendedLifetime(memoryWindow) {}
        return (memory: best[0], file: best[1])
    }

    /// The JSON Lines encoder alone (`jsonl-encode`): one size transition of `shape` recorded
    /// into a sink that keeps its chunks, then encoded `rounds` times beside copying its bytes;
    /// events per second of each (the best round of each).
    package static func lineEncodingEventsPerSecond(_ shape: HierarchyShape, rounds: Int) async throws -> (encode: Double, copy: Double, events: Int, bytes: Int) {
        let timing = CaptureLineEncodeTiming()
        let recorder = TraceRecorder(storage: .file(timing))
        let window = try await Window(shape.hierarchy(windowSize: Size(320, 568)), environment: RuntimeEnvironment(recorder: recorder))
        await window.start()
        recorder.flush()
        timing.removeAll()
        try await window.perform(.environmentChange(size: Size(568, 320), traits: nil))
        recorder.flush()
        let events = timing.eventCount
        let (encode, copy, bytes) = timing.seconds(rounds: rounds)
        return (Double(events) / encode, Double(events) / copy, events, bytes)
    }

    /// Seconds for `count` alternating size transitions of one hierarchy (trace discarded unless
    /// `storage` says otherwise), for profiling the router alone; `superOnly`: every controller
    /// with `SuperOnlyBehavior`, the Swift side of `inproc-swift-super`.
    package static func repeatedTransitions(
        _ shape: HierarchyShape, count: Int, storage: TraceRecorder.Storage = .discard, superOnly: Bool = false
    ) async throws -> Double {
        let behavior: any ViewControllerBehavior = superOnly ? SuperOnlyBehavior() : DefaultBehavior()
        let window = try await Window(
            shape.hierarchy(windowSize: Size(320, 568), behavior: behavior), environment: RuntimeEnvironment(recorder: TraceRecorder(storage: storage)))
        await window.start()
        let start = ContinuousClock.now
        for index in 0..<count {
            try await window.perform(.environmentChange(size: index % 2 == 0 ? Size(568, 320) : Size(320, 568), traits: nil))
        }
        window.environment.recorder.flush()
        let elapsed = seconds(since: start)
        try closeFile(of: window.environment.recorder)
        return elapsed
    }

    /// Closes a file recorder's file; a write that failed (a full disk) fails the measure: a
    /// figure of a trace that was not written would be wrong.
    static func closeFile(of recorder: TraceRecorder) throws {
        guard case let .file(sink) = recorder.storage, let writer = sink as? TraceFileWriter else { return }
        writer.close()
        if let failure = writer.failure { throw failure }
    }

    /// Resident bytes per controller of an idle hierarchy: the resident set after building and
    /// laying out `shape` (trace discarded), minus before, over the count. Run it in a fresh
    /// process: memory freed earlier would be reused and not counted.
    ///
    /// The description, made before the first reading, stays alive until after the second: the
    /// optimizer may otherwise release it as soon as the window is made, and its array (344
    /// bytes a controller) then left the resident set between the two readings, so the figure
    /// was that much below what the window holds (issue 27 item 7).
    package static func trellisBytesPerController(_ shape: HierarchyShape) async throws -> Double {
        let description = shape.hierarchy(windowSize: Size(320, 568))
        let before = residentBytes()
        let window = try await Window(description, environment: RuntimeEnvironment(recorder: TraceRecorder(storage: .discard)))
        await window.start()
        let after = residentBytes()
        withExtendedLifetime(window) {}
        withExtendedLifetime(description) {}
        return Double(after - before) / Double(shape.count)
    }

    /// The anchor: resident bytes per node of the bare actor tree of the same shape.
    package static func bareBytesPerNode(_ shape: HierarchyShape) async -> Double {
        let before = residentBytes()
        let root = await bareTree(shape)
        let after = residentBytes()
        withExtendedLifetime(root) {}
        return Double(after - before) / Double(shape.count)
    }

    /// The resident set size of this process, from /proc/self/statm.
    package static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now).components
        return max(1e-9, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}
