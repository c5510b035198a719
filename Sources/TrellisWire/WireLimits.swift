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
    /// The largest message, all its frames together: receivers' sockets refuse anything larger
    /// (`ZMQ_MAXMSGSIZE`, which drops the connection, so nothing larger may be sent). Senders
    /// split larger content — TRACE-DATA in parts — and refuse what cannot be split.
    public static let maxMessageBytes = 64 << 20
    /// An upper bound of the header, of a body's fixed fields, and of any one value's fixed part
    /// (a transition, the largest, is 42 bytes): the size check counts this much for each.
    static let fixedPartBound = 64
}
