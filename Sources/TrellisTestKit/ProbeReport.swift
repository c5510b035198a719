import TrellisModel
import TrellisRuntime
import TrellisTrace

/// What one message made the controller under test do.
public struct ProbeReport: Sendable {
    /// The controller under test.
    public let subject: ControllerID
    /// Every trace event, the probes' receipts included.
    public let events: [TraceEvent]
    /// What reached each probe, in order.
    public let calls: [(probe: ControllerID, call: ProbeCall)]
    /// The frames the controller under test gives after the message (R60–R63): its children's,
    /// in its coordinates, or the presented view's, in the container view's.
    public let frames: [ControllerID: Rect]
    /// What the behaviour asked its context to do (SPEC §4.2), in order. A window would carry
    /// them out after the message; a single controller has none, so they are only reported.
    public let requests: [BehaviorRequest]

    init(
        subject: ControllerID, events: [TraceEvent], calls: [(ControllerID, ProbeCall)], frames: [ControllerID: Rect],
        requests: [BehaviorRequest] = []
    ) {
        self.requests = requests
        self.subject = subject
        self.events = events
        self.calls = calls.map { (probe: $0.0, call: $0.1) }
        self.frames = frames
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

    /// The lines must be exactly `expected`, in order; a mismatch is reported at this call with
    /// a diff and the actual lines as Swift to paste.
    public func expect(
        lines expected: [String],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let actual = lines
        guard actual != expected else { return }
        let failure = TestKitFailure(
            summary: "the message's lines differ from the expectation:", expected: expected, actual: actual, trace: [],
            paste: RecordedLines.expectCall(actual, receiver: "report", label: "lines: "))
        TestKitIssue.record(failure.description, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

extension ProbeReport {
    /// An action for a single controller's behaviour whose value is not one (an infinite or NaN
    /// number: `WindowEvent.valueProblem`, as a window refuses it), reported at `site`: an empty
    /// report, nothing sent; nil when the value is fine.
    static func refusing(action name: String, value: ActionValue?, on subject: ControllerID, at site: ExpectationSite) -> ProbeReport? {
        guard let problem = WindowEvent.action(name, on: subject, value: value).valueProblem else { return nil }
        TestKitIssue.record(problem, at: site)
        return ProbeReport(subject: subject, events: [], calls: [], frames: [:])
    }
}
