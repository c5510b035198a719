import TrellisTrace

/// The constants of the compact binary capture (`Protocols/compact-trace-format.md`): the
/// magic bytes and version, the record tags and the event flags. The event codes are
/// `TraceMessageSchema`'s.
package enum CompactCaptureFormat {
    /// `89 54 52 4C 0D 0A 1A 0A`: not text (so never taken for JSON Lines), and a file that went
    /// through a text-mode transfer is recognised as damaged.
    package static let magic: [UInt8] = [0x89, 0x54, 0x52, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]
    package static let majorVersion: UInt8 = 1
    /// 1 since TCF 1.1: the file ends with an END record (`Record.end`), so a reader tells a
    /// file cut short from a whole one; minor 0 files have none and are read with a notice.
    package static let minorVersion: UInt8 = 1
    /// The first minor version whose files end with an END record.
    package static let sealedMinorVersion: UInt8 = 1
    /// The bytes a file starts with: the magic, then the major and minor version.
    package static var fileHeader: [UInt8] { magic + [majorVersion, minorVersion] }

    /// Tags below this one start a definition record (tag, length, body), which a reader that
    /// does not know the tag skips; tags from it on are events (`eventTagBase + code`).
    package static let eventTagBase: UInt8 = 0x40

    /// Definition records.
    package enum Record: UInt8 {
        /// The run id and the default node of the events after it.
        case run = 0x01
        /// The next entry of the name table (controllers, nodes and other names).
        case name = 0x02
        /// The next entry of the size table: two IEEE 754 doubles, little-endian.
        case size = 0x03
        /// The last record (since 1.1): the number of events, then the CRC-32 (`CaptureChecksum`)
        /// of every byte before this record, little-endian.
        case end = 0x04
    }

    /// Which fields an event carries instead of taking them from the event before it.
    package enum Flag {
        package static let node: UInt8 = 0x01
        package static let sequence: UInt8 = 0x02
        package static let lamport: UInt8 = 0x04
        package static let cause: UInt8 = 0x08
        package static let transition: UInt8 = 0x10
        package static let step: UInt8 = 0x20
        package static let time: UInt8 = 0x40
        /// Bits a reader of this version rejects: a writer never sets them.
        package static let reserved: UInt8 = 0x80
    }

    /// A layout event's frame marker: no frame, a frame at (0,0) (its size follows), or a frame
    /// whose origin follows (as a size entry: x as width, y as height) before its size.
    package enum FrameMarker: UInt8 {
        case none = 0
        case atZero = 1
        case withOrigin = 2
    }

    /// The fields of the event before, which the next event's clear flags stand for (TCF/1
    /// §3.2); a writer keeps the node as its name index, a reader as its name.
    package struct PreviousEvent<Node> {
        package var node: Node
        package var sequence: UInt64 = 0
        package var lamportOffset: UInt64 = 0
        package var causeSequence: UInt64 = 0
        package var transition: Int?
        package var step = 0
        package var time: UInt64 = 0

        package init(node: Node) {
            self.node = node
        }

        /// Becomes the event just written or read (its cause sequence is kept when it has one).
        @inline(__always)
        package mutating func become(node: Node, sequence: UInt64, lamportOffset: UInt64, transition: Int?, step: Int, time: UInt64) {
            self.node = node
            self.sequence = sequence
            self.lamportOffset = lamportOffset
            self.transition = transition
            self.step = step
            self.time = time
        }
    }

    /// ZigZag: small negative and positive numbers both become small unsigned ones.
    @inline(__always)
    package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    @inline(__always)
    package static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
