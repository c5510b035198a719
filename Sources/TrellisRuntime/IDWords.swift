import TrellisModel

/// A `ControllerID`'s representation as two words, read without copying the id (no retain of
/// its storage): two ids with the same words are the same id while the id the words were read
/// from is alive (its storage cannot then be another string's), so finding the same words proves
/// equality, while different words prove nothing (the caller then compares the ids).
/// `RuntimeEnvironment` keeps the words only for the duration of one `size(forChild:)` call,
/// whose argument holds the id.
struct IDWords: Equatable {
    let low: UInt64
    let high: UInt64

    /// Whether an id is two 64-bit words here, as on every 64-bit platform; elsewhere every id
    /// reads as (0, 0) and must not be compared this way.
    /// (A constant the compiler folds: no lazily made global to check on the walk.)
    @inline(__always)
    static var representID: Bool { MemoryLayout<ControllerID>.size == 2 * MemoryLayout<UInt64>.size }

    /// The words as kept (`RuntimeEnvironment`'s asked child).
    init(_ low: UInt64, _ high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The words of `id`, borrowed: bytes copied, nothing retained.
    @inline(__always)
    init(_ id: borrowing ControllerID) {
        (low, high) = withUnsafeBytes(of: id) { bytes in
            guard bytes.count == 2 * MemoryLayout<UInt64>.size else { return (0, 0) }
            return (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
    }
}
