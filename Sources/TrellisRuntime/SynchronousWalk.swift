import CTrellisPrefetch
import TrellisModel
import TrellisTrace

// The two walks of a size transition — `viewWillTransition` with its `sizeForChild` queries
// (R2–R6) and the layout pass (R10) — delivered as synchronous calls where UIKit's would be.
//
// Every controller of a window runs on the window's executor (`WindowExecutor`), as UIKit's
// controllers all run on the main thread. So when the walk reaches a local child of the same
// window that does what UIKit's default does with the message, it need not send the message as
// an async call — which costs an async frame, an executor check and a task switch a hop, more
// than the whole hop of a traced plain walk — but can call the child on the executor it is
// already on (`assumeIsolated`, checked at run time) and recurse through a subtree of defaults.
// Anything else still gets today's async message, at the point the walk reaches it: a Swift
// behaviour with its own hook, a presentation controller, a remote stand-in, a controller of
// another window, and a child deeper than `synchronousDepth` below the last async message.
//
// A synchronous walk that reaches such an endpoint cannot wait for it, so it stops there and
// returns where it stopped: the frames of the controllers it was in, innermost first. The async
// call that started it sends the message, then resumes each frame in turn (`resume`), each
// going on from where it stopped — the same order, depth first, as walking every hop async.
// A walk with no such endpoint, the usual case, allocates nothing.

/// How deep a synchronous walk recurses below the last async message before it sends one: each
/// level takes a few hundred bytes of the thread's stack (a debug build several kilobytes),
/// where an async message takes a heap frame, and a hierarchy may be 10,000 levels deep
/// (`HierarchyDepth.maximum`).
let synchronousDepth = 32

/// What a controller reached by a synchronous walk did with it.
enum SynchronousOutcome<Frame: Sendable>: Sendable {
    /// It does not take this message synchronously (its behaviour has its own hook): nothing was
    /// done, the caller sends the message.
    case refused
    /// Its whole subtree is done.
    case finished
    /// It stopped at an endpoint that needs an async message: the frames to resume, innermost
    /// first, the last its own.
    case stopped([Frame])
}

/// Where a controller's own walk over its children stopped.
enum WalkStop<Frame: Sendable> {
    /// At its child in `slot`, which needs an async message (`answer`: the size announced to it).
    case child(slot: Int, answer: Size)
    /// Below its child in `slot`: `frames`, innermost first, resume what was stopped; then this
    /// controller goes on after that child.
    case below([Frame], after: Int)
}

/// What a controller's walk still has to do after a stop.
enum PendingStep: Sendable {
    /// Send the message to the child in `slot` (with `answer`, the announced size, for the
    /// size walk), then go on with the next.
    case child(slot: Int, answer: Size)
    /// The child in `slot`'s subtree was resumed by the frames before this one: go on after it.
    case after(slot: Int)
    /// The children are done: send the message to the presentation controller (R6, R10).
    case presentation
}

/// A controller's size walk (`viewWillTransition`, R2–R6) stopped by a synchronous walk.
struct SizeWalkFrame: Sendable {
    let controller: Controller
    let pending: PendingStep
    let size: Size
    let targets: Range<Int>
    let transition: TransitionInfo
    let cause: EventRef
}

/// The `sizeForChild` query a parent made before a child that takes `viewWillTransition`
/// synchronously: the child records it with its own message, under one lock (R2, R5).
struct SizeQuery {
    /// The parent's name in the trace.
    let parent: TraceName
    /// The size the parent asked with: its own new size.
    let parentSize: Size
}

/// What a layout pass (R10) passes from a controller's own part to its children's.
struct LayoutPass: Sendable {
    /// The first and last slots with an announced size to apply (`first > last` when none).
    let first: Int
    let last: Int
    /// The children's cause: the controller's `viewWillLayoutSubviews` when it laid out.
    let cause: EventRef?
    /// The presentation controller, laid out after the children when it had a size announced.
    let presentation: (any ControllerEndpoint)?
}

/// A controller's layout pass stopped by a synchronous walk.
struct LayoutWalkFrame: Sendable {
    let controller: Controller
    let pending: PendingStep
    let pass: LayoutPass
}

