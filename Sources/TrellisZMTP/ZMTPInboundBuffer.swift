/// The bytes read from a connection and not yet decoded: one allocation that grows to the largest
/// frame seen (never beyond the limits' frame size plus one read), read into in place.
public struct ZMTPInboundBuffer: Sendable {
    private var storage: [UInt8]
    private var start = 0
    private var end = 0

    /// An empty buffer of `capacity` bytes to begin with.
    public init(capacity: Int = 64 << 10) {
        storage = [UInt8](repeating: 0, count: max(capacity, 64))
    }

    /// Bytes waiting to be decoded.
    public var count: Int { end - start }

    /// The first `count` waiting bytes (all of them when fewer wait).
    public func peek(_ count: Int) -> ArraySlice<UInt8> {
        storage[start..<min(end, start + count)]
    }

    /// Drops `count` decoded bytes from the front.
    public mutating func consume(_ count: Int) {
        start = min(end, start + count)
        if start == end { start = 0; end = 0 }
    }

    /// Appends bytes (tests, and peers in the same process).
    public mutating func append(_ bytes: some Collection<UInt8>) {
        reserve(bytes.count)
        for byte in bytes {
            storage[end] = byte
            end += 1
        }
    }

    /// Lets `body` write into the free space (at least `minimum` bytes, made room for) and keeps
    /// as many bytes as it returns (a `read(2)`'s result; zero or less keeps none).
    public mutating func fill(minimum: Int, _ body: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        reserve(minimum)
        let end = self.end
        let written = storage.withUnsafeMutableBytes { all in
            body(UnsafeMutableRawBufferPointer(rebasing: all[end...]))
        }
        if written > 0 { self.end += min(written, storage.count - end) }
        return written
    }

    /// Makes room for `needed` more bytes at the end: moves the waiting bytes to the front, and
    /// grows only when they and `needed` do not fit.
    private mutating func reserve(_ needed: Int) {
        guard storage.count - end < needed else { return }
        if start > 0 {
            let waiting = count
            storage.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                (base).copyMemory(from: base + start, byteCount: waiting)
            }
            start = 0
            end = waiting
        }
        if storage.count - end < needed {
            // A new array, made at once, with the waiting bytes copied in: appending a run of
            // zeros went element by element through generic code in debug builds (the tests'),
            // about 2 s of CPU for a flood of 100 connections (docs/decisions.md "zmtp3").
            var grown = [UInt8](repeating: 0, count: storage.count + max(needed - (storage.count - end), storage.count))
            let waiting = end
            grown.withUnsafeMutableBytes { target in
                storage.withUnsafeBytes { source in
                    guard let to = target.baseAddress, let from = source.baseAddress else { return }
                    to.copyMemory(from: from, byteCount: waiting)
                }
            }
            storage = grown
        }
    }
}
