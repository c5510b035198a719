import Foundation
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

/// A scenario run with its canonical trace cut at the step headers.
struct SteppedTrace {
    let run: ScenarioRun
    /// Step number → the lines after that step's header (0: the initial layout, before any header).
    let byStep: [Int: [String]]
    /// The header lines, in order.
    let headers: [String]

    /// Every line of step `number` (without its header); empty when the step printed none.
    subscript(step number: Int) -> [String] { byStep[number] ?? [] }

    /// Step `number`'s lines without the layout callbacks: the messages a rule talks about.
    func messages(step number: Int) -> [String] {
        self[step: number].filter { !Lines.layoutKinds.contains(Lines.kind($0)) }
    }

    /// Step `number`'s lines of the given message kinds only (as an `expect` step filters).
    func lines(step number: Int, kinds: Set<String>) -> [String] {
        self[step: number].filter { kinds.contains(Lines.kind($0)) }
    }
}

struct ScenarioTestError: Error, CustomStringConvertible {
    var description: String
}

enum Scenarios {
    /// Decodes and runs `json`; every `expect` step in it must hold.
    static func run(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> SteppedTrace {
        let scenario: Scenario
        do {
            scenario = try ScenarioDecoder.decode(json, file: "inline.json")
        } catch {
            throw ScenarioTestError(description: "inline scenario rejected: \(error)")
        }
        let run: ScenarioRun
        do {
            run = try await ScenarioRunner.run(scenario)
        } catch {
            throw ScenarioTestError(description: "inline scenario failed to run: \(error)")
        }
        for failure in run.failures {
            Issue.record("\(failure)", sourceLocation: sourceLocation)
        }
        return split(run)
    }

    static func split(_ run: ScenarioRun) -> SteppedTrace {
        var byStep: [Int: [String]] = [:]
        var headers: [String] = []
        var current = 0
        for line in run.canonicalLines {
            if line.hasPrefix("== step ") {
                headers.append(line)
                let digits = line.dropFirst("== step ".count).prefix { $0.isNumber }
                current = Int(digits) ?? -1
                byStep[current] = byStep[current] ?? []
                continue
            }
            byStep[current, default: []].append(line)
        }
        return SteppedTrace(run: run, byStep: byStep, headers: headers)
    }

    /// The error a bad scenario text is rejected with, or nil if it is accepted.
    static func rejection(_ json: String, registry: BehaviorRegistry = BehaviorRegistry()) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(json, file: "bad.json", registry: registry)
            return nil
        } catch {
            return error
        }
    }
}
