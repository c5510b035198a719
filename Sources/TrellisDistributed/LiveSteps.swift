import TrellisTrace
import TrellisTraceFiles

/// What of a distributed run's trace was handed on step by step (`DistributedOptions.stepTraced`):
/// how many of the conductor's and of each worker's events, and whether it still goes on.
///
/// Each node's events of a step come in its sequence order, steps one after the other, so the
/// events of the steps through `step` are the start of each node's events; merged by causality
/// (`TraceMerge`), they are the start of the run's merged trace, because a step begins only once
/// every answer of the step before arrived, and each answer's clock is taken by the conductor
/// before its next step's first event.
struct LiveSteps {
    /// How many of each node's events were handed on (the conductor's under its own name).
    private var handed: [String: Int] = [:]
    /// False once a step could not be handed on whole: nothing more is.
    private(set) var goesOn = true

    /// Nothing more is handed on.
    mutating func stop() {
        goesOn = false
    }

    /// How many of `node`'s events were handed on.
    func handed(of node: String) -> Int {
        handed[node] ?? 0
    }

    /// The events of the steps through `step` not handed on yet, merged: from each node's
    /// events after those handed on (`fresh`, in its order), those up to the first of a later
    /// step.
    mutating func take(through step: Int, from fresh: [(node: String, events: [TraceEvent])]) -> [TraceEvent] {
        var taken: [[TraceEvent]] = []
        for (node, events) in fresh {
            let end = events.firstIndex { $0.step > step } ?? events.count
            handed[node, default: 0] += end
            taken.append(Array(events[..<end]))
        }
        return TraceMerge.merge(taken)
    }
}
