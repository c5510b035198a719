/// The first octet of a TRACE-DATA body (TWP/1 §7.8): in 1.0 the bool `last`; 1.2 adds bit 1,
/// the compact form (a TCF/1 capture as `bytes` instead of JSON Lines as a long string). Other
/// bits are rejected, so a 1.1 receiver refuses the compact form rather than misreading it.
enum WireTraceDataForm {
    /// Bit 0: the last part of the answer.
    static let last: UInt8 = 0x01
    /// Bit 1: the compact form.
    static let compact: UInt8 = 0x02
}
