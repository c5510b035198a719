import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisTraceFiles

/// The outcome of running a scenario: every event, and the `expect` steps that failed.
public struct ScenarioRun: Sendable {
    /// Every event of the run, in trace order.
    public var events: [TraceEvent]
    /// The `expect` steps that failed, in order.
    public var failures: [ExpectationFailure]
    /// How long each step took, by step number (wall clock; for `trellis bench`, never for tests).
    public var stepDurations: [Int: Duration] = [:]
    /// The step after which the run stopped early (`ScenarioRunner.run`'s `stopAfter`); nil when
    /// every step ran.
    public var stoppedAfterStep: Int?

    /// The canonical text of every event, one line each.
    public var canonicalLines: [String] { events.map(\.canonicalLine) }
    /// Whether every `expect` step passed.
    public var passed: Bool { failures.isEmpty }
}

/// An `expect` step whose lines differ from what the step before it produced.
public struct ExpectationFailure: Sendable, Equatable, CustomStringConvertible {
    /// 1-based position of the `expect` step in the file's steps.
    public var step: Int
    /// The step it checked (0: the initial layout).
    public var checkedStep: Int
    /// The message kinds the `expect` step compared (`kinds`; all, by default).
    public var kinds: [String]
    /// The lines the step expected.
    public var expected: [String]
    /// The lines of those kinds the checked step produced.
    public var actual: [String]
    /// The scenario file, and where in it the `expect` step is (nil: a scenario made in code):
    /// the failure starts with `FILE:LINE:COLUMN:` as every other scenario error does (SPEC §5).
    public var file: String = ""
    /// The `expect` step's line and column in `file`.
    public var position: SourcePosition?

    public var description: String {
        let checked = checkedStep == 0 ? "the initial layout" : "step \(checkedStep)"
        let place = position.map { "\(file):\($0.line):\($0.column): " } ?? (file.isEmpty ? "" : "\(file): ")
        return place + "expect at step \(step) ($.steps[\(step - 1)]) failed for \(checked), comparing kinds \(kinds.joined(separator: ", ")):\n"
            + LineDiff.render(expected: expected, actual: actual)
    }
}

/// Why a scenario could not be run at all.
public enum ScenarioRunError: Error, Sendable, CustomStringConvertible {
    /// The runtime refused what a step asked (step 0: building the hierarchy).
    case runtime(step: Int, RuntimeError)
    /// A step number outside the scenario (0 is the initial layout, then 1 through `stepCount`).
    case noSuchStep(Int, stepCount: Int)

    public var description: String {
        switch self {
        case let .runtime(step, error):
            return step == 0 ? "building the hierarchy: \(error)" : "step \(step) ($.steps[\(step - 1)]): \(error)"
        case let .noSuchStep(step, stepCount):
            return "no step \(step): the scenario has steps 1 to \(stepCount) (0 is the initial layout)"
        }
    }
}

/// Builds a scenario's hierarchy in one process and runs its steps, checking `expect` steps.
public enum ScenarioRunner {
    /// The runtime's description of the scenario's window and controllers, with the Swift
    /// behaviours its `"behavior"` names give from the scenario's registry (SPEC §4.1).
    public static func hierarchy(of scenario: Scenario) -> HierarchyDescription {
        var hierarchy = HierarchyDescription(
            windowSize: scenario.windowSize,
            windowTraits: scenario.windowTraits,
            root: scenario.root,
            controllers: scenario.controllers.map { description(of: $0, registry: scenario.registry) },
            profile: scenario.profile)
        hierarchy.copiedFrom = scenario.copiedFrom
        return hierarchy
    }

    /// The hierarchy of the scenario file at `path`, its behaviour names taken from `registry`:
    /// what a test kit store is built from (`TraceTestStore(try ScenarioRunner.hierarchy(ofFile:
    /// path, registry: registry))`, SPEC §4.2) — the kit itself links no scenario reader. The
    /// file's steps are not run; a bad file throws its `FILE:LINE:COLUMN` error.
    public static func hierarchy(ofFile path: String, registry: BehaviorRegistry) throws(ScenarioError) -> HierarchyDescription {
        hierarchy(of: try ScenarioDecoder.load(path: path, registry: registry))
    }

