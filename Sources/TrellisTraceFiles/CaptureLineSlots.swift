/// The runs of a frequent JSON Lines line that stay the same from one event to many after it,
/// each kept as one text in a fixed slot so that a line copies it with `putWords` (no
/// `memmove` call, no array to bounds-check): the fields between the controller and the
/// payload's first number for each message form (they change with the transition and the step),
/// the cause and the key after it (the cause is mostly the line before's: a `sizeForChild` and
/// the `viewWillTransition` it leads to, a layout pair), the line's start, and the time's tail
/// (issue 27 item 8, fifth pass: the encoder's CPU per event is the file trace's bound once the
/// disk keeps up).
///
/// Every slot is `slotSize` bytes: its text (at most `textRoom`), at least
/// `CaptureByteBuffer.wordPadding` bytes that `putWords` may read past it, and the text's length
/// in its last word. A text that does not fit (a long node's name, escaped) is not kept: the
/// encoder then writes that piece as before.
final class CaptureLineSlots {
    static let slotSize = 256
    /// The longest text a slot holds.
    static let textRoom = slotSize - 8 - CaptureByteBuffer.wordPadding

    /// The slots: `middle(form)` for the eight forms, then the tail, the cause, the line's start.
    static let middles = 0
    static let tail = 8
    static let cause = 9
    static let prefix = 10
    private static let count = 11

    /// Never reallocated: a slot's address stays valid for as long as the encoder lives.
    let base: UnsafeMutableRawPointer

    init() {
        base = UnsafeMutableRawPointer.allocate(byteCount: Self.count * Self.slotSize, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: Self.count * Self.slotSize)
    }

    deinit {
        base.deallocate()
    }

    /// The start of `slot`'s text.
    @inline(__always)
    func text(_ slot: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(base + slot &* Self.slotSize)
    }

    /// The length of `slot`'s text; 0 for an empty slot.
    @inline(__always)
    func count(_ slot: Int) -> Int {
        base.load(fromByteOffset: slot &* Self.slotSize &+ Self.slotSize &- 8, as: Int.self)
    }

    /// Keeps the `byteCount` bytes at `source` as `slot`'s text, copied as `putWords` copies
    /// (reading up to fifteen bytes past them, which a line's room covers); false (and the slot
    /// emptied) when they do not fit.
    @inline(__always)
    func storeWords(_ source: UnsafeRawPointer, _ byteCount: Int, in slot: Int) -> Bool {
        let target = base + slot &* Self.slotSize
        let fits = byteCount <= Self.textRoom
        if fits {
            var cursor = CaptureLineCursor(at: target)
            cursor.putWords(source, byteCount)
        }
        target.storeBytes(of: fits ? byteCount : 0, toByteOffset: Self.slotSize &- 8, as: Int.self)
        return fits
    }

    /// Keeps `bytes` as `slot`'s text; false (and the slot emptied) when they do not fit.
    @discardableResult
    func store(_ bytes: UnsafeRawBufferPointer, in slot: Int) -> Bool {
        let fits = bytes.count <= Self.textRoom
        if fits, let source = bytes.baseAddress {
            (base + slot * Self.slotSize).copyMemory(from: source, byteCount: bytes.count)
        }
        base.storeBytes(of: fits ? bytes.count : 0, toByteOffset: slot * Self.slotSize + Self.slotSize - 8, as: Int.self)
        return fits && !bytes.isEmpty
    }
}
