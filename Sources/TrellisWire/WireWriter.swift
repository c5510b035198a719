import TrellisModel

/// Appends protocol items to a frame, big-endian. Never fails: a string longer than its length
/// prefix allows is cut at a character boundary, and a list or value list longer than its count
/// allows is cut at the limit (`WireMessage.validateForEncoding()` reports both beforehand).
struct WireWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func u32(_ value: UInt32) {
        Self.append(u32: value, to: &bytes)
    }

    /// Appends a big-endian u32 to `bytes`: unrolled single-byte appends, no generic sequence
    /// append on every message's path.
    static func append(u32 value: UInt32, to bytes: inout [UInt8]) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Overwrites the four bytes at `offset` of `bytes` with a big-endian u32 (a length or count
    /// written once what it counts is known). Does nothing when they are not all there.
    static func store(u32 value: UInt32, at offset: Int, in bytes: inout [UInt8]) {
        guard offset >= 0, offset + 4 <= bytes.count else { return }
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value >> 32))
        u32(UInt32(truncatingIfNeeded: value))
    }

    mutating func i64(_ value: Int64) {
        u64(UInt64(bitPattern: value))
    }

    mutating func double(_ value: Double) {
        u64(value.bitPattern)
    }

    mutating func bool(_ value: Bool) {
        u8(value ? 1 : 0)
    }

    /// A string with a u16 length prefix.
    mutating func string(_ value: String) {
        // Most strings are short and within the limit: copied straight from the string's storage.
        let count = value.utf8.count
        if count <= WireLimits.maxStringBytes {
            u16(UInt16(truncatingIfNeeded: count))
            // One copy from the string's contiguous UTF-8 (also a small string's, on the stack);
            // the generic sequence append goes through an intermediate copy loop.
            let copied: Void? = value.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
            if copied == nil { bytes.append(contentsOf: value.utf8) }
            return
        }
        let utf8 = Self.utf8(value, limit: WireLimits.maxStringBytes)
        u16(UInt16(truncatingIfNeeded: utf8.count))
        bytes += utf8
    }

    /// A string with a u32 length prefix.
    mutating func longString(_ value: String) {
        let utf8 = Self.utf8(value, limit: WireLimits.maxLongStringBytes)
        u32(UInt32(truncatingIfNeeded: utf8.count))
        bytes += utf8
    }

    /// Octets with a u32 length prefix (TWP/1 §6.1 `bytes`, since 1.2), copied as they are.
    /// The caller keeps them within `WireLimits.maxMessageBytes` (`validateForEncoding`).
    mutating func octets(_ value: [UInt8]) {
        u32(UInt32(truncatingIfNeeded: value.count))
        bytes += value
    }

    /// The UTF-8 bytes of `value`, cut to at most `limit` bytes without splitting a character.
    static func utf8(_ value: String, limit: Int) -> ArraySlice<UInt8> {
        let all = Array(value.utf8)
        guard all.count > limit else { return all[...] }
        var end = limit
        // Back off over continuation bytes (10xxxxxx) so the cut falls between scalars.
        while end > 0, all[end] & 0xC0 == 0x80 { end -= 1 }
        return all[..<end]
    }

    mutating func rect(_ value: Rect) {
        double(value.origin.x)
        double(value.origin.y)
        size(value.size)
    }

    mutating func size(_ value: Size) {
        double(value.width)
        double(value.height)
    }

    mutating func traits(_ value: TraitCollection) {
        u8(WireTraitOctets.octet(value.horizontalSizeClass))
        u8(WireTraitOctets.octet(value.verticalSizeClass))
        u8(WireTraitOctets.octet(value.userInterfaceIdiom))
        u8(WireTraitOctets.octet(value.layoutDirection))
        u8(WireTraitOctets.octet(value.userInterfaceStyle))
        u8(WireTraitOctets.octet(value.preferredContentSizeCategory))
        double(value.displayScale)
    }

    mutating func address(_ value: WireAddress) {
        string(value.node)
        string(value.controller)
        u32(value.incarnation)
    }

    mutating func eventRef(_ value: WireEventRef) {
        string(value.node)
        u64(value.sequence)
    }

    mutating func transition(_ value: WireTransition) {
        i64(value.id)
        bool(value.animated)
        double(value.duration)
        traits(value.windowTraits)
        size(value.windowSize)
    }

    /// A tagged value.
    mutating func value(_ value: WireValue) {
        u8(value.tag.rawValue)
        switch value {
        case .none: break
        case .bool(let flag): bool(flag)
        case .int(let number): i64(number)
        case .double(let number): double(number)
        case .string(let text): string(text)
        case .size(let size): self.size(size)
        case .rect(let rect): self.rect(rect)
        case .traits(let traits): self.traits(traits)
        case .address(let address): self.address(address)
        case .eventRef(let ref): eventRef(ref)
        case .transition(let transition): self.transition(transition)
        case .longString(let text): longString(text)
        case .list(let items):
            let kept = items.prefix(WireLimits.maxListCount)
            u16(UInt16(truncatingIfNeeded: kept.count))
            for item in kept { self.value(item) }
        }
    }

    /// A u8 count and that many tagged values.
    mutating func values(_ values: [WireValue]) {
        let kept = values.prefix(WireLimits.maxValueCount)
        u8(UInt8(truncatingIfNeeded: kept.count))
        for item in kept { value(item) }
    }
}
