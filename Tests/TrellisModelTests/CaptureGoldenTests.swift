import Foundation
import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// Every message of the vocabulary, written in both capture forms, pinned byte for byte: the
/// codecs derive each message's fields from one schema, and no change to how they do it may
/// change a byte of either form.
@Suite("Capture bytes pinned: every message in JSON Lines and in the compact form")
struct CaptureGoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Compares `actual` with the golden file `name`; on a difference, writes `actual` beside the
    /// temporary files and says where, so that the two can be compared with a diff tool.
    static func expectGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
        guard actual != expected else { return }
        let written = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try actual.write(to: written, atomically: true, encoding: .utf8)
        let line = zip(actual.split(separator: "\n"), expected.split(separator: "\n")).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        Issue.record("\(name) differs from the golden (first at line \((line ?? 0) + 1)); what was written is in \(written.path)", sourceLocation: sourceLocation)
    }

    @Test("the pinned trace holds every message name of the schema (a new message needs its golden lines)")
    func coversTheSchema() {
        let written = Set(CompactCaptureTests.trace(extremes: false).events.map(\.message.name))
        let missing = TraceMessageSchema.prototypes.map(\.name).filter { !written.contains($0) }
        #expect(missing.isEmpty, "not in CompactCaptureTests.messages: \(missing)")
    }

    @Test("JSON Lines 1.1: every message, two nodes, two runs")
    func jsonLines() throws {
        let (events, runs) = CompactCaptureTests.trace(extremes: false)
        let bytes = CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines)
        try Self.expectGolden(String(decoding: bytes, as: UTF8.self), "every-message.jsonl")
    }

    @Test("JSON Lines 1.0: every message, each line self-contained (TRACE-DATA's form)")
    func jsonLinesSelfContained() throws {
        let (events, _) = CompactCaptureTests.trace(extremes: false)
        let lines = events.map { TraceCaptureFormat.line(for: $0, runID: "r") + "\n" }.joined()
        try Self.expectGolden(lines, "every-message-1.0.jsonl")
    }

    @Test("the compact form: every message, extreme numbers, two nodes, two runs")
    func compact() throws {
        let (events, runs) = CompactCaptureTests.trace()
        let bytes = CaptureFileEncoding.bytes(of: events, runs: runs, format: .compact)
        // Sixteen bytes a line, in hex.
        let hex = stride(from: 0, to: bytes.count, by: 16).map { CompactCaptureTests.hex(Array(bytes[$0..<min($0 + 16, bytes.count)])) }
        try Self.expectGolden(hex.joined(separator: "\n") + "\n", "every-message.trellis.hex")
    }
}
