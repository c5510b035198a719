import TrellisModel

/// JSON text written straight into a capture buffer, byte for byte what the `String` writers
/// give (`JSONWriter.quoted`, `CanonicalNumber.format`, `String(integer)`): the JSON Lines
/// encoder writes several hundred bytes an event, and building each piece as a `String` first
/// cost an allocation or two per piece. Every function here makes room for what it writes.
extension CaptureByteBuffer {
    /// "00" to "99".
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// `"text"` with JSON's escapes, as `JSONWriter.quoted`: a quotation mark, a backslash and
    /// every control character (below 0x20: `\n`, `\r`, `\t` by name, the others as `\u00XX`
    /// in lowercase hex) are escaped; everything else, non-ASCII included, is copied as its UTF-8
    /// bytes. Escaping by byte is escaping by scalar: every byte that needs it is ASCII, and a
    /// `String` is valid UTF-8.
    final func putQuoted(_ text: String) {
        var text = text
        text.withUTF8 { putQuoted(UnsafeRawBufferPointer($0)) }
    }

    /// `putQuoted` of text already in UTF-8.
    final func putQuoted(_ bytes: UnsafeRawBufferPointer) {
        // Six bytes at most for each byte (`\u001f`), and the two quotation marks.
        reserve(bytes.count &* 6 &+ 2)
        put(0x22)
        if !bytes.contains(where: Self.needsEscape) {
            put(bytes)
        } else {
            for byte in bytes { putEscaped(byte) }
        }
        put(0x22)
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C
    }

    /// One byte of a string's content, escaped when JSON says so (room made by the caller).
    private final func putEscaped(_ byte: UInt8) {
        switch byte {
        case 0x22: put("\\\"")
        case 0x5C: put("\\\\")
        case 0x0A: put("\\n")
        case 0x0D: put("\\r")
        case 0x09: put("\\t")
        case ..<0x20:
            let hex: StaticString = "0123456789abcdef"
            put("\\u00")
            put(hex.utf8Start[Int(byte >> 4)])
            put(hex.utf8Start[Int(byte & 0x0F)])
        default: put(byte)
        }
    }

    /// `CanonicalNumber.format(value)` (SPEC §6: whole numbers without a point, others with up to
    /// three decimals, trailing zeros removed; `nan`, `inf`, `-inf`). Written by hand but for
    /// magnitudes from 9e12 on, where the canonical text is Swift's own description of the
    /// double (its shortest round-trip digits): those go through `CanonicalNumber` itself.
    final func putCanonical(_ value: Double) {
        // Whole numbers first: the sizes of a walk are almost all whole points.
        if value == value.rounded(), abs(value) < 1e12 {
            putInteger(Int64(value))
            return
        }
        guard value.isFinite else {
            put(value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf"))
            return
        }
        let thousandths = (value * 1000).rounded()
        guard abs(thousandths) < 9.0e15 else {
            var text = CanonicalNumber.format(value)
            text.withUTF8 { bytes in
                reserve(bytes.count)
                put(UnsafeRawBufferPointer(bytes))
            }
            return
        }
        let scaled = Int64(thousandths)
        if scaled == 0 {
            reserve(1)
            put(0x30)
            return
        }
        if scaled < 0 {
            reserve(1)
            put(0x2D)
        }
        putDecimal(scaled.magnitude / 1000)
        let fraction = Int(scaled.magnitude % 1000)
        guard fraction != 0 else { return }
        let (tenths, hundredths, thousandthsDigit) = (fraction / 100, fraction / 10 % 10, fraction % 10)
        reserve(4)
        put(0x2E)
        put(0x30 &+ UInt8(truncatingIfNeeded: tenths))
        if hundredths != 0 || thousandthsDigit != 0 { put(0x30 &+ UInt8(truncatingIfNeeded: hundredths)) }
        if thousandthsDigit != 0 { put(0x30 &+ UInt8(truncatingIfNeeded: thousandthsDigit)) }
    }

    /// A signed whole number, as `String(value)`.
    @inline(__always)
    final func putInteger(_ value: Int64) {
        if value < 0 {
            reserve(1)
            put(0x2D)
        }
        putDecimal(value.magnitude)
    }

    /// An unsigned whole number in decimal, two digits at a time.
    @inline(__always)
    final func putDecimal(_ value: UInt64) {
        let digits = Self.decimalDigits(value)
        reserve(digits)
        Self.writeDecimal(value, endingAt: base + (count &+ digits))
        count &+= digits
    }

    /// How many decimal digits `value` has: a few comparisons, the common magnitudes first.
    @inline(__always)
    static func decimalDigits(_ value: UInt64) -> Int {
        if value < 10_000 {
            if value < 100 { return value < 10 ? 1 : 2 }
            return value < 1_000 ? 3 : 4
        }
        if value < 100_000_000 {
            if value < 1_000_000 { return value < 100_000 ? 5 : 6 }
            return value < 10_000_000 ? 7 : 8
        }
        var digits = 9
        var limit: UInt64 = 1_000_000_000
        while digits < 20 && value >= limit {
            digits &+= 1
            limit &*= 10
        }
        return digits
    }

    /// Writes `value`'s decimal digits backwards, the last just before `end`, two at a time
    /// (each pair one two-byte store from `digitPairs`).
    @inline(__always)
    static func writeDecimal(_ value: UInt64, endingAt end: UnsafeMutableRawPointer) {
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        var rest = value
        var position = end
        while rest >= 100 {
            let quotient = rest / 100
            let pair = Int(truncatingIfNeeded: rest &- quotient &* 100) &* 2
            rest = quotient
            position -= 2
            position.storeBytes(of: pairs.loadUnaligned(fromByteOffset: pair, as: UInt16.self), as: UInt16.self)
        }
        if rest >= 10 {
            (position - 2).storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: rest) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            (position - 1).storeBytes(of: 0x30 &+ UInt8(truncatingIfNeeded: rest), as: UInt8.self)
        }
    }
}
