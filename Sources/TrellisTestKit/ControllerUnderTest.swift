import TrellisRuntime
import TrellisModel
import TrellisTrace

/// One controller and its behaviour, alone: its children, its container and its presentation
/// controller are probes that record what reaches them and do nothing else. Feed it one message
/// and read the report — no hierarchy, and nothing runs but the behaviour under test.
///
/// ```swift
/// let vc = await ControllerUnderTest("S", children: ["A", "B"], behavior: MySplit(), size: Size(1024, 768))
/// let report = await vc.viewWillTransition(to: Size(768, 1024))
/// #expect(report.forwardedSizes == ["A": Size(320, 1024), "B": Size(448, 1024)])
/// ```
public final class ControllerUnderTest: Sendable {
    /// The controller's actor, to read its state after a message.
    public let controller: Controller
    /// The controller's id.
    public let id: ControllerID
    let recorder: TraceRecorder
    let environment: RuntimeEnvironment
    let log: ProbeLog
    private let containerProbe: ProbeEndpoint
    /// The probe standing for the container (the parent, or the presentation controller).
    public static let containerID: ControllerID = "container"

    /// Builds the controller alone, with a probe in place of each child and of its container.
    ///
    /// - Parameters:
    ///   - id: the controller's id, as its trace lines name it.
    ///   - kind: the container it is (a plain `view` by default).
    ///   - children: its children, each a probe that records what reaches it.
    ///   - presenting: give the controller a presentation: a probe presentation controller
    ///     `pc:<presenting>` receives what the controller forwards to its presented chain.
    ///   - behavior: the code under test.
    ///   - grant: how it answers its children's preferred-content-size requests.
    ///   - traitOverrides: the trait overrides it sets on its children.
    ///   - preferredContentSize: its own preferred content size.
    ///   - size: where the controller starts, laid out (its children sized by its own
    ///     `size(forChild:)`); that initial layout is not part of any report.
    ///   - traits: the traits it starts with.
    public init(
        _ id: ControllerID = "subject",
        kind: ContainerKind = .view,
        children: [ControllerID] = [],
        presenting: ControllerID? = nil,
        behavior: any ViewControllerBehavior = DefaultBehavior(),
        grant: GrantPolicy = .none,
        traitOverrides: [ControllerID: TraitCollection] = [:],
        preferredContentSize: Size = .zero,
        size: Size,
        traits: TraitCollection = WindowSetup.iPhonePortrait.traits
    ) async {
        let recorder = TraceRecorder(node: "probe", runID: "controller-under-test")
        let environment = RuntimeEnvironment(recorder: recorder)
        environment.setWindow(size: size, traits: traits)
        let log = ProbeLog()
        let probes = children.map { ProbeEndpoint($0, recorder: recorder, log: log) }
        let presentationProbe = presenting.map { ProbeEndpoint(ControllerID.presentationController(of: $0), recorder: recorder, log: log) }
        let description = ControllerDescription(
            id, kind: kind, children: children, preferredContentSize: preferredContentSize,
            traitOverrides: traitOverrides, grant: grant, behavior: behavior)
        let controller = await Controller.standalone(
            description, children: probes, presentationController: presentationProbe, environment: environment)
        // The controller holds its container weakly, as a child does its parent: keep the probe.
        let containerProbe = ProbeEndpoint(Self.containerID, recorder: recorder, log: log)
        await controller.setContainer(containerProbe)
        self.containerProbe = containerProbe
        await controller.initialLayout(frame: Rect(size), traits: traits, cause: nil)
        self.controller = controller
        self.id = id
        self.recorder = recorder
        self.environment = environment
        self.log = log
        // What the initial layout did is not part of any report.
        self.callsAtStart = log.count
    }

    private let callsAtStart: Int

