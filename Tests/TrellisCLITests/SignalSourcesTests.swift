import Foundation
import Testing
@testable import TrellisCLI

/// `SignalSources.make` returns once its sources listen: a signal sent at once is handled, not
/// dropped while libdispatch registers them (a conductor signalled as it began to listen once
/// lost its SIGINT so, and ran on silent until killed).
@Suite struct SignalSourcesTests {
    @Test("a signal sent as soon as the signal sources are made reaches their handler")
    func aSignalSentAtOnceIsHandled() async throws {
        // One after another (never two sources for the signal at once): each kill is this
        // repetition's. SIGUSR2: nothing else in the test process uses it.
        for repetition in 1...50 {
            let (heard, hear) = AsyncStream<Void>.makeStream()
            let sources = await SignalSources.make([SIGUSR2]) { _ in hear.yield() }
            defer { sources.forEach { $0.cancel() } }
            kill(getpid(), SIGUSR2)
            // The handler's call, or 10 s (a signal lost never comes).
            let handled = await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    var calls = heard.makeAsyncIterator()
                    return await calls.next() != nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(10))
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                hear.finish()
                return first
            }
            try #require(handled, "repetition \(repetition): the signal was lost")
        }
    }
}
