import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace

/// Drives one window event by event and checks what it did, exhaustively by default: every
/// event an action causes must be expected before the next action (TCA's `TestStore` applied
/// to traces). Nothing waits on time: an action returns when everything it caused is done.
///
/// ```swift
/// let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
///     ViewController("R") { ViewController("A"); ViewController("B") }
/// })
/// try await store.resizeWindow(to: Size(568, 320))
/// try store.expect([
///     "R viewWillTransition(to: 568x320)", …
/// ])
/// ```
public final class TraceTestStore {
    public let window: Window
    /// Whether every event must be expected (the default) or only those asserted.
    public var exhaustivity: Exhaustivity = .on
    /// Events that happened and were not expected yet.
    public private(set) var received: [TraceEvent] = []
    /// The ordering seed; one window has no open ordering, so it only names the run in failures.
    public let seed: UInt64

    public enum Exhaustivity: Sendable, Equatable {
        /// Every event must be expected before the next action and at `finish()`.
        case on
        /// Unexpected events are dropped silently.
        case off
    }

    private var recorder: TraceRecorder { window.environment.recorder }
    private var consumed = 0

    /// A store over a hierarchy built in Swift. The initial layout is expected to have happened:
    /// it is skipped unless `expectInitialLayout` is true.
    public init(_ hierarchy: HierarchyDescription, seed: UInt64 = 0, expectInitialLayout: Bool = false) async throws {
        self.seed = seed
        window = try await Window(hierarchy)
        await window.start()
        collect()
        if !expectInitialLayout { received.removeAll() }
    }

    /// A store over a scenario file's hierarchy (its steps are not run).
    public convenience init(scenarioJSON: String, file: String = "inline", seed: UInt64 = 0) async throws {
        let scenario = try ScenarioDecoder.decode(scenarioJSON, file: file)
        try await self.init(ScenarioRunner.hierarchy(of: scenario), seed: seed)
    }

    private func collect() {
        let new = recorder.events(after: consumed)
        consumed += new.count
        received += new
    }

    private var wholeTrace: [String] { recorder.canonicalLines }

    // MARK: Actions

    /// Performs one window event and collects what it caused. In exhaustive mode, events of the
    /// previous action that were not expected fail first.
    public func perform(_ event: WindowEvent) async throws {
        if exhaustivity == .on, !received.isEmpty {
            throw TestKitFailure(
                summary: "\(received.count) event(s) of the previous action were not expected before performing \(event) (seed \(seed)):",
                expected: [], actual: received.map(\.canonicalLine), trace: wholeTrace)
        }
        received.removeAll()
        try await window.perform(event)
        collect()
    }

    public func resizeWindow(to size: Size) async throws {
        try await perform(.environmentChange(size: size, traits: nil))
    }

    public func setTraits(_ traits: TraitCollection) async throws {
        try await perform(.environmentChange(size: nil, traits: traits))
    }

    /// One environment change carrying both, as a rotation does.
    public func transition(to setup: WindowSetup) async throws {
        try await perform(.environmentChange(size: setup.size, traits: setup.traits))
    }

    public func present(_ presented: ControllerID, from presenter: ControllerID, animated: Bool = true, style: ModalPresentationStyle? = nil) async throws {
        try await perform(.present(presented, from: presenter, animated: animated, style: style))
    }

    public func dismiss(_ controller: ControllerID, animated: Bool = true) async throws {
        try await perform(.dismiss(controller, animated: animated))
    }

    public func setPreferredContentSize(_ size: Size, of controller: ControllerID) async throws {
        try await perform(.setPreferredContentSize(controller, size))
    }

    public func show(_ controller: ControllerID, from sender: ControllerID) async throws {
        try await perform(.show(controller, from: sender))
    }

    // MARK: Expectations

    /// The received events must be exactly these lines, in order (in exhaustive mode all of them;
    /// otherwise these lines must appear in order among them). They are then consumed.
    public func expect(_ lines: [String]) throws {
        let actual = received.map(\.canonicalLine)
        switch exhaustivity {
        case .on:
            guard actual == lines else {
                throw TestKitFailure(summary: "the action's events differ from the expectation (seed \(seed)):",
                                     expected: lines, actual: actual, trace: wholeTrace)
            }
        case .off:
            var remaining = actual[...]
            for line in lines {
                guard let index = remaining.firstIndex(of: line) else {
                    throw TestKitFailure(summary: "expected line not found in order: \(line) (seed \(seed))",
                                         expected: lines, actual: actual, trace: wholeTrace)
                }
                remaining = remaining[(index + 1)...]
            }
        }
        received.removeAll()
    }

    /// Only events of these message kinds are compared (the kinds the lines use when nil), as a
    /// scenario's `expect` step does; the other received events are dropped.
    public func expect(_ lines: [String], kinds: Set<String>?) throws {
        let filter = kinds ?? Set(lines.compactMap(ExpectedLine.kind(of:)))
        let actual = received.filter { filter.contains($0.message.name) }.map(\.canonicalLine)
        guard actual == lines else {
            throw TestKitFailure(summary: "the action's \(filter.sorted().joined(separator: ", ")) events differ from the expectation (seed \(seed)):",
                                 expected: lines, actual: actual, trace: wholeTrace)
        }
        received.removeAll()
    }

    /// Drops the received events without checking them (the opt-out, one action at a time).
    public func skipReceivedEvents() {
        received.removeAll()
    }

    /// Ends the test: in exhaustive mode, events not expected fail.
    public func finish() throws {
        if exhaustivity == .on, !received.isEmpty {
            throw TestKitFailure(summary: "\(received.count) event(s) were never expected (seed \(seed)):",
                                 expected: [], actual: received.map(\.canonicalLine), trace: wholeTrace)
        }
    }

    /// A controller's actor, to inspect its state.
    public func controller(_ id: ControllerID) async throws -> Controller {
        try await window.controller(id)
    }
}
