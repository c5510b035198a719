/// Whether a node's I/O loop, finding nothing to do, spins a while before it sleeps — and when it
/// stops: the state machine alone, without sockets, so that it can be checked with made-up times.
///
/// Sleeping at once makes whatever comes next pay a wake-up (tens of microseconds on a virtual
/// machine whose idle vCPU halted); a round trip pays it on both sides. A spin of a few tens of
/// microseconds catches the answer awake, as Erlang's schedulers do (`NodeIOTuning.idleSpin`).
/// A spin costs the CPU it burns, so it is bounded three ways: each spin by `budget` (and by the
/// loop's next deadline); a loop whose spins keep finding nothing (traffic too sparse for a spin to
/// catch) rests — sleeps at once — after `missesBeforeRest` misses in a row, until traffic wakes
/// it within `shortWait` of falling asleep (dense enough again for a spin to pay) or for
/// `restingIdles` idle turns at most; and the loop gives the core away between looks (`sched_yield`,
/// `yieldsCore`), so that the threads it waits for — the peer's, libzmq's own, the actors' —
/// run at once, on a single CPU too.
struct IdleSpin {
    typealias Instant = ContinuousClock.Instant

    /// How long one spin lasts at most; zero: never spin.
    let budget: Duration
    /// Spins in a row that find nothing before the loop rests.
    let missesBeforeRest: Int
    /// Idle turns a resting loop sleeps at once, at most.
    let restingIdles: Int
    /// A sleep that traffic ends this soon ends the rest.
    let shortWait: Duration
    /// Whether the loop gives the core away between looks (`NodeIOTuning.idleSpinYields`).
    let yieldsCore: Bool

    /// Spins in a row that found nothing.
    private(set) var misses = 0
    /// Idle turns left to rest.
    private(set) var restLeft = 0
    /// When the current spin ends (nil: not spinning).
    private(set) var end: Instant?

    init(budget: Duration, missesBeforeRest: Int, restingIdles: Int, shortWait: Duration, yieldsCore: Bool) {
        self.budget = max(budget, .zero)
        self.missesBeforeRest = max(missesBeforeRest, 1)
        self.restingIdles = max(restingIdles, 0)
        self.shortWait = shortWait
        self.yieldsCore = yieldsCore
    }

    /// The loop found nothing to do at `now` and must wake by `deadline` (the heartbeats' next):
    /// true when it spins first, until `keepsSpinning` says no or it finds work (`found`).
    mutating func starts(at now: Instant, deadline: Instant) -> Bool {
        end = nil
        guard budget > .zero else { return false }
        if restLeft > 0 {
            restLeft -= 1
            return false
        }
        let spinEnd = min(now.advanced(by: budget), deadline)
        guard spinEnd > now else { return false }
        end = spinEnd
        return true
    }

    /// Whether the spin goes on at `now`; false once its time is up, which counts as a miss (and
    /// enough misses in a row make the loop rest).
    mutating func keepsSpinning(at now: Instant) -> Bool {
        guard let end else { return false }
        guard now >= end else { return true }
        self.end = nil
        misses += 1
        if misses >= missesBeforeRest {
            misses = 0
            restLeft = restingIdles
        }
        return false
    }

    /// The spin found work at `now`: it paid, and the misses count again from zero — unless its
    /// time was already up. Then a look came back late because giving the core away let other
    /// threads hold it past the spin (a CPU shared with busy threads: each yield costs a time
    /// slice), and the work came meanwhile, not thanks to the spin: the loop rests at once
    /// rather than pay a slice at every idle turn (docs/decisions.md "zmtp3").
    mutating func found(at now: Instant) {
        let late = end.map { now > $0 } ?? false
        end = nil
        misses = 0
        if late { restLeft = restingIdles }
    }

    /// The loop slept for `duration`, until traffic woke it (`byTraffic`) or its deadline came: a
    /// resting loop woken by traffic within `shortWait` spins again from its next idle turn.
    mutating func slept(for duration: Duration, byTraffic: Bool) {
        if byTraffic, duration <= shortWait { restLeft = 0 }
    }
}
