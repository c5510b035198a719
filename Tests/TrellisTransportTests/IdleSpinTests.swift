import Testing
@testable import TrellisTransport

/// When an idle I/O loop spins before it sleeps (`IdleSpin`, issue 27 item 6), checked with
/// made-up times: each spin bounded by its budget and the loop's next deadline, and a loop whose
/// spins keep finding nothing resting for a while.
struct IdleSpinTests {
    let start = ContinuousClock.now

    func at(_ microseconds: Int) -> ContinuousClock.Instant { start.advanced(by: .microseconds(microseconds)) }

    func spin(budget: Duration = .microseconds(50), misses: Int = 3, rest: Int = 4) -> IdleSpin {
        IdleSpin(budget: budget, missesBeforeRest: misses, restingIdles: rest, shortWait: .microseconds(200), yieldsCore: false)
    }

    func starts(_ idle: inout IdleSpin, _ now: Int, deadline: Int = 1_000_000) -> Bool {
        idle.starts(at: at(now), deadline: at(deadline))
    }

    func keeps(_ idle: inout IdleSpin, _ now: Int) -> Bool {
        idle.keepsSpinning(at: at(now))
    }

    /// Spins from `from` until the spin says stop, looking every 10 µs; the last look's time.
    func spinUntilOver(_ idle: inout IdleSpin, from: Int) -> Int {
        var time = from
        while idle.keepsSpinning(at: at(time)) { time += 10 }
        return time
    }

    @Test func aSpinLastsItsBudgetThenTheLoopSleeps() {
        var idle = spin()
        #expect(starts(&idle, 0))
        #expect(idle.end == at(50))
        #expect(keeps(&idle, 49))
        #expect(!keeps(&idle, 50))
        #expect(idle.misses == 1)
        // Over: asked again, it still says stop.
        #expect(!keeps(&idle, 60))
        #expect(idle.misses == 1)
    }

    @Test func aSpinNeverOutlastsTheLoopsNextDeadline() {
        var idle = spin()
        #expect(starts(&idle, 0, deadline: 20))
        #expect(idle.end == at(20))
        #expect(!keeps(&idle, 20))
        // A deadline already due: no spin at all (the heartbeats are served first).
        #expect(!starts(&idle, 100, deadline: 100))
        #expect(idle.end == nil)
    }

    @Test func aZeroBudgetNeverSpins() {
        var idle = spin(budget: .zero)
        for turn in 0..<10 {
            #expect(!starts(&idle, turn * 100))
            #expect(!keeps(&idle, turn * 100))
        }
        #expect(idle.misses == 0)
        // A negative budget (a mistaken override) is no budget.
        var negative = spin(budget: .microseconds(-5))
        #expect(!starts(&negative, 0))
    }

    @Test func spinsThatFindNothingMakeTheLoopRestThenTryAgain() {
        var idle = spin(misses: 3, rest: 4)
        var time = 0
        for _ in 0..<3 {
            #expect(starts(&idle, time))
            time = spinUntilOver(&idle, from: time) + 1_000
        }
        #expect(idle.restLeft == 4)
        #expect(idle.misses == 0)
        // Four idle turns sleep at once...
        for _ in 0..<4 {
            #expect(!starts(&idle, time))
            #expect(!keeps(&idle, time))
            time += 1_000
        }
        // ...then spinning is tried again.
        #expect(starts(&idle, time))
        #expect(idle.restLeft == 0)
    }

    @Test func aSpinThatFindsWorkResetsTheMisses() {
        var idle = spin(misses: 3, rest: 4)
        var time = 0
        for _ in 0..<2 {
            #expect(starts(&idle, time))
            time = spinUntilOver(&idle, from: time) + 1_000
        }
        #expect(idle.misses == 2)
        // A round trip's answer, caught 20 µs into the spin.
        #expect(starts(&idle, time))
        #expect(keeps(&idle, time + 20))
        idle.found(at: at(time + 20))
        #expect(idle.misses == 0)
        #expect(idle.end == nil)
        // Two more misses do not make it rest: the count started again.
        for _ in 0..<2 {
            time += 1_000
            #expect(starts(&idle, time))
            time = spinUntilOver(&idle, from: time)
        }
        #expect(idle.restLeft == 0)
        #expect(starts(&idle, time + 1_000))
    }

    @Test func workFoundOnlyAfterTheBudgetMakesTheLoopRest() {
        // One CPU shared with busy threads: each yield lets one of them hold the core for a time
        // slice, so the look after it comes milliseconds late and finds work that came meanwhile.
        // The loop rests at once instead of paying a slice at each idle turn.
        var idle = spin(misses: 2, rest: 4)
        #expect(starts(&idle, 0))
        idle.found(at: at(3_000))
        #expect(idle.misses == 0)
        #expect(idle.end == nil)
        #expect(idle.restLeft == 4)
        for turn in 0..<4 { #expect(!starts(&idle, 4_000 + turn)) }
        #expect(starts(&idle, 5_000))
        // Work found within the budget still pays.
        var paying = spin(misses: 2, rest: 4)
        #expect(starts(&paying, 0))
        paying.found(at: at(30))
        #expect(paying.misses == 0)
        #expect(paying.restLeft == 0)
    }

    @Test func trafficThatWakesARestingLoopSoonEndsTheRest() {
        var idle = spin(misses: 1, rest: 100)
        #expect(starts(&idle, 0))
        let over = spinUntilOver(&idle, from: 0)
        #expect(idle.restLeft == 100)
        // Woken by its deadline, however soon, or by traffic after a long wait: still resting.
        idle.slept(for: .microseconds(10), byTraffic: false)
        idle.slept(for: .milliseconds(3), byTraffic: true)
        #expect(!starts(&idle, over + 10_000))
        #expect(idle.restLeft == 99)
        // Traffic within the short wait: the next idle turn spins.
        idle.slept(for: .microseconds(200), byTraffic: true)
        #expect(idle.restLeft == 0)
        #expect(starts(&idle, over + 20_000))
    }
}
