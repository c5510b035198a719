import TrellisModel
import TrellisTrace

/// What became of a user action delivered to a behaviour (SPEC §4.2).
public enum ActionOutcome: Sendable, Hashable {
    /// `perform` handled it.
    case handled
    /// `perform` returned false (the default): a `warning` in the trace, not a failure.
    case notHandled
    /// The behaviour declares a value of another JSON type (nil: a value where none is expected
    /// is not an error; a missing one is `.null`'s absence): refused with an error, `perform`
    /// not called.
    case wrongValueType(expected: ActionValueType, got: ActionValueType?)

    /// Whether `value` suits a behaviour that expects `expected` (nil: anything, or nothing).
    public static func check(_ value: ActionValue?, expected: ActionValueType?) -> ActionOutcome? {
        guard let expected, value?.type != expected else { return nil }
        return .wrongValueType(expected: expected, got: value?.type)
    }

    /// The warning or error the window records under the action's target, nil when handled.
    public func message(action: String, on target: ControllerID) -> TraceMessage? {
        switch self {
        case .handled:
            return nil
        case .notHandled:
            return .warning("action \(action) on \(target) was not handled (its behaviour's perform returned false)")
        case let .wrongValueType(expected, got):
            return .error(Self.refusal(action: action, on: target, expected: expected, got: got))
        }
    }

    /// The words of a refused value, one text for the trace's error line and the scenario
    /// reader's error (which refuses such a step before anything runs).
    public static func refusal(action: String, on target: ControllerID, expected: ActionValueType, got: ActionValueType?) -> String {
        "action \(action) on \(target): its behaviour expects \(expected.withArticle) value, got " + (got.map(\.withArticle) ?? "none")
    }
}

extension BehaviorHost {
    /// Records `request` (caused by the hook being handled) and queues it for the window (§4.2).
    func enqueue(_ request: BehaviorRequest, from requester: ControllerID) {
        let cause = hookCause
        let event = record(.request(request.description), cause: cause.event, transition: cause.transition)
        environment.requests.append(QueuedRequest(requester: requester, request: request, event: event))
    }

    /// Delivers a user action to the behaviour: checks the value's type it declares, then runs
    /// `perform` as the handling of `event` (so that what it requests is caused by the action).
    func deliverAction(
        value: ActionValue?, expected: ActionValueType?, event: EventRef, _ perform: () async -> Bool
    ) async -> ActionOutcome {
        if let refusal = ActionOutcome.check(value, expected: expected) { return refusal }
        var handled = false
        await handle(.action, event: event, transition: nil, recordsSuppression: false) {
            handled = await perform()
        }
        return handled ? .handled : .notHandled
    }
}
