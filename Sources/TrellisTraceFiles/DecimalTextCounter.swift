/// The decimal text of a number that mostly goes up by one from a line to the next (an event's
/// sequence number, and its Lamport clock while no clock from another node moves it): kept as
/// text in two words and counted up in the text, so that a line costs a few word operations
/// and one or two word stores, not a conversion (the JSON Lines encoder's numbers were its
/// largest cost, issue 27 item 8).
///
/// The text is kept in registers' form, not in memory read back byte by byte: a word read
/// just after a byte of it was written waits for the store (the first form of this counter
/// spent half its time there).
struct DecimalTextCounter {
    /// The text's last eight digits as the eight bytes of memory order (the last digit the
    /// highest byte), "0"s before a shorter number's; `high` the eight before them.
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    /// How many digits the text has; 0 when there is none (no number yet, or one of more than
    /// 16 digits, which is written by `putDecimal`).
    private var digits = 0
    private var value: UInt64 = 0

    /// The largest number kept as text: 16 digits.
    private static let largest: UInt64 = 9_999_999_999_999_999

    /// Writes `number` in decimal into `buffer`, whose room the caller made (the digits and
    /// `CaptureByteBuffer.wordPadding` more).
    @inline(__always)
    mutating func put(_ number: UInt64, into buffer: CaptureByteBuffer) {
        var cursor = CaptureLineCursor(at: buffer)
        put(number, at: &cursor)
        buffer.count(upTo: cursor)
    }

    /// Writes `number` in decimal at `cursor`, whose room the caller made (as `put(_:into:)`).
    @inline(__always)
    mutating func put(_ number: UInt64, at cursor: inout CaptureLineCursor) {
        if !(number == value &+ 1 && digits != 0 && countUp()) { set(number) }
        value = number
        putAgain(at: &cursor)
    }

    /// Writes the last number's text again, with the same room made: an event's Lamport clock
    /// where it equals its sequence number (on one node, until a clock from another moves it).
    @inline(__always)
    func putAgain(at cursor: inout CaptureLineCursor) {
        guard digits != 0 else {
            cursor.putDecimal(value)
            return
        }
        if digits <= 8 {
            cursor.position.storeBytes(of: (low >> (8 &* (8 &- digits))).littleEndian, as: UInt64.self)
        } else {
            cursor.position.storeBytes(of: (high >> (8 &* (16 &- digits))).littleEndian, as: UInt64.self)
            cursor.position.storeBytes(of: low.littleEndian, toByteOffset: digits &- 8, as: UInt64.self)
        }
        cursor.position += digits
    }

    /// Adds one to the text: its trailing nines become zeros and the digit before them one more
    /// (a "0" before the first digit becomes "1"), all within `low`; false when all eight of
    /// its digits are nines (then the text is made afresh).
    @inline(__always)
    private mutating func countUp() -> Bool {
        // A nine's byte is 0 after the XOR: the zero bytes at the top are the trailing nines.
        let nines = (low ^ 0x3939_3939_3939_3939).leadingZeroBitCount &>> 3
        guard nines < 8 else { return false }
        // "9" - 9 is "0" in each of the nines' bytes (a shift by 64 is 0: no nines, no change).
        let ninesMask = ~UInt64(0) << (64 &- 8 &* nines)
        low = low &- (0x0909_0909_0909_0909 & ninesMask) &+ (1 &<< (56 &- 8 &* nines))
        digits = max(digits, nines &+ 1)
        return true
    }

    /// Makes the text that of `number`.
    @inline(never)
    private mutating func set(_ number: UInt64) {
        guard number <= Self.largest else {
            digits = 0
            return
        }
        var text: (UInt64, UInt64) = (0x3030_3030_3030_3030, 0x3030_3030_3030_3030)
        withUnsafeMutableBytes(of: &text) { bytes in
            if let start = bytes.baseAddress {
                CaptureByteBuffer.writeDecimal(number, endingAt: start + 16)
            }
        }
        high = UInt64(littleEndian: text.0)
        low = UInt64(littleEndian: text.1)
        digits = CaptureByteBuffer.decimalDigits(number)
    }
}
