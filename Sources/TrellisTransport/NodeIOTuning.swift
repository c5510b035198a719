import Foundation

/// The tuning constants of a node's I/O loop (`NodeIOLoop`), each with the `trellis bench`
/// figure it serves and what moved that figure when it was set (docs/performance.md). A change to
/// one is measured with `trellis bench --quick` on a release build, before and after. The loop
/// runs over `TrellisZMTP`'s sockets by default since "zmtp3" (`NodeSocketLayer`; libzmq's with
/// CURVE or `TRELLIS_SOCKET_LAYER=libzmq`): the figures below were measured over libzmq unless
/// they say otherwise, and each constant serves both layers.
enum NodeIOTuning {
    /// At most this many inbound messages are taken per turn of the loop. Serves
    /// **zmq-throughput** (64 B and 1 KiB, ipc and tcp): one turn's poll, lock and clock read are
    /// paid once for up to this many messages, not once each. Bounded so that a peer flooding the
    /// ROUTER cannot starve the node's own sends, its jobs or its heartbeats: at a few hundred
    /// nanoseconds a message a turn lasts a millisecond or two at most.
    static let inboundMessagesPerTurn = 4096

    /// At most this many jobs of tasks that prefer the I/O thread run per turn (those they queue
    /// included). Serves **distributed-traversal** and **zmq-rtt**: a call made from the I/O
    /// thread goes out and its RETURN resumes it without a thread hand-off, while a long walk that
    /// keeps queueing work still lets the sockets (and heartbeats) be served every few thousand jobs.
    static let jobsPerTurn = 4096

    /// A turn that took batches at least this large (bytes of the largest BATCH body) is in a
    /// flood. Serves **zmq-throughput-64B**: lone messages (a round trip's CALL or RETURN, tens
    /// of bytes) stay far below it and never yield, so **zmq-rtt** is untouched.
    static let floodBytes = 4096

    /// How many times a turn in a flood gives the core away (`sched_yield`) waiting for more before
    /// it sleeps: the sender then fills the next batch instead of paying an eventfd wake-up for
    /// it. Serves **zmq-throughput-64B**: 0.5–0.72 of raw libzmq with none, 0.57–1.1 with one,
    /// 0.75–1.3 with up to three (docs/decisions.md, "After a large batch …").
    static let floodYields = 3

    /// How long the loop, finding nothing to do, spins — polls its sockets and queue without
    /// blocking, giving the core away between looks — before it sleeps
    /// (`IdleSpin`). Serves **zmq-rtt**: asleep, the loop pays a wake-up for every message of a
    /// round trip (~64 µs to wake a thread whose vCPU halted, on the VMs measured), which is why
    /// Erlang/OTP, whose schedulers spin before sleeping, went round in 21 µs against Trellis's
    /// 37–121 µs. With a spin the answer of a round trip comes within ~30 µs: spins of 20, 50 and
    /// 100 µs gave the same round trip (29.1–31.2 µs, measured in turns with 34.3–39.6 without);
    /// 50 leaves room for a slower machine, and a spin that finds nothing burns half what 100
    /// would. `TRELLIS_IO_SPIN_MICROSECONDS` overrides it for measurement (0: never spin).
    /// Figures in docs/performance.md, "issue 27 item 6".
    static let idleSpin = spinOverride ?? .microseconds(50)

    /// Spins in a row that find nothing before the loop rests (`IdleSpin`). Serves no bench
    /// figure but the CPU a node burns when its traffic is too sparse for a spin to catch:
    /// messages every few hundred µs would otherwise cost a whole spin each. A round trip's spins
    /// find its answer, so it never rests.
    static let idleSpinMissesBeforeRest = 4

    /// The idle turns a resting loop sleeps at once, at most, before it tries spinning again.
    /// Serves **distributed-traversal**: a node whose calls each take milliseconds (a worker
    /// walking its subtree, the conductor waiting for it) spins 4 times in 68 idle turns at most;
    /// and a loop whose traffic quickens spins again on its own (`idleSpinShortWait`) or at the
    /// latest after these turns.
    static let idleSpinRestingIdles = 64

