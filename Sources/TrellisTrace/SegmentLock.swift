#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Trellis needs a C library it knows: Glibc, Musl or Darwin")
#endif
import Synchronization

/// The recorder's lock: a thread may keep it across a segment of recordings (a synchronous walk,
/// `TraceRecorder.recordingSegment`), recording without taking it again for each event.
///
/// A synchronous walk records two events a controller, one call each, and `Mutex` cost each call
/// two `lock cmpxchg` and two calls for the thread's id — three quarters of the recording
/// methods' samples, a fifth of the walk (docs/performance.md, issue 27 item 9). Here a call
/// from the thread that holds the lock for a segment takes no atomic read-modify-write at all,
/// and any other call takes one (`cmpxchg` to take it, a plain store to give it back).
///
/// What it keeps: one thread at a time runs a body on the value, so the order of the recorder's
/// calls stays the order of its events, as with `Mutex`. A segment is not a transaction: another
/// thread records before or after it, never inside it, and a long segment gives the lock up every
/// `segmentLength` events so that the other windows of the node are not kept waiting.
///
/// Why sharing `value`'s pointer is sound (the reason for its `nonisolated(unsafe)`, the one
/// unchecked thing here; `Mutex` shares its storage the same way):
/// - Only the holder touches the value. A thread holds the lock from the `compareExchange` that
///   wrote its id into `owner` (acquiring) to the store that writes 0 (releasing); only the
///   holder writes `owner` while it holds it, and no other thread ever writes this thread's id,
///   so a thread that reads its own id there (the segment's path, relaxed: it reads its own
///   write) holds the lock, and one that reads anything else does not. Thread ids are not
///   reused while the lock is held: a segment and a body are synchronous calls, ended before
///   their thread can exit.
/// - What one holder wrote, the next reads: its releasing store of 0 comes before the next
///   holder's acquiring `compareExchange`.
/// - One access at a time, also on one thread: a body lends the value out `inout`, so a body
///   that called back into the lock would be handed the same value a second time. The bodies
///   are `TraceRecorder`'s (the lock is internal to this module), and they run only this
///   module's code and the standard library's (interning, appending, building events), none of
///   which calls the recorder — except where one hands a chunk to a `TraceChunkSink`, a public
///   protocol whose `write` could. That call goes through `callingOut`, which sets `held`'s
///   `lent` bit around it, and a call of this thread that finds the bit set traps (as `Mutex`
///   does on a recursive lock) instead of lending the value again. Marking every body instead
///   cost two stores a call on the walk; the check is a test of a word the call loads anyway.
/// - `Value` is `Sendable`: what a body leaves in the value or returns from it may be used on
///   another thread later.
/// - The value is freed by `deinit`, when nothing holds the lock any more.
struct SegmentLock<Value: Sendable>: ~Copyable, Sendable {
    /// The holder's thread (`currentThread`), 0 when free. Only the holder writes its own id
    /// here and takes it out, so a thread that reads its own id holds the lock.
    private let owner = Atomic<UInt>(0)
    /// Bodies run by the holder of a segment since it took the lock, with `lent` while a body
    /// calls out (`callingOut`): written only by the holder.
    private let held = Atomic<Int>(0)
    /// Threads waiting for the lock: a segment that gives it up lets them take it first.
    private let waiters = Atomic<Int>(0)
    /// The value, reached only by the thread that holds the lock, one body at a time (above).
    nonisolated(unsafe) private let value: UnsafeMutablePointer<Value>

    /// `held`'s bit for a body calling out of this module (`callingOut`).
    private static var lent: Int { 1 << 62 }

    /// Bodies a segment runs before it gives the lock up and takes it again.
    static var segmentLength: Int { 256 }

    init(_ initial: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value, holding the lock. `body` must not call back into a method of
    /// the same lock (the recorder's bodies only compute and append), and calls code outside
    /// this module only through `callingOut`, where calling back traps.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        let me = Self.currentThread()
        if owner.load(ordering: .relaxed) == me {
            let count = held.load(ordering: .relaxed)
            precondition(count & Self.lent == 0, "SegmentLock: called back from code a body called out to")
            if count &+ 1 >= Self.segmentLength {
                giveUp(me)
            } else {
                held.store(count &+ 1, ordering: .relaxed)
            }
            return body(&value.pointee)
        }
        acquire(me)
        defer { owner.store(0, ordering: .releasing) }
        return body(&value.pointee)
    }

    /// Runs `body`, code outside this module that a body of `withLock` calls (a chunk sink's
    /// `write`), with `held`'s `lent` bit set: a call back into the lock from it traps rather
    /// than lend the value out a second time. Only a body of `withLock` calls it (it holds the
    /// lock, so it alone writes `held`).
    /// `argument` is handed over to `body` (a chunk, which the sink then owns alone).
    func callingOut<Argument>(with argument: consuming Argument, _ body: (consuming Argument) -> Void) {
        let count = held.load(ordering: .relaxed)
        held.store(count | Self.lent, ordering: .relaxed)
        body(argument)
        held.store(count, ordering: .relaxed)
    }

    /// Takes the lock for a segment of `withLock` calls from this thread; false (and nothing
    /// taken) when this thread already holds it, so that segments nest.
    func beginSegment() -> Bool {
        let me = Self.currentThread()
        guard owner.load(ordering: .relaxed) != me else { return false }
        acquire(me)
        held.store(0, ordering: .relaxed)
        return true
    }

    /// Ends a segment `beginSegment` began (`began`: what it returned).
    func endSegment(_ began: Bool) {
        guard began else { return }
        owner.store(0, ordering: .releasing)
    }

    /// Gives the lock up in the middle of a segment and takes it again, after the threads that
    /// wait for it if any: the holder yields the processor while one of them has not taken it
    /// (a few times at most: a waiter that is not running does not hold the segment up).
    private func giveUp(_ me: UInt) {
        owner.store(0, ordering: .releasing)
        var turns = 0
        while waiters.load(ordering: .relaxed) > 0 && owner.load(ordering: .relaxed) == 0 && turns < 16 {
            sched_yield()
            turns += 1
        }
        acquire(me)
        held.store(0, ordering: .relaxed)
    }

    /// Waits for the lock and takes it: a few reads, then the processor is yielded. The lock is
    /// held for one event or for a segment of a walk (given up every `segmentLength` events),
    /// and a segment waits for no other thread unless a behaviour's hook in it blocks its
    /// thread on one (docs/decisions.md), so a waiter does not wait long.
    private func acquire(_ me: UInt) {
        if owner.compareExchange(expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
            return
        }
        waiters.add(1, ordering: .relaxed)
        defer { waiters.subtract(1, ordering: .relaxed) }
        var spins = 0
        while true {
            if owner.load(ordering: .relaxed) == 0,
               owner.compareExchange(expected: 0, desired: me, successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                return
            }
            spins += 1
            if spins > 64 { sched_yield() }
        }
    }

    /// This thread's identity, never 0.
    @inline(__always)
    private static func currentThread() -> UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: pthread_self())
        #endif
    }
}
