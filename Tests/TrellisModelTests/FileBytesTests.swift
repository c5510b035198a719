import Foundation
import Testing
import TrellisJSON
import TrellisTraceFiles

/// `FileBytes.Content`: no text format Trellis reads holds a NUL byte, so a text file that does
/// is refused as the byte is read, at its offset; a compact capture, binary, is not.
@Suite struct FileBytesTests {
    func file(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("filebytes-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func refusal(_ path: String, _ content: FileBytes.Content) -> String? {
        do {
            _ = try FileBytes.read(path, content: content)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aTextFileWithANulByteIsRefusedAtItsOffset() throws {
        let early = try file(Array(#"{"a":"#.utf8) + [0, 0x7D])
        defer { try? FileManager.default.removeItem(atPath: early) }
        #expect(refusal(early, .text) == "holds a NUL byte (byte 6): it is not a text file")
        #expect(refusal(early, .any) == nil)
        // Past the first chunk read (64 KiB): the offset counts from the file's start.
        let late = try file([UInt8](repeating: 0x20, count: 100_000) + [0])
        defer { try? FileManager.default.removeItem(atPath: late) }
        #expect(refusal(late, .text) == "holds a NUL byte (byte 100001): it is not a text file")
        let clean = try file(Array("{}\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: clean) }
        #expect(try FileBytes.read(clean, content: .text) == Array("{}\n".utf8))
    }

    @Test func aFileThatNeverEndsIsRefusedAtOnce() {
        #expect(refusal("/dev/zero", .text) == "holds a NUL byte (byte 1): it is not a text file")
        #expect(refusal("/dev/zero", .textUnlessItStartsWith(CompactCaptureFormat.magic)) == "holds a NUL byte (byte 1): it is not a text file")
    }

    @Test func aFileStartingWithTheMagicMayHoldNulBytesAndOthersMayNot() throws {
        let magic = CompactCaptureFormat.magic
        let capture = try file(magic + [0, 0, 1, 0])
        defer { try? FileManager.default.removeItem(atPath: capture) }
        #expect(refusal(capture, .textUnlessItStartsWith(magic)) == nil)
        #expect(refusal(capture, .text) != nil)
        // Shorter than the magic, or another start: text, where a NUL byte is refused.
        let short = try file(Array(magic.prefix(2)) + [0])
        defer { try? FileManager.default.removeItem(atPath: short) }
        #expect(refusal(short, .textUnlessItStartsWith(magic)) == "holds a NUL byte (byte 3): it is not a text file")
        let other = try file(Array("{\"x\":1}".utf8) + [0] + magic)
        defer { try? FileManager.default.removeItem(atPath: other) }
        #expect(refusal(other, .textUnlessItStartsWith(magic)) == "holds a NUL byte (byte 8): it is not a text file")
    }
}
