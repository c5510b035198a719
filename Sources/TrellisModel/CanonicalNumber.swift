/// How numbers print in canonical trace text (SPEC §6): an integer when whole, otherwise
/// with up to three decimals and trailing zeros removed.
public enum CanonicalNumber {
    /// The canonical text of `value`: `nan`, `inf` and `-inf` for the values that are not finite.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
        // Round to three decimals first so that 0.1 + 0.2 prints as 0.3, and 2.9999 as 3.
        let thousandths = (value * 1000).rounded()
        if thousandths == 0 { return "0" }
        if abs(thousandths) < 9.0e15 {
            let scaled = Int64(thousandths)
            let negative = scaled < 0
            let magnitude = negative ? -scaled : scaled
            let whole = magnitude / 1000
            var fraction = magnitude % 1000
            var text = (negative ? "-" : "") + String(whole)
            if fraction != 0 {
                var digits = 3
                while fraction % 10 == 0 {
                    fraction /= 10
                    digits -= 1
                }
                let fractionText = String(fraction)
                text += "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
            }
            return text
        }
        // Beyond Int64 precision a Double has no fractional part worth printing.
        let text = "\(value)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
