/// Why a message was rejected, and exactly where: which frame, which field, at which byte offset.
///
/// `description` is one line such as `body: value 2: unknown tag 0x7f at offset 14`.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The part of the message at fault.
    public enum Part: String, Hashable, Sendable {
        /// The message as a whole (its frame count).
        case message
        /// The first frame.
        case header
        /// The second frame.
        case body
    }

    /// What is wrong.
    public enum Reason: Hashable, Sendable {
        /// Not exactly two frames.
        case frameCount(Int)
        /// A header frame shorter than 32 bytes.
        case headerTooShort(length: Int)
        /// Bytes 0–1 are not "TR".
        case badSignature(UInt8, UInt8)
        /// Byte 2 is not the major version this implementation speaks.
        case unsupportedMajorVersion(UInt8)
        /// Byte 4 names no command.
        case unknownCommand(UInt8)
        /// A fixed-size field needs more bytes than are left.
        case pastEnd(field: String, needed: Int, left: Int)
        /// A string's length prefix claims more bytes than are left after it.
        case stringPastEnd(kind: String, length: Int, left: Int)
        /// A string's bytes are not valid UTF-8.
        case invalidUTF8(kind: String, length: Int)
        /// A value tag that this version does not define.
        case unknownTag(UInt8)
        /// A call code that this version does not define.
        case unknownCallCode(UInt8)
        /// An octet that must be 0 or 1 (a bool, RETURN's status, TRACE-DATA's last flag) is not.
        case notZeroOrOne(field: String, value: UInt8)
        /// An octet with a value its field does not define (TRACE-DATA's form octet).
        case unknownOctet(field: String, value: UInt8, expected: String)
        /// A trait octet that is not the index of one of the trait's cases.
        case unknownTraitIndex(trait: String, index: UInt8, caseCount: Int)
        /// A count of values larger than the bytes left could hold (each value takes a byte at least).
        case countPastEnd(count: Int, left: Int)
        /// A list nested deeper than `WireLimits.maxListNesting`.
        case nestingTooDeep(limit: Int)
        /// A message that cannot be written because it exceeds a limit of the format.
        case limitExceeded(String)
        /// A BATCH where a single message is expected: inside another BATCH, or given to
        /// `WireMessage.decode` instead of `WireBatch`.
        case nestedBatch
    }

    /// The part of the message at fault.
    public var part: Part
    /// The fields leading to the fault, outermost first (`["value 2", "item 1"]`).
    public var path: [String]
    /// The byte offset in the frame where the faulty item starts, when there is one.
    public var offset: Int?
    /// What is wrong.
    public var reason: Reason
    /// The correlation id of the rejected message when its header could be read, for the ERROR reply.
    public var correlationID: UInt64?
    /// The command of the rejected message when its header could be read: a RETURN that cannot
    /// be read still ends the call it answers.
    public var command: WireCommand?

    /// An error in `part` at `offset`, reached through `path`.
    public init(part: Part, path: [String] = [], offset: Int? = nil, reason: Reason) {
        self.part = part
        self.path = path
        self.offset = offset
        self.reason = reason
        self.correlationID = nil
        self.command = nil
    }

    /// The code an ERROR reply to the rejected message carries.
    public var code: WireErrorCode {
        switch reason {
        case .frameCount, .headerTooShort, .badSignature: .malformedHeader
        case .unsupportedMajorVersion: .unsupportedVersion
        case .unknownCommand: .unknownCommand
        case .unknownCallCode: .unknownCallCode
        case .pastEnd, .stringPastEnd, .invalidUTF8, .unknownTag, .notZeroOrOne, .unknownOctet, .unknownTraitIndex,
             .countPastEnd, .nestingTooDeep, .limitExceeded, .nestedBatch:
            .malformedBody
        }
    }

    /// `<part>: <path>: <what> at offset <n> …`; a frame-count error has no part prefix.
    public var description: String {
        var text = part == .message ? "" : part.rawValue + ": "
        for component in path { text += component + ": " }
        return text + reasonText
    }

    private var at: String { offset.map { " at offset \($0)" } ?? "" }

    private var reasonText: String {
        switch reason {
        case .frameCount(let count):
            return "expected 2 frames, got \(count)"
        case .headerTooShort(let length):
            return "\(bytes(length)), expected at least \(WireHeader.length)"
        case .badSignature(let first, let second):
            return "bad signature \(hex(first)) \(hex(second))\(at), expected 0x54 0x52 (\"TR\")"
        case .unsupportedMajorVersion(let major):
            return "major version \(major)\(at) is not supported (expected \(WireHeader.currentMajorVersion))"
        case .unknownCommand(let command):
            return "unknown command \(hex(command))\(at)"
        case .pastEnd(let field, let needed, let left):
            return "\(field)\(at) runs past the end (\(bytes(needed)) needed, \(left) left)"
        case .stringPastEnd(let kind, let length, let left):
            return "\(kind)\(at) runs past the end (length \(length), \(bytes(left)) left)"
        case .invalidUTF8(let kind, let length):
            return "\(kind)\(at) is not valid UTF-8 (length \(length))"
        case .unknownTag(let tag):
            return "unknown tag \(hex(tag))\(at)"
        case .unknownCallCode(let code):
            return "unknown call code \(hex(code))\(at)"
        case .notZeroOrOne(let field, let value):
            return "\(field)\(at) is \(hex(value)), expected 0x00 or 0x01"
        case .unknownOctet(let field, let value, let expected):
            return "\(field)\(at) is \(hex(value)), expected \(expected)"
        case .unknownTraitIndex(let trait, let index, let caseCount):
            return "unknown \(trait) index \(index)\(at) (\(caseCount) cases: 0–\(caseCount - 1))"
        case .countPastEnd(let count, let left):
            return "count \(count)\(at) exceeds the \(bytes(left)) left (a value takes at least 1 byte)"
        case .nestingTooDeep(let limit):
            return "list\(at) is nested deeper than \(limit) lists"
        case .limitExceeded(let what):
            return what
        case .nestedBatch:
            return "BATCH\(at) where a single message is expected (batches do not nest)"
        }
    }

    private func bytes(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
