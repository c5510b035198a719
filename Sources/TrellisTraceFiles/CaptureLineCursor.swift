/// Where the next byte of a frequent JSON Lines line goes, kept in a register while the line is
/// written. The buffer's `count` is a stored property that every unchecked store through `base`
/// might alias, so a line written piece by piece through it made each piece wait for the store
/// of the one before (issue 27 item 8, fifth pass). The line's room is made before (`reserve`)
/// and its end stored once after (`CaptureByteBuffer.count(upTo:)`).
struct CaptureLineCursor {
    var position: UnsafeMutableRawPointer

    /// A cursor at the end of `buffer`'s bytes.
    @inline(__always)
    init(at buffer: CaptureByteBuffer) {
        position = UnsafeMutableRawPointer(buffer.base + buffer.count)
    }

    /// A cursor at `position`, whose room the caller made (`CaptureLineSlots`).
    @inline(__always)
    init(at position: UnsafeMutableRawPointer) {
        self.position = position
    }

    /// Copies `byteCount` bytes (at least one) sixteen at a time, without a call to `memmove`:
    /// for the short pieces of a line (a name, a size's text, a cached run of keys). Reads and
    /// writes up to fifteen bytes past the piece, so the source must have them (the caches keep
    /// `CaptureByteBuffer.wordPadding` bytes after their last piece) and the room made must
    /// cover them (the bytes written past are overwritten by what follows, or are past the end
    /// stored).
    @inline(__always)
    mutating func putWords(_ source: UnsafeRawPointer, _ byteCount: Int) {
        var offset = 0
        repeat {
            position.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset, as: SIMD16<UInt8>.self)
            offset &+= 16
        } while offset < byteCount
        position += byteCount
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        position.copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        position += text.utf8CodeUnitCount
    }

    /// Bytes of an array, which has no padding after them for `putWords`.
    @inline(__always)
    mutating func put(_ bytes: UnsafeRawBufferPointer) {
        if let source = bytes.baseAddress { position.copyMemory(from: source, byteCount: bytes.count) }
        position += bytes.count
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        position.storeBytes(of: byte, as: UInt8.self)
        position += 1
    }

    /// An unsigned whole number in decimal, two digits at a time (`CaptureByteBuffer.putDecimal`).
    @inline(__always)
    mutating func putDecimal(_ value: UInt64) {
        let digits = CaptureByteBuffer.decimalDigits(value)
        CaptureByteBuffer.writeDecimal(value, endingAt: position + digits)
        position += digits
    }
}

extension CaptureByteBuffer {
    /// Ends a line written through `cursor`: the bytes up to it are the buffer's.
    @inline(__always)
    final func count(upTo cursor: CaptureLineCursor) {
        count = cursor.position - UnsafeMutableRawPointer(base)
    }
}
