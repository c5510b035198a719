/// The bytes libFuzzer hands a target, as Swift values.
enum FuzzInput {
    static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// UTF-8 text, or nil when the bytes are not (the readers take text).
    static func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String? {
        String(validating: bytes(data, size), as: UTF8.self)
    }
}
