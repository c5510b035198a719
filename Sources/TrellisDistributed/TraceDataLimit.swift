/// How much trace one worker's answer to a TRACE-REQUEST may bring the conductor (TWP/1 §9.7):
/// past either bound the rest of that answer is refused — a fault of the run naming the worker
/// and the bound — so that a worker which never marks a part last, or sends trace without end,
/// costs the conductor a bounded time and memory instead of a collection that never ends.
package struct TraceDataLimit: Sendable, Equatable {
    /// The octets of the TRACE-DATA messages of one answer, header frames included (so that empty
    /// parts count too). The default, 1 GiB, is about five times what the largest runs measured
    /// ship in JSON Lines (a million events: about 210 MB) and a hundred times their compact form
    /// (about 10 MB), docs/performance.md.
    package var bytes: Int
    /// The TRACE-DATA parts of one answer. The reference cuts a part once it holds 1 MiB (compact)
    /// or 4 MiB (JSON Lines): 4096 parts would hold at least 4 GiB, more than `bytes` lets in, so
    /// only a worker sending many tiny parts meets this bound.
    package var parts: Int
    /// How long the whole answer may take, from the TRACE-REQUEST to the part marked last. Each
    /// part must also come within 10 s of the one before; this bound stops a worker that sends
    /// a small part every few seconds from holding the conductor for hours. The default, 10
    /// minutes, is 1 GiB at under 2 MB/s.
    package var time: Duration

    /// The bounds of the reference conductor (TWP/1 §9.7).
    package static let standard = TraceDataLimit(bytes: 1 << 30, parts: 4096, time: .seconds(600))

    package init(bytes: Int, parts: Int, time: Duration = .seconds(600)) {
        self.bytes = bytes
        self.parts = parts
        self.time = time
    }

    /// What one answer brought so far, against these bounds.
    struct Tally {
        var bytes = 0
        var parts = 0

        /// Counts a part of `messageBytes`; what it would exceed, said for the fault, or nil when
        /// the part is within the bounds.
        mutating func add(messageBytes: Int, within limit: TraceDataLimit) -> String? {
            parts += 1
            bytes += messageBytes
            if parts > limit.parts { return "more than \(limit.parts) TRACE-DATA parts" }
            if bytes > limit.bytes { return "more than \(limit.bytes) bytes of TRACE-DATA" }
            return nil
        }
    }
}