/// What a controller reached by a synchronous walk did, from where its own walk over its
/// children stopped (`stop`; nil: every child done): finished, or stopped with the frames to
/// resume — those below it, innermost first, then its own, made by `frame` from what it still
/// has to do. `presentationLeft`: a presentation controller still to be sent the message after
/// the children (R6, R10).
@inline(__always)
func outcome<Frame>(of stop: WalkStop<Frame>?, presentationLeft: Bool, frame: (PendingStep) -> Frame) -> SynchronousOutcome<Frame> {
    let pending: PendingStep
    var frames: [Frame] = []
    switch stop {
    case nil:
        guard presentationLeft else { return .finished }
        pending = .presentation
    case let .child(slot, answer):
        pending = .child(slot: slot, answer: answer)
    case let .below(below, slot):
        frames = below
        pending = .after(slot: slot)
    }
    frames.append(frame(pending))
    return .stopped(frames)
}

/// The synchronous entries of a controller reached by a synchronous walk, as functions of the
/// controller isolated (`enterViewWillTransition`, `enterLayout`), and as the same functions
/// called without isolation by a caller that runs on the controller's executor. `assumeIsolated`
/// makes that cast, but it takes a closure, whose context (the message's arguments) was
/// allocated and freed on every hop, and its run-time check (`preconditionIsolated`) went
/// through the executor's witness: together they made the synchronous walk slower than the
/// async one (`perf`, docs/performance.md). A file-level function has no context.
typealias TakeViewWillTransition = (isolated Controller, SizeQuery, Size, TransitionInfo, EventRef, Int) -> SynchronousOutcome<SizeWalkFrame>
typealias TakeViewWillTransitionNow = (Controller, SizeQuery, Size, TransitionInfo, EventRef, Int) -> SynchronousOutcome<SizeWalkFrame>
typealias TakeLayout = (isolated Controller, Rect, EventRef?, Int) -> SynchronousOutcome<LayoutWalkFrame>
typealias TakeLayoutNow = (Controller, Rect, EventRef?, Int) -> SynchronousOutcome<LayoutWalkFrame>

extension Controller {
    /// Whether this controller may take `viewWillTransition` synchronously: its behaviour is
    /// UIKit's, or its type is known to keep UIKit's hook or to override only the synchronous
    /// `viewWillTransitionBeforeSuper` (read from the shared settings, which learn first: a
    /// necessary condition, checked without the controller's isolation so that a child with its
    /// own async hook costs no more than before).
    nonisolated var mayTakeViewWillTransitionNow: Bool {
        usesDefaultBehavior || settings.learnedDefaultHooks & DefaultHook.synchronousViewWillTransition != 0
    }

    /// The child in `slot` as a controller of this window on this executor within the
    /// synchronous depth, else nil (the walk sends it an async message); unretained.
    ///
    /// Retaining the child for the synchronous call and releasing it after was 8% of a walk's
    /// samples (docs/performance.md, issue 27 item 9, second pass). Safe to use it unretained for
    /// the synchronous call (`_withUnsafeGuaranteedRef`, nothing longer): `endpoints` holds it
    /// strongly, and only this controller's `appendChild`, `removeLastChild` and `replaceChild`
    /// change `endpoints` — package methods isolated to this controller that the window calls
    /// with async messages, which cannot run on this executor while the synchronous call runs
    /// on it, and which a behaviour's hook (public API only) cannot call.
    @inline(__always)
    private func synchronousChild(at slot: Int, depth: Int) -> Unmanaged<Controller>? {
        guard depth < synchronousDepth, let child = endpoints.local(at: slot), child.environment === environment else { return nil }
        return Unmanaged.passUnretained(child)
    }

    /// Starts loading this controller's two arrays of children as a synchronous walk enters it,
    /// so that they arrive while it records its message: their first touch, on going through the
    /// children right after, was the walk's most missed load at 100k controllers (docs/
    /// performance.md, issue 27 item 9, second pass). A leaf's are the shared empty array.
    @inline(__always)
    private func prefetchChildArrays() {
        // The arrays' storage, as a hint only: never read through, and not retained (a retain
        // would write the very line being fetched).
        trellis_prefetch_object(unsafeBitCast(endpoints.all, to: UnsafeRawPointer.self))
        trellis_prefetch_object(unsafeBitCast(slots, to: UnsafeRawPointer.self))
    }

    // MARK: The size walk

    /// What super does with `viewWillTransition`: R2, R5: one child at a time, its SFC asked
    /// right before it, its subtree done before the next; then the presentation controller (R6).
    @inline(__always)
    func forwardSizeTransition(to size: Size, transition: TransitionInfo, cause: EventRef) async {
        await forwardSizeTransition(to: size, targets: defaultTargets, from: defaultTargets.lowerBound, transition: transition, cause: cause)
    }

