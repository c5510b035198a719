import TrellisModel
import TrellisTrace

/// The messages a behaviour handles whose `super` step the runtime tracks: the `super…` methods
/// check they are called while their message is being handled, and a handler that did not call
/// super is a suppression (R8).
enum HandledMessage: String, Sendable {
    case viewWillTransition, willTransition, preferredContentSizeDidChange, systemLayoutFittingSizeDidChange
    case containerViewWillLayoutSubviews
    case containerViewDidLayoutSubviews
    /// A presentation or dismissal transition callback (R42).
    case transitionCallback
    /// A user action (SPEC §4.2): no super step, nothing forwarded.
    case action

    /// The name of the `super` step, for the error a misplaced call records.
    var superName: String {
        "super" + rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
}

/// The message a controller or presentation controller is handling: its event (the cause of
/// what it leads to), its transition, and what the behaviour did about super.
struct Delivery {
    var message: HandledMessage
    var cause: EventRef
    var transition: TransitionInfo?
    var superCalled = false
    /// Slots forwarded to by manual forwarding.
    var forwarded: Set<Int> = []
}

/// Where a controller keeps the `Delivery` being handled: made the first time its behaviour is
/// handed an async message and kept, so that handling a message writes into it instead of
/// allocating a box (a controller with a Swift behaviour handles two messages a size
/// transition). Controllers whose behaviours run only synchronously on a walk (UIKit's, or
/// `viewWillTransitionBeforeSuper` and `size(forChild:)`) never make one: a block a controller
/// between the blocks the walk reads made its loads miss more (docs/performance.md, issue 28,
/// fourth pass). Belongs to its controller's actor.
final class DeliverySlot {
    // Only its controller's actor touches it, and never across a suspension.
    @exclusivity(unchecked) var current: Delivery?
    /// Its controller's id, read here by the async size walk rather than from the controller,
    /// where it sits past the lines the walk touches.
    let owner: ControllerID

    init(_ current: Delivery?, owner: ControllerID) {
        self.current = current
        self.owner = owner
    }

    /// Whether the delivery being handled is `message`'s and its behaviour called super.
    @inline(__always)
    func superCalled(_ message: HandledMessage) -> Bool {
        current?.message == message && current?.superCalled == true
    }

    /// Marks super called in place when `message` is being handled, and returns its cause; nil
    /// (nothing marked) when another message, or none, is.
    @inline(__always)
    func markSuperCalled(_ message: HandledMessage) -> EventRef? {
        guard current?.message == message else { return nil }
        current?.superCalled = true
        return current?.cause
    }
}

/// An actor that hands messages to a behaviour — a view controller or a presentation
/// controller — and keeps the one `Delivery` being handled. The suppression rule (R8) and the
/// check of every `super` step live here, once for both.
protocol BehaviorHost: Actor {
    var environment: RuntimeEnvironment { get }
    var delivery: Delivery? { get set }
    /// What `super` would have forwarded `handled`'s message to and did not, for the suppression
    /// event (R8).
    func suppressedTargets(_ handled: Delivery) -> [ControllerID]
    @discardableResult
    func record(_ message: TraceMessage, cause: EventRef?, transition: Int?) -> EventRef
}

extension BehaviorHost {
    /// Runs `body` as the handling of `message`; `nil` for `recordsSuppression` when not calling
    /// super is not a suppression (the callback forwards nothing). Returns what the behaviour did.
    @discardableResult
    func handle(
        _ message: HandledMessage, event: EventRef, transition: TransitionInfo?, recordsSuppression: Bool = true,
        _ body: () async -> Void
    ) async -> Delivery {
        let outer = beginHandling(message, event: event, transition: transition)
        await body()
        return endHandling(message, event: event, transition: transition, outer: outer, recordsSuppression: recordsSuppression)
    }

    /// The first half of `handle`, for a hot path that calls the behaviour itself rather than
    /// through a closure (one async frame less a message): makes `message` the one being handled
    /// and returns the delivery it interrupts, which `endHandling` puts back.
    @inline(__always)
    func beginHandling(_ message: HandledMessage, event: EventRef, transition: TransitionInfo?) -> Delivery? {
        let outer = delivery
        delivery = Delivery(message: message, cause: event, transition: transition)
        return outer
    }

