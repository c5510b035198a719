/// The growable buffer the capture encoders write into: a file trace writes a dozen (compact)
/// to a few hundred (JSON Lines) bytes per event, and `Array.append` checks uniqueness and
/// capacity for every call. Room is made once per event (`reserve`), then bytes are put
/// unchecked. Only one thread uses an encoder, one call at a time (a file writer's queue), so
/// the run-time exclusivity checks would prove nothing.
///
/// The bytes start on a `pageSize` boundary, so that a file writer can hand whole pages of them
/// to the disk without a copy (`TraceFileWriter`'s direct writes).
class CaptureByteBuffer {
    /// The alignment of the buffer's start, and the unit of a direct write.
    static let pageSize = 4096

    @exclusivity(unchecked) final var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) final var capacity: Int
    /// The bytes written since the last `removeAll()`.
    @exclusivity(unchecked) final var count = 0

    init(capacity: Int = 2 << 20) {
        self.capacity = max(capacity, 64)
        base = Self.allocate(self.capacity)
    }

    deinit {
        UnsafeMutableRawPointer(base).deallocate()
    }

    static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: pageSize).bindMemory(to: UInt8.self, capacity: capacity)
    }

    final func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes written (they have been written out); a compact encoder folds them
    /// into its checksum first.
    func removeAll() {
        count = 0
    }

    /// Gives this buffer's storage, holding the bytes written, to `block`, and takes the block's
    /// storage in its place with the last `tail` bytes moved to its start: a file writer hands
    /// its bytes over to be written without copying them (only a partial last page stays).
    func trade(with block: inout CaptureByteBlock, keeping tail: Int) {
        // A block's address is an allocation's, never 0, so `trade` never returns nil; were it
        // to, going on would write a stale block's bytes into the file.
        guard let (taken, takenCapacity) = block.trade(base, capacity: capacity, count: count) else {
            preconditionFailure("a capture block without storage")
        }
        let given = base
        base = taken
        capacity = takenCapacity
        count = 0
        reserve(tail)
        put(UnsafeRawBufferPointer(start: given + (block.count - tail), count: tail))
    }

    /// Makes room for `extra` more bytes; the `put`s after it do not check.
    @inline(__always)
    final func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(extra) }
    }

    /// `reserve`'s rare part, out of line so that every `reserve` stays a compare.
    @inline(never)
    private final func grow(_ extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let grown = Self.allocate(newCapacity)
        grown.update(from: base, count: count)
        UnsafeMutableRawPointer(base).deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    final func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    final func put(_ bytes: UnsafeRawBufferPointer) {
        if let source = bytes.baseAddress {
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count &+= bytes.count
    }

    /// What `CaptureLineCursor.putWords` may read or write past a piece.
    static let wordPadding = 16

    @inline(__always)
    final func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    final func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { put($0) }
    }
}
