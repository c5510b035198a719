import Foundation
import Testing
import TrellisTestSupport

/// `trellis bench` (SPEC §10, issue #7): the lines scripts read. No figure is judged here — a
/// test never asserts a timing — only that the measure runs end to end, with its peer processes,
/// and reports in the agreed form: `bench <name>: ours=… anchor=… ratio=… target=… pass|miss`.
@Suite("trellis bench", .tags(.slow), .selected(.slow))
struct BenchCommandTests {
    struct Line {
        var name: String
        var ours: Double
        var anchor: Double
        var ratio: Double
        var bound: String
        var limit: Double
        var verdict: String
    }

    /// A summary line as a script reads it; nil for anything else.
    static func parse(_ text: String) -> Line? {
        let pattern = #/^bench ([a-z0-9-]+): ours=([0-9.]+) anchor=([0-9.]+) ratio=([0-9.]+) target=(ratio>=|ratio<=|ours<=)([0-9.]+) (pass|miss)(   # .*)?$/#
        guard let match = text.wholeMatch(of: pattern), let ours = Double(match.2), let anchor = Double(match.3),
              let ratio = Double(match.4), let limit = Double(match.6) else { return nil }
        return Line(name: String(match.1), ours: ours, anchor: anchor, ratio: ratio, bound: String(match.5), limit: limit, verdict: String(match.7))
    }

    @Test("--figure zmq-rtt measures the round trip beside raw REQ/REP and prints its two lines in the form scripts read")
    func roundTripLines() async throws {
        let outcome = try await runTrellis(["bench", "--quick", "--figure", "zmq-rtt"], timeout: .seconds(120))
        #expect(!outcome.timedOut)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdoutLines.compactMap(Self.parse)
        #expect(lines.count == outcome.stdoutLines.count, "every line is a summary line: \(outcome.stdout)")
        #expect(lines.map(\.name) == ["zmq-rtt-median", "zmq-rtt-p99"])
        for line in lines {
            #expect(line.ours > 0 && line.anchor > 0)
            // The ratio is ours over the anchor (each printed rounded), and the verdict follows it.
            #expect(abs(line.ratio - line.ours / line.anchor) <= 0.01 * line.ratio + 0.002, "\(line)")
            #expect(line.bound == "ratio<=" && line.limit == 1.5)
            #expect(line.verdict == (line.ratio <= line.limit ? "pass" : "miss"), "\(line)")
        }
        #expect(outcome.stdoutLines.first?.contains("raw libzmq over Trellis's socket layout:") == true)
    }

    @Test("--figure zmtp-rtt measures the round trip through TrellisZMTP, bytes and CALL/RETURN, beside raw REQ/REP, over ipc and tcp, in the form scripts read")
    func zmtpRoundTripLines() async throws {
        let outcome = try await runTrellis(["bench", "--quick", "--figure", "zmtp-rtt"], timeout: .seconds(120))
        #expect(!outcome.timedOut)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdoutLines.compactMap(Self.parse)
        #expect(lines.count == outcome.stdoutLines.count, "every line is a summary line: \(outcome.stdout)")
        #expect(lines.map(\.name) == ["zmtp-rtt-median", "zmtp-rtt-p99", "zmtp-rtt-call-median", "zmtp-rtt-call-p99", "zmtp-rtt-tcp-median", "zmtp-rtt-tcp-p99"])
        for line in lines {
            #expect(line.ours > 0 && line.anchor > 0)
            #expect(line.bound == "ratio<=" && line.limit == (line.name.hasSuffix("median") ? 1.0 : 1.5))
            #expect(line.verdict == (line.ratio <= line.limit ? "pass" : "miss"), "\(line)")
        }
    }

    @Test("--figure inproc-hops prints, for each size, Trellis beside bare actors, plain calls and traced plain calls, measured in the same turns")
    func inProcessHopsLines() async throws {
        // The run also checks that the traced floor records the events Trellis records for one
        // more transition (it exits 2 when they differ), so status 0 says they were the same.
        let outcome = try await runTrellis(["bench", "--quick", "--in-process-only", "--figure", "inproc-hops"], timeout: .seconds(600))
        #expect(!outcome.timedOut)
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdoutLines.compactMap(Self.parse)
        #expect(lines.count == outcome.stdoutLines.count, "every line is a summary line: \(outcome.stdout)")
        func names(_ size: Int) -> [String] { ["inproc-hops-\(size)", "inproc-hops-\(size)-plain-calls", "inproc-hops-\(size)-traced-plain-calls"] }
        let sizes = [10_000, 100_000]
        #expect(lines.map(\.name) == sizes.flatMap(names))
        for size in sizes {
            let figures = lines.filter { names(size).contains($0.name) }
            #expect(figures.count == 3)
            // One Trellis measure, three anchors: the same `ours` on each line.
            #expect(Set(figures.map(\.ours)).count == 1, "\(figures)")
            let traced = figures.first { $0.name.hasSuffix("-traced-plain-calls") }
            #expect(traced.map { $0.anchor > 0 && $0.bound == "ratio>=" && $0.limit == 0.5 } == true, "\(String(describing: traced))")
        }
        for line in lines {
            #expect(abs(line.ratio - line.ours / line.anchor) <= 0.01 * line.ratio + 0.002, "\(line)")
            #expect(line.verdict == (line.ratio >= line.limit ? "pass" : "miss"), "\(line)")
        }
    }

    @Test("--figure storyboard-import measures a storyboard of about a megabyte beside the same scenario read from JSON, in one line")
    func storyboardImportLine() async throws {
        let outcome = try await runTrellis(["bench", "--quick", "--figure", "storyboard-import", "--in-process-only"], timeout: .seconds(300))
        #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
        let lines = outcome.stdoutLines.compactMap(Self.parse)
        #expect(lines.map(\.name) == ["storyboard-import"])
        #expect(lines.first.map { $0.ours > 0 && $0.anchor > 0 && $0.bound == "ours<=" } == true)
        #expect(outcome.stdout.contains("a storyboard of ") && outcome.stdout.contains(" bytes through a scenario's"))
    }
}
