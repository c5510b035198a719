import Foundation
import Testing
import TrellisTestSupport

/// `trellis trace convert` and the two capture forms through every `trellis trace` command.
@Suite("trellis trace convert and the compact capture")
struct TraceConvertTests {
    static let examples = (try? FileManager.default.contentsOfDirectory(atPath: "Examples"))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    @Test("every example's trace converts JSON Lines → compact → JSON Lines byte for byte, and --trace writes both forms")
    func roundTrips() async throws {
        #expect(Self.examples.count >= 10)
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for example in Self.examples {
            let jsonLines = directory.appendingPathComponent("\(example).jsonl").path
            let compact = directory.appendingPathComponent("\(example).trellis").path
            let back = directory.appendingPathComponent("\(example).back.jsonl").path
            let compactAgain = directory.appendingPathComponent("\(example).again.trellis").path
            #expect(try await runTrellis(["run", "Examples/\(example)", "--trace", jsonLines]).status == 0)
            let toCompact = try await runTrellis(["trace", "convert", jsonLines, compact])
            #expect(toCompact.status == 0, "\(toCompact.stderr)")
            #expect(try await runTrellis(["trace", "convert", compact, back]).status == 0)
            #expect(try await runTrellis(["trace", "convert", back, compactAgain]).status == 0)
            let original = try Data(contentsOf: URL(fileURLWithPath: jsonLines))
            let converted = try Data(contentsOf: URL(fileURLWithPath: back))
            #expect(original == converted, "\(example): JSON Lines → compact → JSON Lines changed the file")
            #expect(try Data(contentsOf: URL(fileURLWithPath: compact)) == Data(contentsOf: URL(fileURLWithPath: compactAgain)))
            let compactData = try Data(contentsOf: URL(fileURLWithPath: compact))
            #expect(compactData.starts(with: [0x89, 0x54, 0x52, 0x4C]), "\(example): not a compact capture")
            #expect(compactData.count * 6 <= original.count, "\(example): \(compactData.count) bytes compact, \(original.count) as JSON Lines")
        }
        // A name not ending in .jsonl gets the compact form from `run` too; --to overrides the name.
        let recorded = directory.appendingPathComponent("recorded.trellis").path
        #expect(try await runTrellis(["run", "Examples/split-view.json", "--trace", recorded]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: recorded)).starts(with: [0x89, 0x54, 0x52, 0x4C]))
        let forced = directory.appendingPathComponent("forced.txt").path
        #expect(try await runTrellis(["trace", "convert", recorded, forced, "--to", "jsonl"]).status == 0)
        #expect(try String(contentsOfFile: forced, encoding: .utf8).hasPrefix("{\"v\":\"1.1\""))
    }

    @Test("every trace command prints the same from the compact form as from JSON Lines, and files of both forms merge")
    func sameOutput() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for example in ["popover-adaptation.json", "split-view.json", "chain-dismiss-middle.json", "one-third-sidebar.json"] {
            let jsonLines = directory.appendingPathComponent("\(example).jsonl").path
            let compact = directory.appendingPathComponent("\(example).trellis").path
            #expect(try await runTrellis(["run", "Examples/\(example)", "--trace", jsonLines]).status == 0)
            #expect(try await runTrellis(["trace", "convert", jsonLines, compact]).status == 0)
            let commands: [[String]] = [
                ["show"], ["show", "--tree", "--frames"], ["show", "--kind", "layout", "--step", "1-2"], ["follow", "main#2"],
                ["export", "--format", "perfetto"], ["export", "--format", "mermaid"], ["export", "--format", "plantuml"], ["merge"],
            ]
            for command in commands {
                let fromJSON = try await runTrellis(["trace"] + [command[0], jsonLines] + command.dropFirst())
                let fromCompact = try await runTrellis(["trace"] + [command[0], compact] + command.dropFirst())
                #expect(fromJSON.status == 0 && fromCompact.status == fromJSON.status, "\(example) \(command): \(fromCompact.stderr)")
                #expect(fromJSON.stdout == fromCompact.stdout, "\(example) \(command): the two forms print differently")
            }
            #expect(try await runTrellis(["trace", "diff", jsonLines, compact]).status == 0)
            // A file and its conversion are one capture twice, not two parts of a run.
            let mixed = try await runTrellis(["trace", "merge", jsonLines, compact])
            #expect(mixed.status == 2)
            #expect(mixed.stderr.hasPrefix("error: \(jsonLines) and \(compact) both hold event main#1: "), "\(mixed.stderr)")
        }
        // The per-node files of a distributed run merge whatever their forms.
        let nodes = directory.appendingPathComponent("nodes")
        try FileManager.default.createDirectory(at: nodes, withIntermediateDirectories: true)
        let run = try await runTrellis(["run", "Examples/popover-adaptation.json", "--transport", "zmq", "--trace-dir", nodes.path], timeout: .seconds(120))
        #expect(run.status == 0, "\(run.stderr)")
        let paths = ["main", "b", "c"].map { nodes.appendingPathComponent("\($0).jsonl").path }
        let compactB = nodes.appendingPathComponent("b.trellis").path
        #expect(try await runTrellis(["trace", "convert", paths[1], compactB]).status == 0)
        let jsonOnly = try await runTrellis(["trace", "merge"] + paths)
        let mixed = try await runTrellis(["trace", "merge", paths[0], compactB, paths[2]])
        #expect(jsonOnly.status == 0 && mixed.status == 0, "\(mixed.stderr)")
        #expect(!mixed.stdout.isEmpty && mixed.stdout == jsonOnly.stdout)
    }

    @Test("a truncated or damaged compact capture is reported with its byte offset; what came before is read")
    func damagedCompactFile() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let compact = directory.appendingPathComponent("t.trellis").path
        #expect(try await runTrellis(["run", "Examples/split-view.json", "--trace", compact]).status == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: compact))
        let truncated = directory.appendingPathComponent("cut.trellis").path
        // The file ends with its END record (TCF 1.1, 7 bytes here): cut inside it, or right
        // before it at a record boundary, the file says it was cut.
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: truncated))
        let shown = try await runTrellis(["trace", "show", truncated])
        #expect(shown.status == 2)
        #expect(shown.stderr.contains("cut.trellis: byte \(bytes.count - 6): the length of the record at byte \(bytes.count - 7) (tag 0x4)"),
                "\(shown.stderr)")
        #expect(!shown.stdoutLines.isEmpty)
        try bytes.prefix(bytes.count - 7).write(to: URL(fileURLWithPath: truncated))
        let atBoundary = try await runTrellis(["trace", "show", truncated])
        #expect(atBoundary.stderr.contains("cut.trellis: byte \(bytes.count - 7): the file ends without the END record"), "\(atBoundary.stderr)")
        #expect(atBoundary.stdoutLines == (try await runTrellis(["trace", "show", compact])).stdoutLines)
        // A conversion does not silently drop what it could not read.
        #expect(try await runTrellis(["trace", "convert", truncated, directory.appendingPathComponent("x.jsonl").path]).status == 2)
    }
}
