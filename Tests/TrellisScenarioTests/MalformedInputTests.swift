import Foundation
import Testing
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles

/// Bad input never crashes, traps or hangs (SPEC §10): every example file, damaged in many
/// deterministic ways, is either accepted or rejected with a located error; the same for
/// capture lines.
@Suite(.timeLimit(.minutes(2)))
struct MalformedInputTests {
    /// A small deterministic generator (xorshift), so a failure names its case.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(1, bound)))
        }
    }

    static let damages: [UInt8] = Array("{}[]\",:0-1e.tfn \\\u{0}\n".utf8) + [0xFF, 0xC3]

    func damaged(_ bytes: [UInt8], _ random: inout Random) -> [UInt8] {
        var copy = bytes
        for _ in 0...random.next(4) {
            guard !copy.isEmpty else { break }
            let at = random.next(copy.count)
            switch random.next(3) {
            case 0: copy[at] = Self.damages[random.next(Self.damages.count)]
            case 1: copy.remove(at: at)
            default: copy.insert(Self.damages[random.next(Self.damages.count)], at: at)
            }
        }
        return copy
    }

    // The scenario files only: Examples/Runner is a package of its own (SPEC §4.1).
    @Test(arguments: ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Examples").path)) ?? [])
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".yaml") }.sorted())
    func damagedScenarioFilesAreRejectedWithALocation(_ name: String) async throws {
        let path = packageRoot.appendingPathComponent("Examples/\(name)").path
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var random = Random(state: UInt64(truncatingIfNeeded: name.hashValue) | 1)
        random.state = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var accepted = 0, rejected = 0
        for _ in 0..<300 {
            let text = String(decoding: damaged(bytes, &random), as: UTF8.self)
            do {
                // The full path: a "storyboard" is found beside the file (SPEC §11).
                let scenario = try ScenarioDecoder.decode(text, file: path)
                accepted += 1
                // What is accepted must also run without trapping.
                _ = try? await ScenarioRunner.run(scenario)
            } catch {
                rejected += 1
                // The file, or the storyboard it names (whose faults carry the storyboard's place).
                #expect(error.description.hasPrefix(packageRoot.appendingPathComponent("Examples").path + "/"), "\(error)")
            }
        }
        #expect(accepted + rejected == 300)
        #expect(rejected > 0)
    }

    @Test func damagedCaptureLinesAreReportedNotFatal() async throws {
        let run = try await ScenarioRunner.run(try ScenarioDecoder.load(path: packageRoot.appendingPathComponent("Examples/popover-adaptation.json").path))
        let lines = run.events.map { TraceCaptureFormat.line(for: $0, runID: "fuzz") }
        var random = Random(state: 0x2545_F491_4F6C_DD1D)
        var damagedText: [String] = []
        for line in lines {
            damagedText.append(String(decoding: damaged(Array(line.utf8), &random), as: UTF8.self))
        }
        let text = damagedText.joined(separator: "\n")
        let file = TraceFileReader.read(text: text, file: "fuzz.jsonl")
        // Every non-blank line is either an event or a located problem: nothing is lost silently.
        let nonBlank = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasSuffix("\r") ? $0.dropLast() : $0).allSatisfy(\.isWhitespace) }.count
        #expect(file.events.count + file.problems.count == nonBlank)
        #expect(!file.problems.isEmpty)
        for problem in file.problems { #expect(problem.description.hasPrefix("fuzz.jsonl:")) }
    }
}
