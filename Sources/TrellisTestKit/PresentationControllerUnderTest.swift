import TrellisRuntime
import TrellisModel
import TrellisTrace

/// One presentation controller and its behaviour, alone: the presented controller is a probe.
/// Feed it a size or trait transition, or a preferred-size request, and read the report.
///
/// ```swift
/// let pc = await PresentationControllerUnderTest(
///     style: .custom, description: PresentationControllerDescription(behavior: OneThirdSidebar()),
///     containerSize: Size(1024, 768))
/// let report = await pc.viewWillTransition(to: Size(768, 1024))
/// #expect(report.forwardedSizes == ["P": Size(256, 1024)])
/// ```
public final class PresentationControllerUnderTest: Sendable {
    /// The presentation controller's actor, to read its state after a message.
    public let presentationController: PresentationController
    /// The probe standing for the presented controller.
    public let presentedID: ControllerID
    let recorder: TraceRecorder
    let environment: RuntimeEnvironment
    let log: ProbeLog
    private let callsAtStart: Int

    /// The presentation starts in place: the presented probe already sized by the controller's
    /// `size(forPresented:)` for `containerSize`; that is not part of any report.
    public init(
        presented: ControllerID = "P",
        style: ModalPresentationStyle,
        description: PresentationControllerDescription = PresentationControllerDescription(),
        delegate: (any AdaptivePresentationDelegate)? = nil,
        profile: AdaptationProfile = .ios8,
        containerSize: Size,
        windowSize: Size? = nil,
        traits: TraitCollection = WindowSetup.iPadLandscape.traits,
        presentedPreferredContentSize: Size = .zero
    ) async {
        let recorder = TraceRecorder(node: "probe", runID: "presentation-controller-under-test")
        let environment = RuntimeEnvironment(recorder: recorder)
        environment.setWindow(size: windowSize ?? containerSize, traits: traits)
        let log = ProbeLog()
        let probe = ProbeEndpoint(presented, recorder: recorder, log: log)
        let controller = PresentationController(
            presented: probe, style: style, description: description, delegate: delegate, profile: profile,
            containerSize: containerSize, traits: traits, windowSize: windowSize ?? containerSize,
            preferredContentSize: presentedPreferredContentSize, environment: environment,
            wrapperChanged: { _, _ in })
        await controller.adaptForPresentation(cause: nil)
        await controller.prepareDisplayed()
        await controller.initialPresentationLayout(cause: nil)
        presentationController = controller
        presentedID = presented
        self.recorder = recorder
        self.environment = environment
        self.log = log
        callsAtStart = log.count
        startEvents = recorder.count
    }

    private let startEvents: Int

    private func run(windowSize: Size? = nil, windowTraits: TraitCollection? = nil, _ body: (TransitionInfo) async -> Void) async -> ProbeReport {
        let eventsBefore = max(recorder.count, startEvents)
        let callsBefore = max(log.count, callsAtStart)
        let transition = environment.beginTransition(animated: true, windowSize: windowSize, windowTraits: windowTraits)
        await body(transition)
        await environment.finishTransition(transition, cause: nil)
        return ProbeReport(
            subject: presentationController.id, events: recorder.events(after: eventsBefore), calls: log.entries(from: callsBefore),
            frames: [await presentationController.displayedID: await presentationController.presentedViewFrame],
            requests: environment.takeRequests().map(\.request))
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
        if let refused = ProbeReport.refusing(action: name, value: value, on: presentationController.id, at: site) { return refused }
        return await run { _ in
            let event = recorder.record(.action(name: name, value: value?.description ?? ""), controller: presentationController.id, cause: nil)
            let outcome = await presentationController.perform(action: name, value: value, cause: event)
            if let message = outcome.message(action: name, on: presentationController.id) {
                recorder.record(message, controller: presentationController.id, cause: event)
            }
        }
    }

    /// The presenter's new size arrives (R6); `windowSize` is where the window goes (default: the same size).
    public func viewWillTransition(to size: Size, windowSize: Size? = nil) async -> ProbeReport {
        await run(windowSize: windowSize ?? size) { transition in
            await presentationController.deliverViewWillTransition(to: size, transition: transition, cause: nil)
            await presentationController.layout(frame: Rect(size), cause: nil)
        }
    }

    /// The environment's traits change (R18, R48): adaptation, then the traits are applied.
    public func willTransition(to traits: TraitCollection) async -> ProbeReport {
        await run(windowTraits: traits) { transition in
            await presentationController.deliverTraitTransition(to: traits, deliver: true, transition: transition, cause: nil)
            await presentationController.applyPendingTraits(cause: nil)
        }
    }

    /// One transition carrying the presenter's new size and new traits, as a rotation does
    /// (R14): the trait pass and its adaptation, the size pass, then the traits apply and the
    /// layout pass runs. `windowSize` is where the window goes (default: the same size).
    public func transition(to size: Size, traits: TraitCollection, windowSize: Size? = nil) async -> ProbeReport {
        await run(windowSize: windowSize ?? size, windowTraits: traits) { transition in
            await presentationController.deliverTraitTransition(to: traits, deliver: true, transition: transition, cause: nil)
            await presentationController.deliverViewWillTransition(to: size, transition: transition, cause: nil)
            await presentationController.applyPendingTraits(cause: nil)
            await presentationController.layout(frame: Rect(size), cause: nil)
        }
    }

    /// The presented controller asks for a new preferred content size (R22–R25).
    public func preferredContentSizeDidChange(_ preferredSize: Size) async -> ProbeReport {
        await run { _ in
            await presentationController.deliverPreferredContentSizeDidChange(forChild: presentedID, preferredSize: preferredSize, cause: nil)
        }
    }
}