    private func run(
        windowSize: Size? = nil, windowTraits: TraitCollection? = nil, _ body: (TransitionInfo) async -> Void
    ) async -> ProbeReport {
        let eventsBefore = recorder.count
        let callsBefore = max(log.count, callsAtStart)
        let transition = environment.beginTransition(animated: true, windowSize: windowSize, windowTraits: windowTraits)
        await body(transition)
        await environment.finishTransition(transition, cause: nil)
        let events = recorder.events(after: eventsBefore)
        let calls = log.entries(from: callsBefore)
        return ProbeReport(
            subject: id, events: events, calls: calls, frames: await controller.childFrames, requests: environment.takeRequests().map(\.request))
    }

    /// A user action for the behaviour (SPEC §4.2): the report holds what `perform` requested
    /// (`requests`; nothing carries them out here) and, when it did not handle the action or
    /// refused its value, the warning or error a window would record.
    /// A value that is not JSON (an infinite or NaN number) fails the test at this call, and
    /// nothing is sent.
    public func action(
        _ name: String, value: ActionValue? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> ProbeReport {
        let site = ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column)
        if let refused = ProbeReport.refusing(action: name, value: value, on: id, at: site) { return refused }
        return await run { _ in
            let event = recorder.record(.action(name: name, value: value?.description ?? ""), controller: id, cause: nil)
            let outcome = await controller.perform(action: name, value: value, cause: event)
            if let message = outcome.message(action: name, on: id) { recorder.record(message, controller: id, cause: event) }
        }
    }

    /// Sends `viewWillTransition(to:)` and then the layout pass that applies the sizes.
    public func viewWillTransition(to size: Size) async -> ProbeReport {
        await run { transition in
            await controller.deliverViewWillTransition(to: size, transition: transition, cause: nil)
            await controller.layout(frame: Rect(origin: controller.origin, size), cause: nil)
        }
    }

    /// Sends a trait transition (`willTransition(to:with:)` if the traits change) and then
    /// applies the traits (`traitCollectionDidChange`).
    public func willTransition(to traits: TraitCollection) async -> ProbeReport {
        await run { transition in
            await controller.deliverTraitTransition(to: traits, deliver: true, transition: transition, cause: nil)
            await controller.applyPendingTraits(cause: nil)
        }
    }

    /// One transition carrying a new size and new traits, as a rotation does (R14): the trait
    /// pass (`willTransition(to:with:)`), then `viewWillTransition(to:)`, then the traits apply
    /// (`traitCollectionDidChange`) and the layout pass applies the sizes.
    public func transition(to size: Size, traits: TraitCollection) async -> ProbeReport {
        await run(windowSize: size, windowTraits: traits) { transition in
            await controller.deliverTraitTransition(to: traits, deliver: true, transition: transition, cause: nil)
            await controller.deliverViewWillTransition(to: size, transition: transition, cause: nil)
            await controller.applyPendingTraits(cause: nil)
            await controller.layout(frame: Rect(origin: controller.origin, size), cause: nil)
        }
    }

    /// A child's preferred content size changed: what does this container grant?
    public func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size) async -> ProbeReport {
        await run { _ in
            await controller.deliverPreferredContentSizeDidChange(forChild: child, preferredSize: preferredSize, cause: nil)
        }
    }

    /// This controller sets its own preferred content size: what reaches its container?
    public func setPreferredContentSize(_ size: Size) async -> ProbeReport {
        await run { _ in
            await controller.setPreferredContentSize(size, cause: nil)
        }
    }

    /// The frames the controller gives its children now (R60, R61), in its own coordinates:
    /// right after `init`, its first layout's — what its layout hooks set with
    /// `setFrame(_:ofChild:)`, else its `size(forChild:)` answers, taken without a query (R2a).
    public var childFrames: [ControllerID: Rect] {
        get async { await controller.childFrames }
    }

    /// The controller's state now.
    public var state: ControllerSnapshot {
        get async { await controller.snapshot() }
    }

    /// The fields `expected` sets must hold of the controller's state; a mismatch is reported at
    /// this call, field by field.
    public func expectState(
        _ expected: ExpectedState,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        if let mismatch = expected.mismatch(against: await state, of: id) {
            TestKitIssue.record(mismatch, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
}
