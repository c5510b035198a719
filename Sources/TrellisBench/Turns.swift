import TrellisModel

/// Sides of a comparison measured in turns: a round of each side, `rounds` times, each round
/// starting one side later than the round before, so that no side always runs first or always
/// right after the same other side (what the machine still does for the side before — the
/// kernel writing back a file round's pages, the allocator giving back a window's memory — falls
/// on each side in turn). Each side's best round counts.
///
/// Source: measurement (docs/performance.md, "Turns that rotate"): in a fixed order the side
/// measured first paid for the side before it, and the figures of two sides could not tell
/// that from their own cost.
struct Turns {
    /// One side: measures a round (its number given, for the orientation) and returns its rate.
    typealias Side = (_ round: Int) async throws -> Double

    /// The best rate of each side, in the order `sides` are given.
    static func best(rounds: Int, _ sides: [Side]) async throws -> [Double] {
        var best = Array(repeating: 0.0, count: sides.count)
        for round in 0..<rounds {
            for turn in 0..<sides.count {
                let side = (round + turn) % sides.count
                best[side] = max(best[side], try await sides[side](round))
            }
        }
        return best
    }

    /// The size of round `round`: the orientations alternate, so that every round is a size
    /// transition.
    static func size(ofRound round: Int) -> Size {
        round % 2 == 0 ? Size(568, 320) : Size(320, 568)
    }
}
