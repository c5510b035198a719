import Testing
@testable import TrellisTransport

/// The heartbeat and silence deadlines of the I/O loop (TWP/1 §9.5, SPEC §7: a peer that stops
/// is declared gone within the timeout of its last message), checked with made-up times.
struct HeartbeatsTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(milliseconds)) }

    func heartbeats() -> Heartbeats {
        Heartbeats(interval: .milliseconds(250), timeout: .milliseconds(2_000), now: start)
    }

    func silent(_ beats: inout Heartbeats, _ now: ContinuousClock.Instant) -> [String] {
        beats.newlySilent(at: now)
    }

    @Test func aSilentPeerIsGoneWithinTheTimeoutOfItsLastMessageNotOnTheNextTick() {
        var beats = heartbeats()
        beats.heard("b", at: at(10))
        beats.heard("c", at: at(20))
        beats.heardRecentPeer(at: at(1_003))  // c again; b is silent from 10 ms on
        // The loop sleeps no later than b's deadline: its last message + the timeout, less the margin.
        #expect(beats.nextSilenceCheck == at(10).advanced(by: beats.goneAfter))
        #expect(beats.goneAfter <= .milliseconds(2_000))
        #expect(silent(&beats, at(1_900)).isEmpty)
        #expect(silent(&beats, at(10).advanced(by: beats.goneAfter)) == ["b"])
        // Each once; c's deadline is next, counted from its last message.
        #expect(silent(&beats, at(1_999)).isEmpty)
        #expect(beats.nextSilenceCheck == at(1_003).advanced(by: beats.goneAfter))
        #expect(silent(&beats, at(1_003).advanced(by: beats.goneAfter)) == ["c"])
    }

    @Test func hearingAPeerPutsItsDeadlineOff() {
        var beats = heartbeats()
        beats.heard("b", at: at(0))
        for tick in stride(from: 250, through: 10_000, by: 250) {
            beats.heardRecentPeer(at: at(tick))
            #expect(silent(&beats, at(tick)).isEmpty)
        }
        #expect(beats.counts("b"))
    }

    @Test func aPeerNeverHeardCountsFromTheFirstRequestSentToIt() {
        var beats = heartbeats()
        // Connected and greeted only: not watched (it may not be started yet).
        #expect(!beats.counts("c"))
        #expect(silent(&beats, at(60_000)).isEmpty)
        beats.sentRequest(to: "c", at: at(60_000))
        #expect(beats.counts("c"))
        #expect(silent(&beats, at(60_000).advanced(by: beats.goneAfter)) == ["c"])
        // A gone peer does not come back within a run.
        let back = beats.heard("c", at: at(70_000))
        #expect(!back)
        #expect(!beats.counts("c"))
        #expect(silent(&beats, at(90_000)).isEmpty)
    }

    @Test func withoutHeartbeatsNoPeerIsEverGone() {
        var beats = Heartbeats(interval: .milliseconds(250), timeout: .milliseconds(2_000), now: start, watchesSilence: false)
        beats.heard("b", at: at(0))
        beats.sentRequest(to: "c", at: at(0))
        #expect(silent(&beats, at(60_000)).isEmpty)
        #expect(beats.nextDeadline == at(0))
    }

    @Test func heartbeatsAreDueOncePerInterval() {
        var beats = heartbeats()
        var due = [beats.beatIsDue(at: at(0)), beats.beatIsDue(at: at(249))]
        #expect(due == [true, false])
        #expect(beats.nextDeadline == at(250))
        due = [beats.beatIsDue(at: at(251))]
        #expect(due == [true])
        #expect(beats.nextDeadline == at(501))
    }

    /// A peer cycling through made-up routing ids (issue 16): each name is watched while it
    /// speaks and forgotten once gone, but for the last `NodeIOTuning.goneStrangersRemembered`.
    @Test func strangersGoneSilentAreForgottenBeyondTheLastFew() {
        var beats = heartbeats()
        let strangers = 10_000
        for index in 0..<strangers {
            beats.heard("stranger-\(index)", at: at(index / 10))
        }
        #expect(silent(&beats, at(strangers / 10).advanced(by: beats.goneAfter)).count == strangers)
        let kept = beats.peersKept
        #expect(kept == NodeIOTuning.goneStrangersRemembered)
        // The last one gone is still gone; one forgotten is heard anew, and would be gone again.
        beats.heard("late", at: at(5_000))
        #expect(silent(&beats, at(5_000).advanced(by: beats.goneAfter)) == ["late"])
        let forgotten = (0..<strangers).map { "stranger-\($0)" }.filter { !beats.isGone($0) }
        #expect(forgotten.count == strangers - NodeIOTuning.goneStrangersRemembered + 1)
        let lateIsNew = beats.heard("late", at: at(20_000))
        let forgottenIsNew = beats.heard(forgotten.first ?? "", at: at(20_000))
        #expect(!lateIsNew)
        #expect(forgottenIsNew)
        #expect(silent(&beats, at(20_000).advanced(by: beats.goneAfter)) == [forgotten.first ?? ""])
    }

    /// A node of the run stays gone for the run (§9.5 rule 3), however many strangers come and go
    /// after it — also one declared gone before the node opened its stream to it.
    @Test func aNodeOfTheRunStaysGoneWhateverStrangersCome() {
        var beats = heartbeats()
        beats.isNode("b")
        beats.heard("b", at: at(0))
        beats.heard("c", at: at(0))
        #expect(silent(&beats, at(0).advanced(by: beats.goneAfter)) == ["b", "c"])
        beats.isNode("c")  // a worker whose greeting was handled after it was declared gone
        for index in 0..<(2 * NodeIOTuning.goneStrangersRemembered) {
            beats.heard("stranger-\(index)", at: at(5_000))
        }
        #expect(silent(&beats, at(5_000).advanced(by: beats.goneAfter)).count == 2 * NodeIOTuning.goneStrangersRemembered)
        let kept = beats.peersKept
        #expect(kept == 2 + 2 + NodeIOTuning.goneStrangersRemembered)
        let back = [beats.heard("b", at: at(9_000)), beats.heard("c", at: at(9_000))]
        #expect(back == [false, false])
        #expect(!beats.counts("b") && !beats.counts("c"))
    }

    /// Without heartbeats nobody's silence is watched: nobody heard is kept either.
    @Test func withoutHeartbeatsNoPeerIsKept() {
        var beats = Heartbeats(interval: .milliseconds(250), timeout: .milliseconds(2_000), now: start, watchesSilence: false)
        for index in 0..<10_000 {
            beats.heard("stranger-\(index)", at: at(index))
        }
        let kept = beats.peersKept
        #expect(kept == 0)
    }
}
