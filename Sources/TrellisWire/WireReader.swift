import TrellisModel

/// Reads protocol items from one frame, big-endian, checking every read against the bytes left.
///
/// Every failure is a `WireError` naming the frame, the path of fields being read (`path`) and
/// the offset of the item that does not fit. Nothing here can trap on any input.
///
/// The reader borrows the bytes it reads: it is made inside `withUnsafeBytes` (see `borrowing`) and
/// never outlives that call. Reading through the buffer rather than an array keeps every field
/// read free of reference counting and of the array's own bounds check — the reader checks
/// each read against `remaining` itself.
struct WireReader {
    private let bytes: UnsafeRawBufferPointer
    /// Where the frame starts and ends in `bytes`: a frame may be an entry of a BATCH body,
    /// read in place rather than copied out.
    private let base: Int
    private let end: Int
    let part: WireError.Part
    /// The offset of the next byte to read, from the start of the frame.
    private(set) var offset = 0

    /// Reads the frame at `range` of `bytes`; offsets in errors count from its start.
    init(_ bytes: UnsafeRawBufferPointer, range: Range<Int>, part: WireError.Part) {
        self.bytes = bytes
        let clamped = range.clamped(to: 0..<bytes.count)
        base = clamped.lowerBound
        end = clamped.upperBound
        self.part = part
    }

