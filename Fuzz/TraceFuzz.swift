import TrellisTrace
import TrellisTraceFiles

/// The trace readers (JSON Lines capture files, line by line and as bytes; compact captures) and what the
/// `trellis trace` commands do with what they read: merging, the causal tree, diffing, exports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    _ = try? TraceCaptureFormat.event(fromLine: bytes)
    // The compact reader too (TCF/1), behind its magic and header (minor 1: an END record is
    // required), whatever the input's first bytes: what it reads goes through the same checks.
    let compact = bytes.withUnsafeBytes { TraceFileReader.read(compact: $0, file: "fuzz.trellis") }
    let header: [UInt8] = [0x89, 0x54, 0x52, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x01]
    let sealed = (header + bytes).withUnsafeBytes { TraceFileReader.read(compact: $0, file: "fuzz.trellis") }
    for events in [compact.events, sealed.events] where !events.isEmpty {
        // TCF/1 §4 rule 3: what the compact reader accepts, JSON Lines holds and reads back.
        let lines = CaptureFileEncoding.bytes(of: events, runs: [], format: .jsonLines)
        let reread = TraceFileReader.read(text: String(decoding: lines, as: UTF8.self), file: "fuzz.jsonl")
        precondition(reread.problems.isEmpty && reread.events.count == events.count, "\(reread.problems)")
        _ = CaptureFileEncoding.bytes(of: events, runs: [], format: .compact)
    }
    guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
    let file = TraceFileReader.read(text: text, file: "fuzz.jsonl")
    let tree = CausalTree(TraceMerge.merge([file.events, file.events.reversed()]))
    _ = tree.indentedLines()
    _ = TraceDiff.render(TraceDiff.compare(file.events, tree.events))
    _ = PerfettoExport.json(file.events)
    _ = MermaidExport.sequenceDiagram(file.events)
    _ = PlantUMLExport.sequenceDiagram(file.events, steps: 0...2)
    for position in tree.events.indices.prefix(8) {
        _ = tree.causes(of: position)
        _ = tree.effects(of: position)
    }
    return 0
}
