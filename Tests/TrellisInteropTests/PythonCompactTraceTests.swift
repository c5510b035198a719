import Foundation
import Testing
import TrellisTestSupport

/// TWP/1 §7.8: the Python node's compact trace encoder (`compact_captures` in
/// `Tests/Interop/trellis_node.py`, written from TCF/1 alone) writes, for every example's events,
/// exactly the capture the reference writes (`trellis trace convert`): every message the
/// examples record — presentations, suppressions, layout frames — is encoded as TCF/1 says.
@Suite("Interop: the Python node's compact traces", .tags(.multiProcess), .selected(.multiProcess))
struct PythonCompactTraceTests {
    static let encode = """
        import importlib.util, json, sys
        spec = importlib.util.spec_from_file_location("trellis_node", sys.argv[1])
        node = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(node)
        events = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8") if line.strip()]
        captures = node.compact_captures(events, 1 << 40)
        assert len(captures) == 1, len(captures)
        open(sys.argv[3], "wb").write(captures[0])
        """

    static func examples() -> [String] {
        let directory = packageRoot.appendingPathComponent("Examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    @Test("the Python encoder writes the reference's capture, byte for byte",
          .enabled(if: PythonZMQ.available, PythonZMQ.skipMessage), arguments: examples())
    func pythonWritesTheReferenceCapture(example: String) async throws {
        let binary = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage))
        let directory = try InteropDirectory()
        defer { directory.remove() }
        let scenario = packageRoot.appendingPathComponent("Examples/\(example)")
        let run = try await ChildProcess.run(binary, ["run", scenario.path, "--format", "jsonl"], in: directory, name: "run")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = directory.url.appendingPathComponent("run.jsonl")
        try run.stdout.write(to: lines, atomically: true, encoding: .utf8)
        let reference = directory.url.appendingPathComponent("reference.trellis")
        let convert = try await ChildProcess.run(binary, ["trace", "convert", lines.path, reference.path], in: directory, name: "convert")
        #expect(convert.status == 0, "\(convert.stderr)")
        let python = directory.url.appendingPathComponent("python.trellis")
        let script = packageRoot.appendingPathComponent("Tests/Interop/trellis_node.py")
        let encoded = try await ChildProcess.run(
            URL(fileURLWithPath: PythonZMQ.interpreter), ["-c", Self.encode, script.path, lines.path, python.path],
            in: directory, name: "encode")
        #expect(encoded.status == 0, "\(encoded.stderr)")
        let expected = try Data(contentsOf: reference)
        #expect(expected.count > 100)
        #expect(try Data(contentsOf: python) == expected, "\(example): the Python capture differs from the reference's")
    }
}