    // Inlined into its callers, as the one loop was before: an async call not inlined takes an
    // async frame, on every controller of a walk with Swift behaviours.
    @inline(__always)
    private func forwardSizeTransition(to size: Size, targets: Range<Int>, from start: Int, transition: TransitionInfo, cause: EventRef) async {
        var next = start
        while let stop = forwardSizeTransitionSegment(to: size, targets: targets, from: next, transition: transition, cause: cause) {
            switch stop {
            case let .child(slot, answer):
                await sendViewWillTransition(toChildAt: slot, size: answer, transition: transition, cause: cause)
                next = slot + 1
            case let .below(frames, slot):
                for frame in frames { await frame.controller.resume(frame) }
                next = slot + 1
            }
        }
        await sendViewWillTransitionToPresentation(size: size, transition: transition, cause: cause)
    }

    /// `forwardSizeTransitionNow` from the top, as one segment of the recorder's
    /// (`TraceRecorder.recordingSegment`): the synchronous walk records two events a controller,
    /// and taking the recorder's lock for each was a fifth of the walk. The segment ends before
    /// any async message the walk stopped at is sent.
    private func forwardSizeTransitionSegment(
        to size: Size, targets: Range<Int>, from start: Int, transition: TransitionInfo, cause: EventRef
    ) -> WalkStop<SizeWalkFrame>? {
        var stop: WalkStop<SizeWalkFrame>?
        recorder.recordingSegment {
            stop = forwardSizeTransitionNow(to: size, targets: targets, from: start, transition: transition, cause: cause, depth: 0)
        }
        return stop
    }

    /// The children of `targets` from `start` on, each asked for (SFC) and, when its size
    /// changes (R4), told synchronously where it can be; returns where an async message is
    /// needed, nil when every child is done.
    private func forwardSizeTransitionNow(
        to size: Size, targets: Range<Int>, from start: Int, transition: TransitionInfo, cause: EventRef, depth: Int
    ) -> WalkStop<SizeWalkFrame>? {
        // The first four children: each later one is prefetched four ahead of the walk
        // (`ChildEndpoints.prefetch(at:)`).
        endpoints.prefetch(at: start)
        endpoints.prefetch(at: start + 1)
        endpoints.prefetch(at: start + 2)
        endpoints.prefetch(at: start + 3)
        for slot in start..<targets.upperBound {
            // The child four ahead, issued before this one is first read (by a Swift behaviour's
            // `size(forChild:)`, right below): a prefetch issued after a load that misses waits
            // for it (docs/performance.md, issue 28, fifth pass).
            endpoints.prefetch(at: slot + 4)
            // The query (SFC) is recorded here, or by the child with its `viewWillTransition`.
            let answer = sizeRule(forChildAt: slot, parentSize: size)
            // R4: an edge decided by SFC is skipped when the size does not change.
            guard answer != slots[slot].size else {
                recordSizeQuery(forChildAt: slot, parentSize: size, answer: answer, cause: cause, transition: transition.id)
                continue
            }
            slots[slot].announced = answer
            guard let unretained = synchronousChild(at: slot, depth: depth),
                  unretained._withUnsafeGuaranteedRef({ $0.mayTakeViewWillTransitionNow }) else {
                recordSizeQuery(forChildAt: slot, parentSize: size, answer: answer, cause: cause, transition: transition.id)
                return .child(slot: slot, answer: answer)
            }
            let query = SizeQuery(parent: traceName, parentSize: size)
            let outcome = unretained._withUnsafeGuaranteedRef { child in
                // Safe: this runs isolated to `self`, so on its executor, `environment.executor`;
                // `synchronousChild` checked that `child` has the same environment, whose executor
                // is a `let`, so `child`'s executor (`unownedExecutor`) is this one. `assumeIsolated`
                // makes the same cast after checking that at run time, which debug builds also do.
                #if DEBUG
                child.preconditionIsolated()
                #endif
                return unsafeBitCast(enterViewWillTransition as TakeViewWillTransition, to: TakeViewWillTransitionNow.self)(
                    child, query, answer, transition, cause, depth + 1)
            }
            switch outcome {
            case .refused: return .child(slot: slot, answer: answer)
            case .finished: continue
            case let .stopped(frames): return .below(frames, after: slot)
            }
        }
        return nil
    }

    /// Records the `sizeForChild` query of the child in `slot` on its own (R2): its size does not
    /// change, or the child takes the message as an async one.
    @inline(__always)
    private func recordSizeQuery(forChildAt slot: Int, parentSize: Size, answer: Size, cause: EventRef, transition: Int) {
        recorder.recordSizeForChild(slots[slot].name, parent: parentSize, answer: answer, controller: traceName, cause: cause, transition: transition)
    }

