/// CRC-32 as zlib, PNG and Ethernet compute it (ISO-HDLC: polynomial 0x04C11DB7 reflected,
/// initial value and final XOR 0xFFFFFFFF; `"123456789"` gives 0xCBF43926): the checksum of a
/// compact capture's END record (TCF/1 §3.1). Chosen because every language has it at hand
/// (Python's `zlib.crc32`), and it finds every burst of errors up to 32 bits. Folded eight
/// bytes at a time ("slicing by 8", eight 256-entry tables) on the file writer's thread: about
/// a byte per cycle, without Foundation.
package struct CaptureChecksum: Sendable {
    /// The CRC so far, before the final XOR.
    private var state: UInt32 = 0xFFFF_FFFF

    package init() {}

    /// The checksum of the bytes folded so far.
    package var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// Table `k` holds the CRC of byte `b` followed by `k` zero bytes, at `k * 256 + b`.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// Folds `bytes` in.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var crc = state
        var position = 0
        let count = bytes.count
        Self.tables.withUnsafeBufferPointer { table in
            while count - position >= 8 {
                let low = base.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian ^ crc
                let high = base.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self).littleEndian
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                position += 8
            }
            while position < count {
                crc = (crc >> 8) ^ table[Int((crc ^ UInt32(base.load(fromByteOffset: position, as: UInt8.self))) & 0xFF)]
                position += 1
            }
        }
        state = crc
    }

    /// Folds `bytes` in.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }
}
