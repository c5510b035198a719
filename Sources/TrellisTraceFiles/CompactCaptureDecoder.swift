import TrellisModel
import TrellisTrace

/// Why a compact capture could not be read on: where (the byte offset from the start of the
/// file) and what is wrong there.
public struct CompactCaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }
}

/// Reads the compact binary capture (`Protocols/compact-trace-format.md`). Every count and
/// length is checked against the bytes that remain before anything is allocated for it, so a
/// damaged or truncated file ends the reading with a `CompactCaptureError`, never a trap.
package enum CompactCaptureDecoder {
    private typealias Format = CompactCaptureFormat

    /// How a capture that read without damage ended.
    package enum Ending: Sendable, Equatable {
        /// With its END record, whose count and checksum agree (TCF 1.1 on).
        case sealed
        /// Without one, as TCF 1.0 files do: a cut at a record boundary cannot be told from the
        /// end of the run.
        case unsealed(minorVersion: UInt8)
    }

    /// Reads `bytes`, handing `body` each event in order with its run id. Throws at the first
    /// damage — a file of TCF 1.1 on that does not end with its END record was cut short — the
    /// events before it having been handed over.
    @discardableResult
    package static func decode(
        _ bytes: UnsafeRawBufferPointer, _ body: (TraceEvent, String) -> Void
    ) throws(CompactCaptureError) -> Ending {
        var reader = Reader(bytes: bytes)
        try reader.readFileHeader()
        try reader.readRecords(body)
        if reader.sealed { return .sealed }
        guard reader.minorVersion < Format.sealedMinorVersion else {
            throw reader.failure(
                "the file ends without the END record a TCF 1.\(reader.minorVersion) capture ends with: it was cut short after "
                    + "\(reader.eventCount) events", at: bytes.count)
        }
        return .unsealed(minorVersion: reader.minorVersion)
    }

    struct Reader {
        let bytes: UnsafeRawBufferPointer
        var position = 0
        /// The end of the record being read (the file's end for events).
        var end: Int
        var names: [String] = []
        var controllers: [ControllerID] = []
        var sizes: [Size] = []
        var run: String?
        var previous = Format.PreviousEvent<String>(node: "")
        /// Where the event or record being read starts, for messages.
        var start = 0
        /// The tag of the record or event being read; nil in the file header.
        var tag: UInt8?
        var minorVersion: UInt8 = 0
        /// Events read so far.
        var eventCount = 0
        /// Whether the END record was read (nothing may follow it).
        var sealed = false

        /// The record or event being read, for messages (made only when one is needed).
        var what: String {
            guard let tag else { return "the file header" }
            guard tag >= Format.eventTagBase else { return "the record at byte \(start) (tag 0x\(String(tag, radix: 16)))" }
            return "the event at byte \(start) (\(TraceMessageSchema.label(ofCode: tag - Format.eventTagBase)))"
        }

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            end = bytes.count
        }

        func failure(_ message: String, at offset: Int? = nil) -> CompactCaptureError {
            CompactCaptureError(offset: offset ?? position, message: message)
        }

        mutating func readFileHeader() throws(CompactCaptureError) {
            guard bytes.count >= Format.magic.count, Format.magic.indices.allSatisfy({ bytes[$0] == Format.magic[$0] }) else {
                throw failure("not a compact trellis capture (the first bytes are not 89 54 52 4C 0D 0A 1A 0A)", at: 0)
            }
            position = Format.magic.count
            let major = try byte()
            minorVersion = try byte()
            guard major == Format.majorVersion else {
                throw failure("major version \(major) is not supported (this reader reads \(Format.majorVersion).x)", at: Format.magic.count)
            }
        }

        mutating func readRecords(_ body: (TraceEvent, String) -> Void) throws(CompactCaptureError) {
            while position < bytes.count {
                guard !sealed else { throw failure("\(bytes.count - position) bytes after the END record (nothing may follow it)") }
                start = position
                end = bytes.count
                let tag = bytes[position]
                self.tag = tag
                position += 1
                if tag < Format.eventTagBase {
                    try readDefinition(tag)
                } else {
                    body(try readEvent(tag), run ?? "")
                    eventCount += 1
                }
            }
        }

        mutating func readDefinition(_ tag: UInt8) throws(CompactCaptureError) {
            let length = try count("length")
            let recordEnd = position + length
            end = recordEnd
            switch Format.Record(rawValue: tag) {
            case .run:
                let runID = try text("run id")
                let node = try name("node")
                run = runID
                previous.node = node
            case .name:
                // A JSON Lines file is UTF-8 throughout: so is every name of this form.
                guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[position..<recordEnd]), as: UTF8.self) else {
                    throw failure("\(what) is not UTF-8", at: start)
                }
                names.append(text)
                controllers.append(ControllerID(text))
            case .size:
                let width = try double(), height = try double()
                sizes.append(Size(width, height))
            case .end:
                try readEnd()
            case nil:
                break
            }
            // What a known record holds past what this version reads, and unknown records, are skipped.
            position = recordEnd
            end = bytes.count
        }

        /// The END record: its count and checksum must be the file's (TCF/1 §3.1).
        mutating func readEnd() throws(CompactCaptureError) {
            let countAt = position
            let count = try varint("event count")
            guard count == UInt64(eventCount) else {
                throw failure("the END record counts \(count) events, but the file holds \(eventCount): events were lost or added", at: countAt)
            }
            guard end - position >= 4 else { throw truncated() }
            var stored: UInt32 = 0
            for index in 0..<4 { stored |= UInt32(bytes[position + index]) << UInt32(8 * index) }
            position += 4
            var checksum = CaptureChecksum()
            checksum.update(UnsafeRawBufferPointer(rebasing: bytes[0..<start]))
            guard checksum.value == stored else {
                throw failure(
                    "the END record's CRC-32 is \(Self.hex(stored)), but the \(start) bytes before it give \(Self.hex(checksum.value)): "
                        + "the file was altered", at: start)
            }
            sealed = true
        }

        static func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16)
            return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
        }

        mutating func readEvent(_ tag: UInt8) throws(CompactCaptureError) -> TraceEvent {
            typealias Flag = Format.Flag
            let code = Int(tag - Format.eventTagBase)
            guard code < TraceMessageSchema.prototypesByCode.count, let prototype = TraceMessageSchema.prototypesByCode[code].first else {
                throw failure("unknown event code \(code) (tag 0x\(String(tag, radix: 16)))", at: start)
            }
            guard let run else { throw failure("an event before any RUN record", at: start) }
            _ = run
            let flags = try byte()
            guard flags & Flag.reserved == 0 else { throw failure("reserved flag bits set in \(what)", at: position - 1) }
            let node = flags & Flag.node != 0 ? try name("node") : previous.node
            let sequence = flags & Flag.sequence != 0 ? try varint("sequence") : previous.sequence &+ 1
            let lamportOffset = flags & Flag.lamport != 0
                ? UInt64(bitPattern: Format.unzigzag(try varint("Lamport clock"))) : previous.lamportOffset
            var cause: EventRef?
            if flags & Flag.cause != 0 {
                let causeNode = try name("cause node")
                let causeSequence = previous.causeSequence &+ UInt64(bitPattern: Format.unzigzag(try varint("cause")))
                cause = EventRef(node: causeNode, sequence: causeSequence)
                previous.causeSequence = causeSequence
            }
            var transition = previous.transition
            if flags & Flag.transition != 0 {
                switch try byte() {
                case 0: transition = nil
                case 1: transition = try signed("transition")
                case let other: throw failure("transition marker \(other) in \(what) (expected 0 or 1)", at: position - 1)
                }
            }
            let step = flags & Flag.step != 0 ? try signed("step") : previous.step
            let time = flags & Flag.time != 0 ? previous.time &+ UInt64(bitPattern: Format.unzigzag(try varint("time"))) : previous.time
            let controller = try controller("controller")
            let message = try TraceMessageSchema.fields(of: prototype, &self).message
            previous.become(node: node, sequence: sequence, lamportOffset: lamportOffset, transition: transition, step: step, time: time)
            let event = TraceEvent(
                id: EventRef(node: node, sequence: sequence), lamport: sequence &+ lamportOffset, cause: cause, controller: controller,
                transition: transition, step: step, message: message, time: time)
            // What JSON Lines refuses, this form refuses too (the same check).
            if let problem = TraceEventValidation.problem(in: event) { throw failure("\(what): \(problem)", at: start) }
            return event
        }

        mutating func frame() throws(CompactCaptureError) -> Rect? {
            let at = position
            switch try byte() {
            case Format.FrameMarker.none.rawValue: return nil
            case Format.FrameMarker.atZero.rawValue: return Rect(try size("frame size"))
            case Format.FrameMarker.withOrigin.rawValue:
                let origin = try size("frame origin"), size = try size("frame size")
                return Rect(origin: Point(x: origin.width, y: origin.height), size: size)
            case let other: throw failure("frame marker \(other) in \(what) (expected 0, 1 or 2)", at: at)
            }
        }

        mutating func traits() throws(CompactCaptureError) -> TraitCollection {
            let horizontal = try named(SizeClass.self, "horizontal size class")
            let vertical = try named(SizeClass.self, "vertical size class")
            let idiom = try named(UserInterfaceIdiom.self, "idiom")
            let scale = try double()
            return TraitCollection(
                horizontalSizeClass: horizontal, verticalSizeClass: vertical, userInterfaceIdiom: idiom, displayScale: scale,
                layoutDirection: try named(LayoutDirection.self, "layout direction"),
                userInterfaceStyle: try named(UserInterfaceStyle.self, "interface style"),
                preferredContentSizeCategory: try named(ContentSizeCategory.self, "content size category"))
        }

        // MARK: Fields

        mutating func byte() throws(CompactCaptureError) -> UInt8 {
            guard position < end else { throw truncated() }
            defer { position += 1 }
            return bytes[position]
        }

        func truncated() -> CompactCaptureError {
            end == bytes.count
                ? failure("the file ends inside \(what)", at: bytes.count)
                : failure("\(what) ends before its fields do", at: end)
        }

        mutating func varint(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> UInt64 {
            let at = position
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let next = try byte()
                guard shift < 63 || (shift == 63 && next <= 1) else {
                    throw failure("the \(field()) of \(what) is longer than 64 bits", at: at)
                }
                value |= UInt64(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
                shift += 7
            }
        }

        mutating func signed(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> Int {
            Int(Format.unzigzag(try varint(field())))
        }

        /// A count or length: at most the bytes left (each counted thing takes at least one).
        mutating func count(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> Int {
            let at = position
            let value = try varint(field())
            guard value <= UInt64(end - position) else {
                throw failure("the \(field()) of \(what) is \(value), more than the \(end - position) bytes left", at: at)
            }
            return Int(value)
        }

        mutating func text(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> String {
            let at = position
            let length = try count("\(field()) length")
            defer { position += length }
            guard let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[position..<position + length]), as: UTF8.self) else {
                throw failure("the \(field()) of \(what) is not UTF-8", at: at)
            }
            return text
        }

        mutating func double() throws(CompactCaptureError) -> Double {
            guard end - position >= 8 else { throw truncated() }
            var bits: UInt64 = 0
            for index in 0..<8 { bits |= UInt64(bytes[position + index]) << UInt64(8 * index) }
            position += 8
            return Double(bitPattern: bits)
        }

        mutating func index(_ field: @autoclosure () -> String, below limit: Int, table: String) throws(CompactCaptureError) -> Int {
            let at = position
            let value = try varint(field())
            guard value < UInt64(limit) else {
                throw failure("the \(field()) of \(what) is \(table) entry \(value), but only \(limit) are defined", at: at)
            }
            return Int(value)
        }

        mutating func name(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> String {
            names[try index(field(), below: names.count, table: "name")]
        }

        mutating func controller(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> ControllerID {
            controllers[try index(field(), below: controllers.count, table: "name")]
        }

        mutating func size(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> Size {
            sizes[try index(field(), below: sizes.count, table: "size")]
        }

        mutating func named<T: RawRepresentable>(_: T.Type, _ field: @autoclosure () -> String) throws(CompactCaptureError) -> T where T.RawValue == String {
            let at = position
            let raw = try name(field())
            guard let value = T(rawValue: raw) else { throw failure("unknown \(field()) \"\(raw)\" in \(what)", at: at) }
            return value
        }

        mutating func choice<T>(_ cases: [T], _ field: @autoclosure () -> String) throws(CompactCaptureError) -> T {
            let at = position
            let value = Int(try byte())
            guard value < cases.count else { throw failure("unknown \(field()) \(value) in \(what)", at: at) }
            return cases[value]
        }

        mutating func flag(_ field: @autoclosure () -> String) throws(CompactCaptureError) -> Bool {
            let at = position
            switch try byte() {
            case 0: return false
            case 1: return true
            case let other: throw failure("the \(field()) of \(what) is \(other) (expected 0 or 1)", at: at)
            }
        }
    }
}

/// A compact payload's fields (TCF/1 §4), in the order the schema visits them; a field is named
/// by its JSON Lines key in messages.
extension CompactCaptureDecoder.Reader: TraceFieldCoder {
    typealias Failure = CompactCaptureError

    private static func label(_ key: String) -> String { "payload field \"\(key)\"" }

    mutating func integer(_ key: String, _ value: Int) throws(CompactCaptureError) -> Int {
        try signed(Self.label(key))
    }

    mutating func text(_ key: String, _ value: String) throws(CompactCaptureError) -> String {
        try text(Self.label(key))
    }

    mutating func name(_ key: String, _ value: String) throws(CompactCaptureError) -> String {
        try name(Self.label(key))
    }

    mutating func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) throws(CompactCaptureError) -> Value {
        try named(Value.self, key)
    }

    mutating func controller(_ key: String, _ value: ControllerID) throws(CompactCaptureError) -> ControllerID {
        try controller(Self.label(key))
    }

    mutating func controllers(_ key: String, _ value: [ControllerID]) throws(CompactCaptureError) -> [ControllerID] {
        let count = try count("\(Self.label(key)) count")
        var ids: [ControllerID] = []
        ids.reserveCapacity(count)
        for _ in 0..<count { ids.append(try controller(Self.label(key))) }
        return ids
    }

    mutating func size(_ key: String, _ value: Size) throws(CompactCaptureError) -> Size {
        try size(Self.label(key))
    }

    mutating func rect(_ key: String, _ value: Rect) throws(CompactCaptureError) -> Rect {
        let origin = try size("\(Self.label(key)) origin"), size = try size("\(Self.label(key)) size")
        return Rect(origin: Point(x: origin.width, y: origin.height), size: size)
    }

    mutating func frame(_ key: String, _ value: Rect?) throws(CompactCaptureError) -> Rect? {
        try frame()
    }

    mutating func traits(_ key: String, _ value: TraitCollection) throws(CompactCaptureError) -> TraitCollection {
        try traits()
    }

    mutating func flag(_ key: String, _ value: Bool) throws(CompactCaptureError) -> Bool {
        try flag(Self.label(key))
    }

    mutating func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) throws(CompactCaptureError) -> Value {
        try choice(Array(Value.allCases), field)
    }

    mutating func variant(_ field: String, _ value: Bool) throws(CompactCaptureError) -> Bool {
        try flag(field)
    }
}
