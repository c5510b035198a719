import Foundation
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles
import TrellisDistributed
import TrellisRuntime
import TrellisTransport

/// One seed of the differential tester (SPEC §7, CONFORMANCE 36): the seed's random scenario is
/// run in this process and over its placement's nodes, and the two canonical traces must be
/// equal line for line. A mismatch says everything needed to replay it: the seed, the placement,
/// the differing lines, the scenario, and the file it was written to
/// (`trellis run FILE --transport zmq` runs it again).
enum DifferentialCheck {
    /// Where mismatching scenarios are written.
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-differential")

    /// A seed whose runs differ (or that could not run), as a report.
    struct Mismatch: CustomStringConvertible {
        var generated: GeneratedScenario
        var problem: String
        var file: URL?

        var description: String {
            let program = generated.text.contains("\"behavior\"") ? "trellis-test-runner" : "trellis"
            let replay = file.map { "\(program) run \($0.path) --transport zmq" } ?? "(the scenario file could not be written)"
            return """
                differential mismatch for seed \(generated.seed): \(problem)
                placement: \(generated.placementDescription)
                replay: \(replay)
                scenario: \(generated.text)
                """
        }
    }

    /// Runs one seed; nil when both runs print the same trace. `namingBehaviors`: the seed's
    /// scenario with Swift behaviours (`DifferentialBehaviors`), which every node must then know:
    /// in-process nodes are built with the registry the file was read with; spawned nodes must
    /// run a program that registers them (`trellis-test-runner`).
    /// `performingSegues`: the seed's scenario with segues and `performSegue` steps (SPEC §11).
    static func check(
        seed: UInt64, options: DistributedOptions, namingBehaviors: Bool = false, performingSegues: Bool = false, verbose: Bool = false
    ) async -> Mismatch? {
        let generated = performingSegues ? ScenarioGenerator.scenarioPerformingSegues(seed: seed)
            : namingBehaviors ? ScenarioGenerator.scenarioNamingBehaviors(seed: seed) : ScenarioGenerator.scenario(seed: seed)
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(
                generated.text, file: "seed-\(seed).json", registry: namingBehaviors ? DifferentialBehaviors.registry : BehaviorRegistry())
        } catch {
            return mismatch(generated, "the generator made a file the decoder rejects: \(error)")
        }
        let inProcess: [String]
        do {
            inProcess = try await ScenarioRunner.run(scenario).canonicalLines
        } catch {
            return mismatch(generated, "the in-process run failed: \(error)")
        }
        do {
            let distributed = try await DistributedRun.run(scenario, scenarioText: generated.text, options: options).canonicalLines
            if verbose {
                print("seed \(seed): \(inProcess.count) lines in process, \(distributed.count) distributed; placement \(generated.placementDescription)\n\(generated.text)")
            }
            guard distributed != inProcess else { return nil }
            return mismatch(generated, "the traces differ (- in-process, + distributed):\n" + difference(inProcess, distributed))
        } catch let .faults(faults, partial) {
            return mismatch(generated, "the distributed run faulted: \(faults.prefix(3).joined(separator: "; "))\n"
                + difference(inProcess, partial.canonicalLines))
        } catch {
            return mismatch(generated, "the distributed run failed: \(error)")
        }
    }

    private static func mismatch(_ generated: GeneratedScenario, _ problem: String) -> Mismatch {
        let file = directory.appendingPathComponent("seed-\(generated.seed).json")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(generated.text.utf8).write(to: file)
            return Mismatch(generated: generated, problem: problem, file: file)
        } catch {
            return Mismatch(generated: generated, problem: problem, file: nil)
        }
    }

    /// The lines that differ with three lines of context around each run of differences, and
    /// the line number in the in-process trace where each run starts.
    static func difference(_ expected: [String], _ actual: [String], context: Int = 3) -> String {
        let operations = LineDiff.operations(expected: expected, actual: actual)
        let changed = operations.indices.filter { index in
            if case .same = operations[index] { return false }
            return true
        }
        var shown = Set<Int>()
        for index in changed {
            for near in max(0, index - context)...min(operations.count - 1, index + context) { shown.insert(near) }
        }
        var lines: [String] = []
        var expectedLine = 0
        var previous: Int?
        for (index, operation) in operations.enumerated() {
            if case .extra = operation {} else { expectedLine += 1 }
            guard shown.contains(index) else { continue }
            if previous.map({ $0 + 1 != index }) ?? true { lines.append("@@ in-process line \(expectedLine)") }
            previous = index
            switch operation {
            case let .same(line): lines.append("    " + line)
            case let .missing(line): lines.append("  - " + line)
            case let .extra(line): lines.append("  + " + line)
            }
        }
        return lines.joined(separator: "\n")
    }
}
