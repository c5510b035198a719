import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace

// Helpers shared by the presentation tests. Every expectation in this target is derived by
// hand from SPEC.md, CONFORMANCE.md and the presentation contract decisions; none is copied
// from the program's output.

/// Decodes an inline scenario (SPEC §5).
func scenario(_ json: String) throws -> Scenario {
    try ScenarioDecoder.decode(json, file: "inline")
}

/// Runs an inline scenario in one process and returns its events.
func run(_ json: String) async throws -> ScenarioRun {
    try await ScenarioRunner.run(try scenario(json))
}

/// The canonical lines of step `step` (1-based; 0 = initial layout), without the header,
/// optionally filtered to some message kinds as an `expect` step does.
func lines(_ events: [TraceEvent], step: Int, kinds: [String]? = nil) -> [String] {
    events
        .filter { $0.step == step && $0.message.name != "step" }
        .filter { kinds?.contains($0.message.name) ?? true }
        .map(\.canonicalLine)
}

func lines(_ run: ScenarioRun, step: Int, kinds: [String]? = nil) -> [String] {
    lines(run.events, step: step, kinds: kinds)
}

/// A window built from an inline scenario, driven step by step through `Window.perform`, for
/// the structural checks the trace cannot show.
struct Stage {
    let scenario: Scenario
    let window: Window

    init(_ json: String) async throws {
        scenario = try ScenarioDecoder.decode(json, file: "inline")
        window = try await Window(ScenarioRunner.hierarchy(of: scenario))
        await window.start()
    }

    var events: [TraceEvent] { window.environment.recorder.events }

    /// Runs every step of the scenario (`expect` steps are skipped).
    func runAll() async throws {
        for number in scenario.steps.indices.map({ $0 + 1 }) {
            try await perform(step: number)
        }
    }

    /// Runs step `number` (1-based) with its header, as the scenario runner does.
    func perform(step number: Int) async throws {
        guard case let .event(event) = scenario.steps[number - 1] else { return }
        try await window.perform(event, step: number)
    }

    func lines(step: Int, kinds: [String]? = nil) -> [String] {
        TrellisPresentationTests.lines(events, step: step, kinds: kinds)
    }

    func node(_ id: ControllerID) async -> HierarchyStructure.Node? {
        await window.structure[id]
    }

    func pc(_ presented: ControllerID) async -> PresentationController? {
        await window.presentationController(presenting: presented)
    }

    func controller(_ id: ControllerID) async throws -> Controller {
        try await window.controller(id)
    }
}

/// The events of `run` in step `step` whose receiver is `controller`.
func events(_ events: [TraceEvent], step: Int, on controller: ControllerID) -> [TraceEvent] {
    events.filter { $0.step == step && $0.controller == controller }
}

/// Position of the first line equal to `line`, for relative-order checks.
func position(of line: String, in lines: [String]) -> Int? {
    lines.firstIndex(of: line)
}
