import TrellisTrace
import TrellisTraceFiles

/// The trace readers (JSON Lines capture files, line by line and as bytes) and what the
/// `trellis trace` commands do with what they read: merging, the causal tree, diffing, exports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput.bytes(data, size)
    _ = try? TraceCaptureFormat.event(fromLine: bytes)
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
