import Testing
@testable import TrellisDistributed

/// An interrupted run's `eventsReceived` must not read the answers while the run's own
/// collection (of a node it found gone) holds them half read: it waits until every collection
/// underway has ended (`TraceCollection.whenCollected`). Without that wait a SIGINT kept only a
/// node's first steps of hundreds (the rest were taken, not yet read, when the program exited).
@Suite struct TraceCollectionWaitTests {
    /// A run's trace collection, and one reader waiting for it.
    actor Holder {
        var traces = TraceCollection(limit: .standard)
        var registered = false
        var resumed = false

        func begin() { traces.collectionBegins() }
        func end() { traces.collectionEnded() }
        func waitUntilCollected() async {
            await withCheckedContinuation { continuation in
                traces.whenCollected(continuation)
                registered = true
            }
            resumed = true
        }
    }

    @Test("with no collection underway the reader goes on at once")
    func noneUnderway() async {
        let holder = Holder()
        await holder.waitUntilCollected()
        #expect(await holder.resumed)
    }

    @Test("the reader waits until the last of two collections underway has ended")
    func twoUnderway() async throws {
        let holder = Holder()
        await holder.begin()
        await holder.begin()
        let reader = Task { await holder.waitUntilCollected() }
        var turns = 0
        while !(await holder.registered), turns < 100_000 {
            await Task.yield()
            turns += 1
        }
        try #require(await holder.registered)
        await holder.end()
        #expect(!(await holder.resumed))
        await holder.end()
        await reader.value
        #expect(await holder.resumed)
    }
}