    // The registry lookups below cannot miss for a decoded scenario: the decoder checked every
    // name against the same registry (`ScenarioValidator.validateBehaviors`). A scenario put
    // together in code with a name its registry lacks gets UIKit's default in its place.

    static func description(of spec: ControllerSpec, registry: BehaviorRegistry) -> ControllerDescription {
        let custom = spec.presentationController ?? CustomPresentationSpec()
        return ControllerDescription(
            spec.id,
            kind: spec.kind,
            children: spec.children,
            selectedIndex: spec.selected,
            preferredContentSize: spec.preferredContentSize ?? .zero,
            traitOverrides: spec.traitOverrides,
            grant: spec.overrides.grant ?? .none,
            behavior: viewControllerBehavior(of: spec, registry: registry),
            modalPresentationStyle: spec.modalPresentationStyle,
            modalTransitionStyle: spec.modalTransitionStyle ?? .coverVertical,
            definesPresentationContext: spec.definesPresentationContext,
            providesPresentationContextTransitionStyle: spec.providesPresentationContextTransitionStyle ?? false,
            presentationController: PresentationControllerDescription(
                shouldPresentInFullscreen: custom.shouldPresentInFullscreen,
                shouldRemovePresentersView: custom.shouldRemovePresentersView,
                overrideTraitCollection: custom.overrideTraits,
                grant: custom.overrides.grant,
                behavior: custom.behavior.map { registry.presentationControllerBehavior(named: $0) ?? DefaultPresentationBehavior() }
                    ?? ScenarioPresentationBehavior(overrides: custom.overrides, frame: custom.frame)),
            adaptiveDelegate: spec.adaptiveDelegate.map { delegate in adaptiveDelegate(delegate, registry: registry) },
            hasPopoverSource: spec.popoverSource != nil,
            popoverSourceView: spec.popoverSource?.view,
            popoverSourceRect: spec.popoverSource?.rect,
            popoverSourceCorner: spec.popoverSource?.corner ?? .topLeft,
            layout: spec.layout)
    }

    /// The named Swift behaviour, else the file's `overrides` (none: `DefaultBehavior`, which the
    /// router runs without asking).
    private static func viewControllerBehavior(of spec: ControllerSpec, registry: BehaviorRegistry) -> any ViewControllerBehavior {
        if let name = spec.behavior { return registry.viewControllerBehavior(named: name) ?? DefaultBehavior() }
        return spec.overrides.callsSuperEverywhere ? DefaultBehavior() : ScenarioBehavior(overrides: spec.overrides)
    }

    /// The named Swift delegate, else the file's answer in every environment.
    private static func adaptiveDelegate(_ delegate: AdaptiveDelegateSpec, registry: BehaviorRegistry) -> any AdaptivePresentationDelegate {
        if let name = delegate.behavior { return registry.adaptiveDelegate(named: name) ?? AdaptiveDelegate() }
        return AdaptiveDelegate(
            answer: delegate.style.map { raw in ModalPresentationStyle(rawValue: raw).map(AdaptiveAnswer.style) ?? .unrecognized(raw) },
            wrapsInNavigationController: delegate.wrapIn == .navigation)
    }

    /// Runs the scenario in this process.
    public static func run(
        _ scenario: Scenario, recorder: TraceRecorder = TraceRecorder(), progress: (@Sendable (_ step: Int, _ of: Int) -> Void)? = nil
    ) async throws(ScenarioRunError) -> ScenarioRun {
        let window: Window
        do {
            window = try await Window(hierarchy(of: scenario), environment: RuntimeEnvironment(recorder: recorder))
        } catch {
            throw .runtime(step: 0, error)
        }
        return try await run(scenario, on: window, collect: { recorder.events }, progress: progress)
    }

