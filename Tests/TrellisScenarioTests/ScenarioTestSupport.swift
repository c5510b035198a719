import Foundation
import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
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

enum Lines {
    static let layoutKinds: Set<String> = [
        "viewWillLayoutSubviews", "viewDidLayoutSubviews", "containerViewWillLayoutSubviews", "containerViewDidLayoutSubviews",
    ]

    static func kind(_ line: String) -> String { ExpectedLine.kind(of: line) ?? "" }

    /// `X viewWillLayoutSubviews`, `X viewDidLayoutSubviews` for each controller, in that order.
    static func layout(_ controllers: String...) -> [String] {
        controllers.flatMap { ["\($0) viewWillLayoutSubviews", "\($0) viewDidLayoutSubviews"] }
    }
}

/// Window fragments and trait texts shared by the inline scenarios.
enum Env {
    /// iPhone portrait, 320x568, compact width, regular height.
    static let phone = """
        "window": { "size": [320, 568], "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular",
                                                    "userInterfaceIdiom": "phone", "displayScale": 2 } }
        """
    /// iPad landscape, 1024x768, regular both ways.
    static let pad = """
        "window": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular",
                                                     "userInterfaceIdiom": "pad", "displayScale": 2 } }
        """
    /// The phone's traits in portrait and in landscape, as canonical lines print them.
    static let portrait = "h=compact v=regular idiom=phone scale=2"
    static let landscape = "h=compact v=compact idiom=phone scale=2"
    /// The iPad's traits.
    static let padRegular = "h=regular v=regular idiom=pad scale=2"
    static let padCompactWidth = "h=compact v=regular idiom=pad scale=2"
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
    static func rejection(_ json: String) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(json, file: "bad.json")
            return nil
        } catch {
            return error
        }
    }
}
