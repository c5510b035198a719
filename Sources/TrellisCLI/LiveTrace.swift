import Foundation
import Synchronization
import TrellisTrace
import TrellisTraceFiles

/// The trace of a `trellis run` on standard output as the run makes it: each step's events once
/// the step is done, so that `| head`, `| grep` and a person watching a long run see the first
/// steps at once, and a run stopped by a signal has printed what it traced (SPEC §10: nothing
/// already delivered is lost). Before, the whole trace was printed when the run ended.
///
/// In-process, the events come from the run's recorder (`printNew`); in a distributed run, the
/// conductor hands on each step's merged events once every node's have arrived (`printNext`).
/// Either way what is printed is the start of the run's trace, and `close` prints the rest.
///
/// Printing happens on the run's task after each step (in a distributed run, on the conductor's
/// actor) and, once, on a signal's handler: the printed count is kept under a lock, and after
/// `close` nothing more is printed, so the two never interleave a line.
final class LiveTrace: Sendable {
    /// Where `printNew` reads; nil when the events are handed on (`printNext`).
    private let recorder: TraceRecorder?
    private let jsonLines: Bool
    private let runID: String
    /// How many events were printed, and whether printing has stopped.
    private enum State {
        case printing(printed: Int, digest: PrintedOrder)
        case closed(printed: Int, differed: Bool)
    }

    private let state = Mutex(State.printing(printed: 0, digest: PrintedOrder()))

    init(recorder: TraceRecorder?, jsonLines: Bool, runID: String) {
        self.recorder = recorder
        self.jsonLines = jsonLines
        self.runID = runID
    }

    /// Prints the events recorded since the last call (nothing once closed).
    func printNew() {
        guard let recorder else { return }
        state.withLock { state in
            switch state {
            case let .printing(printed, digest):
                let events = recorder.events(after: printed)
                state = .printing(printed: printed + print(events), digest: digest.adding(events))
            case .closed: return
            }
        }
    }

    /// Prints `events`, the next of the run's trace (nothing once closed).
    func printNext(_ events: [TraceEvent]) {
        state.withLock { state in
            switch state {
            case let .printing(printed, digest): state = .printing(printed: printed + print(events), digest: digest.adding(events))
            case .closed: return
            }
        }
    }

    /// Prints what `all` — the run's events, a snapshot taken once by the caller, who writes
    /// the same to its files — holds beyond what was printed, and stops printing; returns how
    /// many events were printed in all. Called again, prints nothing and returns the same.
    /// Should what was printed not be the start of `all` (events handed on in another order
    /// than the run's merged trace), a warning says so: the trace files hold `all`.
    @discardableResult
    func close(with all: [TraceEvent]) -> Int {
        let (total, differs) = state.withLock { state -> (Int, Bool) in
            switch state {
            case let .printing(printed, digest):
                let differs = printed > all.count || PrintedOrder().adding(all.prefix(printed)) != digest
                let total = printed + print(Array(all.dropFirst(printed)))
                state = .closed(printed: total, differed: differs)
                return (total, differs)
            case let .closed(printed, _):
                return (printed, false)
            }
        }
        if differs {
            StandardError.write("warning: the trace printed as the run went differs from the run's merged trace; the trace files hold the merged one (`trace show` prints it)")
        }
        return total
    }

    /// Whether `close` found that what was printed is not the start of the run's trace (and
    /// warned); nil before `close`.
    var printedStartDiffered: Bool? {
        state.withLock { state in
            switch state {
            case .printing: nil
            case let .closed(_, differed): differed
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

/// The order of the events printed, as one number: two sequences of events by the same ids in
/// the same order have the same one (FNV-1a over each event's node and sequence number).
struct PrintedOrder: Equatable, Sendable {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    func adding(_ events: some Sequence<TraceEvent>) -> PrintedOrder {
        var next = self
        for event in events {
            for byte in event.id.node.utf8 { next.mix(byte) }
            next.mix(0)
            var sequence = UInt64(event.id.sequence)
            for _ in 0..<8 {
                next.mix(UInt8(truncatingIfNeeded: sequence))
                sequence >>= 8
            }
        }
        return next
    }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
