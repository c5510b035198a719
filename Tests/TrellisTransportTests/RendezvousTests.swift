import Synchronization
import Testing
@testable import TrellisDistributed

/// The waits of the conductor and workers (issue 16: pinned to one CPU, "node b did not send its
/// trace"). The deadlines here are fired by the test (`HandFiredDeadlines`), so each test decides
/// exactly when a deadline runs instead of hoping the scheduler does.
@Suite struct RendezvousTests {
    /// The race: a wait ends (its message arrived) and its deadline is cancelled, but on a busy
    /// CPU that deadline still runs after the next wait for the same key has begun — every
    /// TRACE-DATA part of a node comes under one key. It must not end that next wait.
    @Test func aDeadlineThatRunsAfterItsWaitEndedDoesNotEndTheNextWaitForTheSameKey() async {
        let deadlines = HandFiredDeadlines()
        let rendezvous = Rendezvous<Int>(startDeadline: deadlines.start)
        var started = deadlines.started.makeAsyncIterator()

        async let first = rendezvous.wait(for: "reply:7", timeout: .seconds(600))
        #expect(await started.next() == 0)  // the first wait is registered, with its deadline
        await rendezvous.deliver(1, for: "reply:7")
        #expect(await first == 1)

        async let second = rendezvous.wait(for: "reply:7", timeout: .seconds(600))
        #expect(await started.next() == 1)
        await deadlines.fire(0)  // the first wait's deadline runs late
        await rendezvous.deliver(2, for: "reply:7")
        #expect(await second == 2)
    }

    /// What arrived for an answer that is done is dropped, not kept for a wait that never comes
    /// (the parts a worker sent after its trace was refused).
    @Test func whatNobodyWaitsForIsDiscarded() async {
        let deadlines = HandFiredDeadlines()
        let rendezvous = Rendezvous<Int>(startDeadline: deadlines.start)
        var started = deadlines.started.makeAsyncIterator()
        for part in 1...3 { await rendezvous.deliver(part, for: "reply:b:7") }
        await rendezvous.deliver(9, for: "reply:c:8")
        await rendezvous.discard("reply:b:7")
        // Nothing of b's is left: the next wait for that key waits (and its deadline ends it).
        async let next = rendezvous.wait(for: "reply:b:7", timeout: .seconds(600))
        #expect(await started.next() == 0)
        await deadlines.fire(0)
        #expect(await next == nil)
        #expect(await rendezvous.wait(for: "reply:c:8", timeout: .seconds(600)) == 9)
        // Torn down, nothing is kept either.
        await rendezvous.deliver(4, for: "reply:b:7")
        await rendezvous.cancelAll()
        async let after = rendezvous.wait(for: "reply:b:7", timeout: .seconds(600))
        #expect(await started.next() == 1)
        await deadlines.fire(1)
        #expect(await after == nil)
    }

    @Test func aDeadlineEndsItsOwnWaitWithNil() async {
        let deadlines = HandFiredDeadlines()
        let rendezvous = Rendezvous<Int>(startDeadline: deadlines.start)
        var started = deadlines.started.makeAsyncIterator()
        async let waited = rendezvous.wait(for: "hello:b", timeout: .seconds(600))
        #expect(await started.next() == 0)
        await deadlines.fire(0)
        #expect(await waited == nil)
        // A message that comes later is kept for the next wait.
        await rendezvous.deliver(3, for: "hello:b")
        #expect(await rendezvous.wait(for: "hello:b", timeout: .seconds(600)) == 3)
    }

    /// The other half of the race: a cancelled sleeping deadline never fires (a swallowed
    /// cancellation, `try? await Task.sleep`, made it fire at once).
    @Test func aCancelledSleepingDeadlineNeverFires() async {
        let fired = Mutex(false)
        let deadline = Rendezvous<Int>.sleepingDeadline(.seconds(600)) { fired.withLock { $0 = true } }
        deadline.cancel()
        await deadline.value
        #expect(!fired.withLock { $0 })
    }

    @Test func aSleepingDeadlineFiresAfterItsTimeout() async {
        let fired = Mutex(false)
        let deadline = Rendezvous<Int>.sleepingDeadline(.milliseconds(1)) { fired.withLock { $0 = true } }
        await deadline.value
        #expect(fired.withLock { $0 })
    }

    @Test func messagesThatArriveFirstAreHandedOverInOrder() async {
        let rendezvous = Rendezvous<Int>(startDeadline: HandFiredDeadlines().start)
        await rendezvous.deliver(1, for: "k")
        await rendezvous.deliver(2, for: "k")
        #expect(await rendezvous.wait(for: "k", timeout: .seconds(1)) == 1)
        #expect(await rendezvous.wait(for: "k", timeout: .seconds(1)) == 2)
    }

    @Test func cancelAllEndsEveryWait() async {
        let deadlines = HandFiredDeadlines()
        let rendezvous = Rendezvous<Int>(startDeadline: deadlines.start)
        var started = deadlines.started.makeAsyncIterator()
        async let waited = rendezvous.wait(for: "k", timeout: .seconds(600))
        #expect(await started.next() == 0)
        await rendezvous.cancelAll()
        #expect(await waited == nil)
    }
}

/// Deadlines that run only when the test fires them, numbered from 0 in the order they start
/// (announced on `started`). Firing one runs its action whether or not it was cancelled: that is
/// what a scheduler that runs a cancelled deadline late does.
final class HandFiredDeadlines: Sendable {
    private let actions = Mutex<[@Sendable () async -> Void]>([])
    let started: AsyncStream<Int>
    private let announce: AsyncStream<Int>.Continuation

    init() {
        (started, announce) = AsyncStream.makeStream(of: Int.self)
    }

    var start: Rendezvous<Int>.StartDeadline {
        { [self] _, fire in
            let number = actions.withLock { actions in
                actions.append(fire)
                return actions.count - 1
            }
            announce.yield(number)
            return Task {}
        }
    }

    /// Runs deadline `number`'s action and returns when it is done.
    func fire(_ number: Int) async {
        let action = actions.withLock { $0.indices.contains(number) ? $0[number] : nil }
        await action?()
    }
}
