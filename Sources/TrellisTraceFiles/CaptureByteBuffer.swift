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

    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
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

    /// Forgets the first `written` bytes (handed over to be written) and moves the rest to the start.
    func removeFirst(_ written: Int) {
        // Overlapping when more than half remains: a memmove.
        UnsafeMutableRawPointer(base).copyMemory(from: base + written, byteCount: count - written)
        count -= written
    }

    /// Makes room for `extra` more bytes; the `put`s after it do not check.
    final func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
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

    @inline(__always)
    final func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    final func put(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { put($0) }
    }
}
