import Foundation
import Testing
import TrellisTestSupport

/// Deep input as a new user might generate it (SPEC §10): a hierarchy past the depth limit is
/// refused with exit 2 and the limit named; one at the limit runs and draws; a trace whose
/// cause chain is very deep prints as a tree and followed, in bounded space.
@Suite("deep input")
struct DeepInputTests {
    /// A chain scenario `C0 → … → C(depth-1)` with one resize step.
    func chainScenario(depth: Int, in directory: URL) throws -> String {
        var controllers: [String] = []
        for index in 0..<depth {
            controllers.append("\"C\(index)\": { \"children\": [\(index + 1 < depth ? "\"C\(index + 1)\"" : "")] }")
        }
        let text = """
            { "window": { "size": [320, 568] }, "root": "C0",
              "controllers": { \(controllers.joined(separator: ",\n")) },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """
        let path = directory.appendingPathComponent("chain-\(depth).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aHierarchyPastTheLimitIsRefusedByRunValidateAndExport() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try chainScenario(depth: 10_001, in: directory)
        for arguments in [["run", path], ["validate", path], ["trace", "export", "--format", "svg", "--scenario", path, "--step", "1"]] {
            let outcome = try await runTrellis(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.stderr.contains("$.root: the hierarchy under \"C0\" is 10001 levels deep; at most 10000 are supported"), "\(arguments)")
        }
    }

    @Test func aHierarchyAtTheLimitRunsAndDraws() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try chainScenario(depth: 10_000, in: directory)
        let run = try await runTrellis(["run", path], timeout: .seconds(120))
        #expect(run.status == 0)
        #expect(run.stdoutLines.contains("C9999 viewWillTransition(to: 568x320)"))
        let svg = try await runTrellis(["trace", "export", "--format", "svg", "--scenario", path, "--step", "1"], timeout: .seconds(120))
        #expect(svg.status == 0)
        #expect(svg.stdout.hasPrefix("<svg") || svg.stdout.contains("<svg"))
    }

    @Test func aDeepCauseChainPrintsAsATreeInBoundedSpace() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let depth = 20_000
        var lines: [String] = []
        lines.reserveCapacity(depth)
        for sequence in 1...depth {
            let cause = sequence == 1 ? "null" : "\"main#\(sequence - 1)\""
            lines.append("""
                {"v":"1.0","run":"deep","node":"main","seq":\(sequence),"lamport":\(sequence),"cause":\(cause),"controller":"C","transition":null,"step":0,"kind":"note","message":"note","payload":{"text":"n\(sequence)"},"time":\(sequence)}
                """)
        }
        let trace = directory.appendingPathComponent("chain.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)

        let tree = try await runTrellis(["trace", "show", "--tree", trace], timeout: .seconds(120))
        #expect(tree.status == 0)
        #expect(tree.stdoutLines.count == depth)
        #expect(tree.stdoutLines.last == String(repeating: "  ", count: 32) + "[\(depth - 1)] C note n\(depth)")  // CausalTree.indentLimit
        #expect(tree.stdout.utf8.count < depth * 200)

        let follow = try await runTrellis(["trace", "follow", trace, "main#\(depth / 2)"], timeout: .seconds(120))
        #expect(follow.status == 0)
        #expect(follow.stdoutLines.count == depth + 3)

        for format in ["perfetto", "mermaid", "plantuml"] {
            let export = try await runTrellis(["trace", "export", "--format", format, trace], timeout: .seconds(120))
            #expect(export.status == 0, "\(format)")
        }
    }
}