    /// Runs the scenario's steps on a window built for it; `collect` returns every event so far
    /// in trace order (a distributed run merges its nodes' events there). `stopAfter`, asked
    /// after each step that did something, ends the run there when it answers true (a
    /// distributed run whose node was lost: every later call would only fault).
    public static func run(
        _ scenario: Scenario, on window: Window, collect: @Sendable () async -> [TraceEvent],
        progress: (@Sendable (_ step: Int, _ of: Int) -> Void)? = nil,
        stopAfter: (@Sendable (_ step: Int) async -> Bool)? = nil
    ) async throws(ScenarioRunError) -> ScenarioRun {
        try await run(scenario, on: window, through: scenario.steps.count, collect: collect, progress: progress, stopAfter: stopAfter)
    }

    /// The simulated screen after step `step` (SPEC §6): the scenario run in this process up to
    /// and including that step (0: after the initial layout), its frames bottom to top, the
    /// window's size then (a root covered by a full-screen presentation has no frame to tell it,
    /// R41), and the events so far. Failed `expect` steps on the way are not reported here (`run`
    /// reports them).
    public static func screen(
        after step: Int, of scenario: Scenario
    ) async throws(ScenarioRunError) -> (frames: [ScreenFrame], windowSize: Size, events: [TraceEvent]) {
        guard (0...scenario.steps.count).contains(step) else {
            throw .noSuchStep(step, stepCount: scenario.steps.count)
        }
        let recorder = TraceRecorder()
        let window: Window
        do {
            window = try await Window(hierarchy(of: scenario), environment: RuntimeEnvironment(recorder: recorder))
        } catch {
            throw .runtime(step: 0, error)
        }
        let run = try await run(scenario, on: window, through: step, collect: { recorder.events })
        return (await window.screenFrames(), await window.size, run.events)
    }

    /// Runs steps 1 through `lastStep`.
    static func run(
        _ scenario: Scenario, on window: Window, through lastStep: Int, collect: @Sendable () async -> [TraceEvent],
        progress: (@Sendable (_ step: Int, _ of: Int) -> Void)? = nil,
        stopAfter: (@Sendable (_ step: Int) async -> Bool)? = nil
    ) async throws(ScenarioRunError) -> ScenarioRun {
        await window.start()
        var failures: [ExpectationFailure] = []
        var durations: [Int: Duration] = [:]
        var checkedStep = 0
        var stoppedAfter: Int?
        // The initial layout counts as step 0.
        if let stopAfter, await stopAfter(0) { stoppedAfter = 0 }
        for (index, step) in scenario.steps.prefix(lastStep).enumerated() where stoppedAfter == nil {
            let number = index + 1
            progress?(number, scenario.steps.count)
            let event: WindowEvent
            switch step {
            case let .event(stepEvent):
                event = stepEvent
            case let .expect(lines):
                let events = await collect().filter { event in
                    guard event.step == checkedStep else { return false }
                    if case .step = event.message { return false }
                    return true
                }
                if var failure = check(lines, against: events, step: number, checkedStep: checkedStep) {
                    failure.file = scenario.source
                    failure.position = scenario.stepPositions.indices.contains(index) ? scenario.stepPositions[index] : nil
                    failures.append(failure)
                }
                continue
            }
            let started = ContinuousClock.now
            do {
                try await window.perform(event, step: number)
            } catch {
                throw .runtime(step: number, error)
            }
            durations[number] = started.duration(to: .now)
            checkedStep = number
            if let stopAfter, await stopAfter(number) { stoppedAfter = number }
        }
        var result = ScenarioRun(events: await collect(), failures: failures)
        result.stepDurations = durations
        result.stoppedAfterStep = stoppedAfter
        return result
    }

    /// SPEC §5 `expect`: the checked step's events, filtered to the message kinds the expected
    /// lines use, must equal the expected lines in order.
    static func check(_ expected: [String], against events: [TraceEvent], step: Int, checkedStep: Int) -> ExpectationFailure? {
        let kinds = ExpectedLine.kinds(of: expected)
        let actual = ExpectedLine.lines(of: events, kinds: kinds)
        guard actual != expected else { return nil }
        return ExpectationFailure(step: step, checkedStep: checkedStep, kinds: kinds.sorted(), expected: expected, actual: actual)
    }
}
