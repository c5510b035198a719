import TrellisWire

/// The wire decoder: a message's two frames, and a BATCH. The input is split into frames, each
/// a 16-bit little-endian length and that many bytes (the last frame takes what is left).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    var frames: [[UInt8]] = []
    var index = 0
    while index + 2 <= bytes.count, frames.count < 16 {
        let length = Int(bytes[index]) | Int(bytes[index + 1]) << 8
        index += 2
        let end = min(bytes.count, index + length)
        frames.append(Array(bytes[index..<end]))
        index = end
    }
    if let message = try? WireMessage.decode(frames) {
        // What was read can be written again and reads back.
        if (try? message.validateForEncoding()) != nil {
            _ = try? WireMessage.decode(message.encode())
        }
    }
    _ = try? WireBatch.decode(frames)
    WireBatch.decodeEach(frames) { _ in }
    return 0
}
