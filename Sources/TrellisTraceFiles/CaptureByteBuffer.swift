/// The growable buffer the capture encoders write into: a file trace writes a dozen (compact)
/// to a few hundred (JSON Lines) bytes per event, and `Array.append` checks uniqueness and
/// capacity for every call. Room is made once per event (`reserve`), then bytes are put
/// unchecked. Only one thread uses an encoder, one call at a time (a file writer's queue), so
/// the run-time exclusivity checks would prove nothing.
class CaptureByteBuffer {
    @exclusivity(unchecked) final var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) final var capacity: Int
    /// The bytes written since the last `removeAll()`.
    @exclusivity(unchecked) final var count = 0

    init(capacity: Int = 2 << 20) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    final func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Forgets the bytes written (they have been written out); a compact encoder folds them
    /// into its checksum first.
    func removeAll() {
        count = 0
    }

    /// Makes room for `extra` more bytes; the `put`s after it do not check.
    final func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
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
