/// The protocol's size limits, which decoders enforce and `WireMessage.validateForEncoding()` checks.
public enum WireLimits {
    /// The longest string (u16 length prefix), in UTF-8 bytes.
    public static let maxStringBytes = Int(UInt16.max)
    /// The longest long string (u32 length prefix), in UTF-8 bytes.
    public static let maxLongStringBytes = Int(UInt32.max)
    /// The most values in one list (u16 count).
    public static let maxListCount = Int(UInt16.max)
    /// The most values in one CALL or RETURN (u8 count).
    public static let maxValueCount = Int(UInt8.max)
    /// The deepest nesting of lists: a list directly in a body is at level 1.
    public static let maxListNesting = 16
}