    /// A sleep that traffic ends this soon ends a rest: messages come densely enough again for a
    /// spin to catch them. Serves **zmq-rtt**: a round trip made while both sides rest lasts
    /// ~35 µs on a loaded machine and ~120 µs on a quiet one, so both sides spin again after a trip
    /// or two; a worker's wait for its next call (milliseconds) never ends a rest.
    static let idleSpinShortWait = Duration.microseconds(200)

    /// Whether a spin gives the core away (`sched_yield`) between looks. Serves **zmq-rtt**, on
    /// many CPUs and on one: with it the round trip took 30.7–32.0 µs unpinned and 29.4–30.0 µs
    /// under `taskset -c 0`; without it 36.9–64.6 µs and 36.3–37.0 µs — no better than not
    /// spinning (the threads the loop waits for, libzmq's own among them, waited for the spin
    /// to end). `TRELLIS_IO_SPIN_YIELD=0` turns it off for measurement.
    static let idleSpinYields = getenv("TRELLIS_IO_SPIN_YIELD").map { String(cString: $0) != "0" } ?? true

    /// `TRELLIS_IO_SPIN_MICROSECONDS`, when set to a whole number (of microseconds, 0 to 10,000).
    private static var spinOverride: Duration? {
        guard let text = getenv("TRELLIS_IO_SPIN_MICROSECONDS"), let value = Int(String(cString: text)), (0...10_000).contains(value) else { return nil }
        return .microseconds(value)
    }

    /// A peer is declared gone once it has been silent for its timeout less this margin. Serves
    /// no bench figure but SPEC §7's promise: a peer that stops is declared gone within the
    /// timeout (2 s) of its last message, the check's own latency — the poll's wake-up, rounding
    /// to whole milliseconds, a loaded core — included. With the defaults (250 ms, 2 s) a live
    /// peer would still have had to miss seven heartbeats in a row.
    static let goneCheckMargin = Duration.milliseconds(50)

    /// How many strangers gone silent a node remembers (`Heartbeats`, `OutboundCalls`). Serves no
    /// bench figure but SPEC §7's rule that hostile input never costs unbounded memory: anybody
    /// can connect to a node's inbox under a fresh routing id, again and again, and each name heard
    /// and gone silent would otherwise be kept for the whole run. The nodes of the run — the peers
    /// a node opened a stream to — are remembered as gone for the run, whatever this says (TWP/1
    /// §9.5 rule 3). Forgetting a stranger is harmless: no call waits on it and nothing is sent to
    /// it (there is no stream); if it speaks again it is heard anew and, silent again, declared
    /// gone again — one more `peerGone` for a peer the node's handlers ignore.
    static let goneStrangersRemembered = 1024

    /// Bytes a ZMTP socket queues for one peer before a send waits (`NodeSocketLayer.zmtp`): the
    /// byte-counted stand-in for libzmq's high-water mark of `NodeIOConfiguration.highWaterMark`
    /// messages. 16 MiB holds a flood of small messages as that mark does, and a single larger
    /// message is always taken into an empty queue; past it a message waits in `PeerWrites`
    /// (backpressure, nothing dropped).
    static let zmtpWriteBound = 16 << 20

    /// How long a ZMTP peer may take over each step of its handshake before the node drops the
    /// connection (`ZMTPRouter`/`ZMTPDealer.handshakeTimeout`). Serves no bench figure but no
    /// loss: libzmq gives a whole handshake 30 s (`ZMQ_HANDSHAKE_IVL`), and a libzmq peer whose
    /// handshake our side drops after it took its first messages for that connection loses
    /// them; with every thread on one CPU (the pinned test runs) a step can take more than the
    /// module's 5 s (docs/decisions.md "zmtp3"). A peer that trickles its bytes is still
    /// dropped, within four steps.
    static let zmtpHandshakeTimeout = Duration.seconds(30)
}
