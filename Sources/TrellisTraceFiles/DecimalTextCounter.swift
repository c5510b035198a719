/// The decimal text of a number that mostly goes up by one from a line to the next (an event's
/// sequence number, and its Lamport clock while no clock from another node moves it): kept as
/// text in two words and counted up in the text, so that nine lines in ten cost an addition
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
        // Counting up is adding one to the last digit, unless it is a 9 (a carry: made afresh).
        if number == value &+ 1, digits != 0, low >> 56 != 0x39 {
            low &+= 1 << 56
        } else {
            set(number)
        }
        value = number
        let target = UnsafeMutableRawPointer(buffer.base + buffer.count)
        switch digits {
        case 0:
            buffer.putDecimal(number)
            return
        case 1...8:
            target.storeBytes(of: (low >> (8 &* (8 &- digits))).littleEndian, as: UInt64.self)
        default:
            target.storeBytes(of: (high >> (8 &* (16 &- digits))).littleEndian, as: UInt64.self)
            target.storeBytes(of: low.littleEndian, toByteOffset: digits &- 8, as: UInt64.self)
        }
        buffer.count &+= digits
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