    /// Runs `body` with the bytes of `array`, valid only during the call: where readers are made.
    static func borrowing<Value>(
        _ array: [UInt8], _ body: (UnsafeRawBufferPointer) throws(WireError) -> Value
    ) throws(WireError) -> Value {
        let result: Result<Value, WireError> = array.withUnsafeBytes { raw in
            do throws(WireError) {
                return .success(try body(raw))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `range` (offsets in this frame) as indices of the underlying bytes.
    func absolute(_ range: Range<Int>) -> Range<Int> {
        (base + range.lowerBound)..<(base + range.upperBound)
    }

    /// How many bytes are left after `offset`.
    var remaining: Int { end - base - offset }

    /// An error at `offset`; the fields enclosing it are added by `within` as it propagates.
    func failure(_ reason: WireError.Reason, at offset: Int) -> WireError {
        WireError(part: part, offset: offset, reason: reason)
    }

    /// Reads `body`; an error from it gets `component` prepended to its path. The path is built
    /// only on failure: successful reads, the hot path, build no strings.
    mutating func within<Result>(_ component: @autoclosure () -> String, _ body: (inout WireReader) throws(WireError) -> Result) throws(WireError) -> Result {
        do {
            return try body(&self)
        } catch {
            var located = error
            located.path.insert(component(), at: 0)
            throw located
        }
    }

    /// Skips up to `count` bytes (never past the end).
    mutating func skip(_ count: Int) {
        offset += min(max(count, 0), remaining)
    }

    /// The next big-endian integer; `what` names it for the error when fewer bytes are left.
    /// One unaligned load: this runs for every field of every message, so it is inlined.
    @inline(__always)
    private mutating func load<Value: FixedWidthInteger>(_ type: Value.Type, _ what: String) throws(WireError) -> Value {
        let width = MemoryLayout<Value>.size
        guard width <= remaining else {
            throw failure(.pastEnd(field: what, needed: width, left: remaining), at: offset)
        }
        let position = base + offset
        offset += width
        return Value(bigEndian: bytes.loadUnaligned(fromByteOffset: position, as: Value.self))
    }

    @inline(__always)
    mutating func u8(_ what: String = "u8") throws(WireError) -> UInt8 {
        try load(UInt8.self, what)
    }

    @inline(__always)
    mutating func u16(_ what: String = "u16") throws(WireError) -> UInt16 {
        try load(UInt16.self, what)
    }

    @inline(__always)
    mutating func u32(_ what: String = "u32") throws(WireError) -> UInt32 {
        try load(UInt32.self, what)
    }

    @inline(__always)
    mutating func u64(_ what: String = "u64") throws(WireError) -> UInt64 {
        try load(UInt64.self, what)
    }

    mutating func i64(_ what: String = "i64") throws(WireError) -> Int64 {
        Int64(bitPattern: try load(UInt64.self, what))
    }

    mutating func double(_ what: String = "double") throws(WireError) -> Double {
        Double(bitPattern: try load(UInt64.self, what))
    }

    /// An octet that must be 0 or 1.
    mutating func zeroOrOne(_ what: String = "bool") throws(WireError) -> Bool {
        let start = offset
        let octet = try u8(what)
        guard octet <= 1 else { throw failure(.notZeroOrOne(field: what, value: octet), at: start) }
        return octet == 1
    }

    /// A string with a u16 length prefix.
    mutating func string() throws(WireError) -> String {
        let start = offset
        let length = Int(try u16("string length"))
        return try utf8(length: length, kind: "string", start: start)
    }

    /// A string with a u32 length prefix.
    mutating func longString() throws(WireError) -> String {
        let start = offset
        let length = Int(try u32("long string length"))
        return try utf8(length: length, kind: "long string", start: start)
    }

    /// Octets with a u32 length prefix (`bytes`, since 1.2): any content, checked against the
    /// bytes left before anything is copied.
    mutating func octets() throws(WireError) -> [UInt8] {
        let start = offset
        let length = Int(try u32("bytes length"))
        guard length <= remaining else {
            throw failure(.stringPastEnd(kind: "bytes", length: length, left: remaining), at: start)
        }
        let first = base + offset
        offset += length
        return Array(UnsafeRawBufferPointer(rebasing: self.bytes[first..<(first + length)]))
    }

    private mutating func utf8(length: Int, kind: String, start: Int) throws(WireError) -> String {
        guard length <= remaining else {
            throw failure(.stringPastEnd(kind: kind, length: length, left: remaining), at: start)
        }
        let first = base + offset
        let utf8 = UnsafeRawBufferPointer(rebasing: bytes[first..<(first + length)]).assumingMemoryBound(to: UInt8.self)
        // ASCII, the common case, is valid UTF-8 as it stands; anything else is validated.
        let text = Self.isASCII(utf8) ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
        guard let text else {
            throw failure(.invalidUTF8(kind: kind, length: length), at: start)
        }
        offset += length
        return text
    }

    /// True when no byte has its high bit set. Most strings on the wire are short names: whole
    /// words are tested, the last one overlapping the one before, so no byte loop runs.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let count = raw.count
        if count >= 8 {
            var index = 0
            while index + 8 < count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                index += 8
            }
            return raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        }
        if count >= 4 {
            let first = raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self)
            let last = raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            return (first | last) & 0x8080_8080 == 0
        }
        var index = 0
        while index < count {
            if raw[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    mutating func rect() throws(WireError) -> Rect {
        let x = try within("x") { reader throws(WireError) in try reader.double() }
        let y = try within("y") { reader throws(WireError) in try reader.double() }
        let size = try size()
        return Rect(origin: Point(x: x, y: y), size: size)
    }

    mutating func size() throws(WireError) -> Size {
        let width = try within("width") { reader throws(WireError) in try reader.double() }
        let height = try within("height") { reader throws(WireError) in try reader.double() }
        return Size(width: width, height: height)
    }

    private mutating func trait<Trait: CaseIterable>(_ name: String, _ type: Trait.Type) throws(WireError) -> Trait {
        let start = offset
        let octet = try within(name) { reader throws(WireError) in try reader.u8() }
        guard let value = WireTraitOctets.value(octet, as: type) else {
            throw failure(
                .unknownTraitIndex(trait: name, index: octet, caseCount: WireTraitOctets.caseCount(type)), at: start)
        }
        return value
    }

    mutating func traits() throws(WireError) -> TraitCollection {
        let horizontal = try trait("horizontalSizeClass", SizeClass.self)
        let vertical = try trait("verticalSizeClass", SizeClass.self)
        let idiom = try trait("userInterfaceIdiom", UserInterfaceIdiom.self)
        let direction = try trait("layoutDirection", LayoutDirection.self)
        let style = try trait("userInterfaceStyle", UserInterfaceStyle.self)
        let category = try trait("preferredContentSizeCategory", ContentSizeCategory.self)
        let scale = try within("displayScale") { reader throws(WireError) in try reader.double() }
        return TraitCollection(
            horizontalSizeClass: horizontal, verticalSizeClass: vertical, userInterfaceIdiom: idiom,
            displayScale: scale, layoutDirection: direction, userInterfaceStyle: style,
            preferredContentSizeCategory: category)
    }

    mutating func address() throws(WireError) -> WireAddress {
        let node = try within("node") { reader throws(WireError) in try reader.string() }
        let controller = try within("controller") { reader throws(WireError) in try reader.string() }
        let incarnation = try within("incarnation") { reader throws(WireError) in try reader.u32() }
        return WireAddress(node: node, controller: controller, incarnation: incarnation)
    }

    mutating func eventRef() throws(WireError) -> WireEventRef {
        let node = try within("node") { reader throws(WireError) in try reader.string() }
        let sequence = try within("sequence") { reader throws(WireError) in try reader.u64() }
        return WireEventRef(node: node, sequence: sequence)
    }

    mutating func transition() throws(WireError) -> WireTransition {
        let id = try within("id") { reader throws(WireError) in try reader.i64() }
        let animated = try within("animated") { reader throws(WireError) in try reader.zeroOrOne() }
        let duration = try within("duration") { reader throws(WireError) in try reader.double() }
        let traits = try within("windowTraits") { reader throws(WireError) in try reader.traits() }
        let size = try within("windowSize") { reader throws(WireError) in try reader.size() }
        return WireTransition(id: id, animated: animated, duration: duration, windowTraits: traits, windowSize: size)
    }

    /// A tagged value; `level` is the nesting level a list read here would have (1 in a body).
    mutating func value(level: Int = 1) throws(WireError) -> WireValue {
        let start = offset
        let octet = try u8("tag")
        guard let tag = WireValueTag(rawValue: octet) else { throw failure(.unknownTag(octet), at: start) }
        switch tag {
        case .none: return .none
        case .bool: return .bool(try zeroOrOne())
        case .int: return .int(try i64())
        case .double: return .double(try double())
        case .string: return .string(try string())
        case .size: return .size(try within("size") { reader throws(WireError) in try reader.size() })
        case .rect: return .rect(try within("rect") { reader throws(WireError) in try reader.rect() })
        case .traits: return .traits(try within("traits") { reader throws(WireError) in try reader.traits() })
        case .address: return .address(try within("address") { reader throws(WireError) in try reader.address() })
        case .eventRef: return .eventRef(try within("eventref") { reader throws(WireError) in try reader.eventRef() })
        case .transition:
            return .transition(try within("transition") { reader throws(WireError) in try reader.transition() })
        case .longString: return .longString(try longString())
        case .list:
            guard level <= WireLimits.maxListNesting else {
                throw failure(.nestingTooDeep(limit: WireLimits.maxListNesting), at: start)
            }
            let countOffset = offset
            let count = Int(try u16("list count"))
            return .list(try items(count: count, countOffset: countOffset, label: "item", level: level + 1))
        }
    }

    /// A u8 count of tagged values, then the values, each labelled `value N` (from 1) in errors.
    mutating func values() throws(WireError) -> [WireValue] {
        let countOffset = offset
        let count = Int(try u8("value count"))
        return try items(count: count, countOffset: countOffset, label: "value", level: 1)
    }

    private mutating func items(count: Int, countOffset: Int, label: String, level: Int) throws(WireError) -> [WireValue] {
        // Each value takes at least its tag byte, so a count above the bytes left cannot be
        // right; refusing it early also bounds the memory reserved for a hostile count.
        guard count <= remaining else { throw failure(.countPastEnd(count: count, left: remaining), at: countOffset) }
        var result: [WireValue] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try within("\(label) \(index + 1)") { reader throws(WireError) in try reader.value(level: level) })
        }
        return result
    }
}