    /// `viewWillTransition` arriving as a synchronous call: what `deliverViewWillTransition`
    /// does for a behaviour that keeps UIKit's hook, as far as it can go without waiting.
    fileprivate func takeViewWillTransitionNow(
        _ query: SizeQuery, to size: Size, transition: TransitionInfo, cause: EventRef, depth: Int
    ) -> SynchronousOutcome<SizeWalkFrame> {
        guard usesDefaultBehavior || defaultHooks & DefaultHook.synchronousViewWillTransition != 0 || learnedSynchronousViewWillTransition() else {
            recorder.recordSizeForChild(traceName, parent: query.parentSize, answer: size, controller: query.parent, cause: cause, transition: transition.id)
            return .refused
        }
        prefetchChildArrays()
        // The parent's query and this message, one after the other under one lock.
        let event = recorder.recordSizeForChildAndViewWillTransition(
            traceName, parent: query.parent, parentSize: query.parentSize, answer: size, cause: cause, transition: transition.id)
        noteSizeTransition()
        if !usesDefaultBehavior, defaultHooks & DefaultHook.viewWillTransition.rawValue == 0,
           runViewWillTransitionBeforeSuper(to: size, transition: transition, event: event) == .suppress {
            return .finished
        }
        let targets = defaultTargets
        let stop = forwardSizeTransitionNow(to: size, targets: targets, from: targets.lowerBound, transition: transition, cause: event, depth: depth)
        return outcome(of: stop, presentationLeft: presents) { pending in
            SizeWalkFrame(controller: self, pending: pending, size: size, targets: targets, transition: transition, cause: event)
        }
    }

    /// Whether the shared settings learned, since this controller last copied them, that its
    /// behaviour's type lets the walk take `viewWillTransition` synchronously; copies them.
    ///
    /// The copy in `defaultHooks` is refreshed only after a hook of this controller runs, and the
    /// size hooks' bits are learned by the first controller whose hook runs (the root, on the
    /// first transition): without this, every other controller refused the first transition's
    /// synchronous call, took it as an async message and made a `DeliverySlot` for it — a heap
    /// block a controller, kept, that the synchronous walk never needs.
    func learnedSynchronousViewWillTransition() -> Bool {
        defaultHooks = settings.learnedDefaultHooks
        return defaultHooks & DefaultHook.synchronousViewWillTransition != 0
    }

    /// Goes on with a size walk a synchronous walk stopped, from where it stopped.
    func resume(_ frame: SizeWalkFrame) async {
        let next: Int
        switch frame.pending {
        case let .child(slot, answer):
            await sendViewWillTransition(toChildAt: slot, size: answer, transition: frame.transition, cause: frame.cause)
            next = slot + 1
        case let .after(slot):
            next = slot + 1
        case .presentation:
            await sendViewWillTransitionToPresentation(size: frame.size, transition: frame.transition, cause: frame.cause)
            return
        }
        await forwardSizeTransition(to: frame.size, targets: frame.targets, from: next, transition: frame.transition, cause: frame.cause)
    }

    /// `viewWillTransition` to the child in `slot` as an async message.
    @inline(__always)
    private func sendViewWillTransition(toChildAt slot: Int, size: Size, transition: TransitionInfo, cause: EventRef) async {
        if let child = endpoints.local(at: slot) {
            await child.deliverViewWillTransition(to: size, transition: transition, cause: cause)
        } else {
            await endpoints[slot].deliverViewWillTransition(to: size, transition: transition, cause: cause)
        }
    }

    /// R6: after the children, the presentation controller, with this controller's own new
    /// size, no SFC.
    @inline(__always)
    private func sendViewWillTransitionToPresentation(size: Size, transition: TransitionInfo, cause: EventRef) async {
        guard presents else { return }
        presentation?.slot.announced = size
        await presentation?.endpoint.deliverViewWillTransition(to: size, transition: transition, cause: cause)
    }

    // MARK: The layout pass

    /// The layout pass's children from `start` on (the ones it announced sizes to, R10), then
    /// the presentation controller.
    @inline(__always)
    func layOutChildren(_ pass: LayoutPass, from start: Int) async {
        var next = start
        while let stop = layOutChildrenSegment(pass, from: next) {
            switch stop {
            case let .child(slot, _):
                await sendLayout(toChildAt: slot, cause: pass.cause)
                next = slot + 1
            case let .below(frames, slot):
                for frame in frames { await frame.controller.resume(frame) }
                next = slot + 1
            }
        }
        if let presentation = pass.presentation {
            await presentation.layout(frame: Rect(size), cause: pass.cause)
        }
    }

