import ArgumentParser
import Foundation
import TrellisBench
import TrellisTrace

/// `trellis bench`: each performance figure beside its anchor, measured in the same run.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Trellis beside its anchors (build with -c release for meaningful figures).",
        discussion: "Prints one line per figure: bench <name>: ours=… anchor=… ratio=… target=… pass|miss")

    @Flag(help: "Smaller hierarchies and fewer rounds: finishes within a minute.")
    var quick = false

    /// Internal: measure one memory figure in this fresh process and print it.
    @Option(help: .hidden)
    var memoryProbe: String?

    @Option(help: .hidden)
    var memoryCount: Int = 0

    func run() async throws {
        if let memoryProbe {
            let shape = HierarchyShape(count: memoryCount)
            let bytes = memoryProbe == "bare"
                ? await InProcessBench.bareBytesPerNode(shape)
                : try await InProcessBench.trellisBytesPerController(shape)
            print(bytes)
            return
        }
        let sizes = quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]
        let rounds = quick ? 2 : 3
        for count in sizes {
            let shape = HierarchyShape(count: count)
            let bare = await InProcessBench.bareHopsPerSecond(shape, rounds: rounds)
            let ours = try await InProcessBench.trellisHopsPerSecond(shape, rounds: rounds) { .memory }
            print(BenchLine(name: "inproc-hops-\(count)", ours: ours, anchor: bare, unit: "hops/s", target: .atLeast(0.5)))
            if count == sizes.last {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-bench-\(getpid()).jsonl").path
                defer { try? FileManager.default.removeItem(atPath: path) }
                let toFile = try await InProcessBench.trellisHopsPerSecond(shape, rounds: rounds) {
                    // The file cannot fail to open in the temporary folder short of a full disk.
                    (try? TraceFileWriter(path: path)).map { .file($0) } ?? .discard
                }
                print(BenchLine(name: "inproc-hops-file-trace-\(count)", ours: toFile, anchor: ours, unit: "hops/s", target: .atLeast(0.75)))
            }
        }
        // Each memory figure in a fresh process: freed memory from the figures above would be
        // reused and hide the growth.
        let count = quick ? 100_000 : 1_000_000
        let trellis = try Self.probe("trellis", count: count)
        let bare = try Self.probe("bare", count: count)
        print(BenchLine(name: "memory-per-controller", ours: trellis, anchor: bare, unit: "resident bytes per controller",
                        target: .valueAtMost(1024), note: "\(count) controllers, idle after the initial layout, trace discarded; anchor: a bare actor per node"))
    }

    static func probe(_ kind: String, count: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RunCommand.ownExecutable)
        process.arguments = ["bench", "--memory-probe", kind, "--memory-count", String(count)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }
}