    /// The second half of `handle`: restores `outer`, records the suppression when super was not
    /// called (R8), and returns what the behaviour did.
    @inline(__always)
    @discardableResult
    func endHandling(
        _ message: HandledMessage, event: EventRef, transition: TransitionInfo?, outer: Delivery?, recordsSuppression: Bool = true
    ) -> Delivery {
        let handled = delivery ?? Delivery(message: message, cause: event, transition: transition)
        delivery = outer
        if recordsSuppression, !handled.superCalled {
            recordSuppression(handled)
        }
        return handled
    }

    /// R8: `handled`'s behaviour did not call super, which cuts off what super would have
    /// forwarded to.
    func recordSuppression(_ handled: Delivery) {
        record(.suppressed(message: handled.message.rawValue, cut: suppressedTargets(handled)), cause: handled.cause, transition: handled.transition?.id)
    }

    /// Whether `size`, handed to `call` by the behaviour's code, is refused: not a size
    /// (`BehaviorGeometry`), recorded as an `error` line caused by what the behaviour is in.
    func refuses(_ size: Size, in call: String) -> Bool {
        guard let problem = BehaviorGeometry.problem(with: size) else { return false }
        let cause = hookCause
        record(.error("\(call): \(size) is not a size: \(problem)"), cause: cause.event, transition: cause.transition)
        return true
    }

    /// Whether `frame`, handed to `call` by the behaviour's code, is refused: not a frame
    /// (`BehaviorGeometry`), recorded as an `error` line caused by what the behaviour is in.
    func refuses(_ frame: Rect, in call: String) -> Bool {
        guard let problem = BehaviorGeometry.problem(with: frame) else { return false }
        let cause = hookCause
        record(.error("\(call): \(frame) is not a frame: \(problem)"), cause: cause.event, transition: cause.transition)
        return true
    }

    /// The synchronous form of `handle`, for callbacks that forward nothing.
    func handleNow(_ message: HandledMessage, event: EventRef, _ body: () -> Void) {
        let outer = delivery
        delivery = Delivery(message: message, cause: event, transition: nil)
        body()
        delivery = outer
    }

    /// R25's receipt sequence, in a transition of its own: `announce` sends `viewWillTransition`
    /// with the new sizes (the receipt, which the receivers forward down by R2–R9), then `layOut`
    /// runs the layout pass that applies them. A container resizing a child after a
    /// preferred-size request, a split view whose columns changed, a presentation controller whose
    /// style changed in a trait-only transition: each calls this, only when some size changes.
    func receipt(cause: EventRef?, announce: (TransitionInfo) async -> Void, layOut: () async -> Void) async {
        let transition = await environment.beginOwnTransition(animated: true)
        await announce(transition)
        await layOut()
        await environment.finishTransition(transition, cause: cause)
    }

    /// What a note, a request or a query a behaviour makes now is caused by (SPEC §4.2, §6): the
    /// event of the synchronous hook running now (layout, appearance, `traitCollectionDidChange`:
    /// `RuntimeEnvironment.runHook`), else the message being handled, with its transition. A
    /// synchronous hook cannot be interleaved, so while one runs it is what the behaviour is in,
    /// whatever message this actor was handling when the hook began.
    var hookCause: (event: EventRef?, transition: Int?) {
        if let hook = environment.runningHook { return hook }
        return (delivery?.cause, delivery?.transition?.id)
    }

    /// A behaviour's `super` step for `message`: marks super called and returns the delivery
    /// being handled, or records an error and returns nil when `message` is not being handled.
    func superStep(_ message: HandledMessage) -> Delivery? {
        guard let current = delivery, current.message == message else {
            record(.error("\(message.superName) called outside \(message.rawValue)"), cause: delivery?.cause, transition: delivery?.transition?.id)
            return nil
        }
        delivery?.superCalled = true
        return current
    }
}