    /// `layOutChildrenNow` from the top, as one segment of the recorder's, as
    /// `forwardSizeTransitionSegment`.
    private func layOutChildrenSegment(_ pass: LayoutPass, from start: Int) -> WalkStop<LayoutWalkFrame>? {
        var stop: WalkStop<LayoutWalkFrame>?
        recorder.recordingSegment {
            stop = layOutChildrenNow(pass, from: start, depth: 0)
        }
        return stop
    }

    /// The children with an announced size from `start` on, each laid out synchronously where
    /// it can be; returns where an async message is needed, nil when every child is done.
    private func layOutChildrenNow(_ pass: LayoutPass, from start: Int, depth: Int) -> WalkStop<LayoutWalkFrame>? {
        guard start <= pass.last else { return nil }
        let first = max(start, pass.first)
        endpoints.prefetch(at: first)
        endpoints.prefetch(at: first + 1)
        endpoints.prefetch(at: first + 2)
        endpoints.prefetch(at: first + 3)
        for slot in first...pass.last where slots.indices.contains(slot) && slots[slot].announced != nil {
            slots[slot].announced = nil
            endpoints.prefetch(at: slot + 4)
            guard let unretained = synchronousChild(at: slot, depth: depth) else { return .child(slot: slot, answer: .zero) }
            let frame = childFrame(at: slot)
            let outcome = unretained._withUnsafeGuaranteedRef { child in
                // Safe: as in `forwardSizeTransitionNow`.
                #if DEBUG
                child.preconditionIsolated()
                #endif
                return unsafeBitCast(enterLayout as TakeLayout, to: TakeLayoutNow.self)(child, frame, pass.cause, depth + 1)
            }
            switch outcome {
            case .refused: return .child(slot: slot, answer: .zero)
            case .finished: continue
            case let .stopped(frames): return .below(frames, after: slot)
            }
        }
        return nil
    }

    /// The layout pass arriving as a synchronous call (its hooks are synchronous: every
    /// controller takes it), as far as it can go without waiting.
    fileprivate func takeLayoutNow(frame: Rect, cause: EventRef?, depth: Int) -> SynchronousOutcome<LayoutWalkFrame> {
        prefetchChildArrays()
        let pass = beginLayout(frame: frame, cause: cause)
        return outcome(of: layOutChildrenNow(pass, from: pass.first, depth: depth), presentationLeft: pass.presentation != nil) { pending in
            LayoutWalkFrame(controller: self, pending: pending, pass: pass)
        }
    }

    /// Goes on with a layout pass a synchronous walk stopped, from where it stopped.
    func resume(_ frame: LayoutWalkFrame) async {
        switch frame.pending {
        case let .child(slot, _):
            await sendLayout(toChildAt: slot, cause: frame.pass.cause)
            await layOutChildren(frame.pass, from: slot + 1)
        case let .after(slot):
            await layOutChildren(frame.pass, from: slot + 1)
        case .presentation:
            await frame.pass.presentation?.layout(frame: Rect(size), cause: frame.pass.cause)
        }
    }

    /// The layout pass to the child in `slot` as an async message, with the frame this
    /// controller gives it.
    @inline(__always)
    private func sendLayout(toChildAt slot: Int, cause: EventRef?) async {
        if let child = endpoints.local(at: slot) {
            await child.layout(frame: childFrame(at: slot), cause: cause)
        } else {
            await endpoints[slot].layout(frame: childFrame(at: slot), cause: cause)
        }
    }
}

/// `Controller.takeViewWillTransitionNow` as a function without a context (`TakeViewWillTransition`).
private func enterViewWillTransition(
    _ controller: isolated Controller, _ query: SizeQuery, _ size: Size, _ transition: TransitionInfo, _ cause: EventRef, _ depth: Int
) -> SynchronousOutcome<SizeWalkFrame> {
    controller.takeViewWillTransitionNow(query, to: size, transition: transition, cause: cause, depth: depth)
}

/// `Controller.takeLayoutNow` as a function without a context (`TakeLayout`).
private func enterLayout(_ controller: isolated Controller, _ frame: Rect, _ cause: EventRef?, _ depth: Int) -> SynchronousOutcome<LayoutWalkFrame> {
    controller.takeLayoutNow(frame: frame, cause: cause, depth: depth)
}
