@_spi(Testing) import TrellisRuntime
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
    public let id: ControllerID
    let recorder: TraceRecorder
    let environment: RuntimeEnvironment
    let log: ProbeLog
    private let containerProbe: ProbeEndpoint
    /// The probe standing for the container (the parent, or the presentation controller).
    public static let containerID: ControllerID = "container"

    /// - Parameters:
    ///   - presenting: give the controller a presentation: a probe presentation controller
    ///     `pc:<presenting>` receives what the controller forwards to its presented chain.
    ///   - size, traits: where the controller starts, laid out (its children sized by its own
    ///     `size(forChild:)`); that initial layout is not part of any report.
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

    private func run(_ body: (TransitionInfo) async -> Void) async -> ProbeReport {
        let eventsBefore = recorder.count
        let callsBefore = max(log.count, callsAtStart)
        let transition = environment.beginTransition(animated: true)
        await body(transition)
        environment.finishTransition(transition, cause: nil)
        let events = recorder.events(after: eventsBefore)
        let calls = log.entries(from: callsBefore)
        return ProbeReport(subject: id, events: events, calls: calls)
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
}

/// What one message made the controller under test do.
public struct ProbeReport: Sendable {
    public let subject: ControllerID
    /// Every trace event, the probes' receipts included.
    public let events: [TraceEvent]
    /// What reached each probe, in order.
    public let calls: [(probe: ControllerID, call: ProbeCall)]

    init(subject: ControllerID, events: [TraceEvent], calls: [(ControllerID, ProbeCall)]) {
        self.subject = subject
        self.events = events
        self.calls = calls.map { (probe: $0.0, call: $0.1) }
    }

    /// Canonical lines of every event.
    public var lines: [String] { events.map(\.canonicalLine) }

    /// `viewWillTransition` sizes the children (and `pc:` probe) received, in order.
    public var forwarded: [(to: ControllerID, size: Size)] {
        calls.compactMap { entry in
            if case let .viewWillTransition(size) = entry.call { return (entry.probe, size) }
            return nil
        }
    }

    /// The same as a dictionary (a child messaged twice keeps its last size).
    public var forwardedSizes: [ControllerID: Size] {
        Dictionary(forwarded.map { ($0.to, $0.size) }, uniquingKeysWith: { _, last in last })
    }

    /// Who received `willTransition` (traits delivered, not merely carried below a suppression).
    public var traitsDelivered: [ControllerID: TraitCollection] {
        Dictionary(calls.compactMap { entry -> (ControllerID, TraitCollection)? in
            if case let .traitTransition(traits, true) = entry.call { return (entry.probe, traits) }
            return nil
        }, uniquingKeysWith: { _, last in last })
    }

    /// The `size(forChild:)` queries the controller asked itself, with their answers.
    public var queries: [(child: ControllerID, parent: Size, answer: Size)] {
        events.compactMap { event in
            if case let .sizeForChild(child, parent, answer) = event.message { return (child, parent, answer) }
            return nil
        }
    }

    /// The targets cut off when the behaviour did not call super (nil: it called super).
    public var suppressed: [ControllerID]? {
        for event in events where event.controller == subject {
            if case let .suppressed(_, cut) = event.message { return cut }
        }
        return nil
    }

    /// What the controller asked of its container (preferred-size and fitting-size changes).
    public var askedOfContainer: [ProbeCall] {
        calls.filter { $0.probe == ControllerUnderTest.containerID }.map(\.call)
    }

    /// The `note` lines the behaviour wrote.
    public var notes: [String] {
        events.compactMap { event in
            if case let .note(text) = event.message { return text }
            return nil
        }
    }
}
