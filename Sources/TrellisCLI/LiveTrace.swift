import Foundation
import Synchronization
import TrellisTrace
import TrellisTraceFiles

/// The trace of an in-process `trellis run` on standard output as the run makes it: each step's
/// events once the step is done, so that `| head`, `| grep` and a person watching a long run see
/// the first steps at once, and a run stopped by a signal has printed what it traced (SPEC §10:
/// nothing already delivered is lost). Before, the whole trace was printed when the run ended.
///
/// Printing happens on the run's task after each step and, once, on a signal's handler: the
/// printed count is kept under a lock, and after `close` nothing more is printed, so the two
/// never interleave a line.
final class LiveTrace: Sendable {
    private let recorder: TraceRecorder
    private let jsonLines: Bool
    private let runID: String
    /// How many events were printed, and whether printing has stopped.
    private enum State {
        case printing(printed: Int)
        case closed(printed: Int)
    }

    private let state = Mutex(State.printing(printed: 0))

    init(recorder: TraceRecorder, jsonLines: Bool, runID: String) {
        self.recorder = recorder
        self.jsonLines = jsonLines
        self.runID = runID
    }

    /// Prints the events recorded since the last call (nothing once closed).
    func printNew() {
        state.withLock { state in
            switch state {
            case let .printing(printed): state = .printing(printed: printed + print(recorder.events(after: printed)))
            case .closed: return
            }
        }
    }

    /// Prints what `all` — the run's events, a snapshot taken once by the caller, who writes
    /// the same to its files — holds beyond what was printed, and stops printing; returns how
    /// many events were printed in all. Called again, prints nothing and returns the same.
    @discardableResult
    func close(with all: [TraceEvent]) -> Int {
        state.withLock { state in
            switch state {
            case let .printing(printed):
                let total = printed + print(Array(all.dropFirst(printed)))
                state = .closed(printed: total)
                return total
            case let .closed(printed):
                return printed
            }
        }
    }

    /// Prints `events` as `trellis run` prints a trace; returns their count.
    private func print(_ events: [TraceEvent]) -> Int {
        var output = OutputBuffer()
        for event in events {
            // Printed JSON lines are self-contained (each names its run and node): a stream that
            // line-oriented tools cut and filter, not a file.
            output.line(jsonLines ? TraceCaptureFormat.line(for: event, runID: runID) : event.canonicalLine)
        }
        output.flush()
        return events.count
    }
}
