/// A small, fast pseudo-random generator (Steele, Lea and Flood's SplitMix64) whose whole state
/// is one seed: the same seed gives the same numbers on every machine and every run, which is
/// what a generator of test scenarios needs to be replayable from the seed alone.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), without the bias of a plain remainder.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "below(_:) needs a positive bound")
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    /// True with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// One element of a non-empty array.
    public mutating func pick<T>(_ elements: [T]) -> T {
        elements[below(elements.count)]
    }

    /// A number in the closed range.
    public mutating func between(_ low: Int, _ high: Int) -> Int {
        low + below(high - low + 1)
    }
}
