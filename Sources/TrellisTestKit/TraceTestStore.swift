import TrellisModel
import TrellisRuntime
import TrellisTrace

/// Drives one window event by event and checks what it did, exhaustively by default: every
/// event an action causes must be asserted (TCA's `TestStore` applied to traces). Nothing waits
/// on time: an action returns when everything it caused is done.
///
/// A failed expectation is reported as an issue of the running test (Swift Testing or XCTest)
/// at the expectation's own line, and the test goes on. Events nobody asserted fail the test at
/// the next action, at `finish()`, or when the store goes away — at the line that created it.
///
/// ```swift
/// let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
///     ViewController("R") { ViewController("A"); ViewController("B") }
/// })
/// await store.resizeWindow(to: Size(568, 320))
/// store.expect([
///     "R viewWillTransition(to: 568x320)", …
/// ])
/// await store.finish()
/// ```
public final class TraceTestStore {
    /// The window under test, to inspect or to send events the helpers do not cover.
    public let window: Window
    /// Whether every event must be asserted (the default) or only those expected.
    public var exhaustivity: Exhaustivity = .on
    /// Events that happened and were not asserted yet.
    public private(set) var received: [TraceEvent] = []

    /// Whether events nobody asserted fail the test.
    public enum Exhaustivity: Sendable, Equatable {
        /// Every event must be asserted before the next action, at `finish()` and before the
        /// store goes away.
        case on
        /// Events not asserted are dropped silently, and `expect` checks that its lines appear
        /// in order among the action's events.
        case off
    }

    private var recorder: TraceRecorder { window.environment.recorder }
    private var consumed = 0
    /// Where the store was made: a store that goes away with events nobody asserted fails there.
    private let createdAt: ExpectationSite
    private var finished = false

    /// A store over a hierarchy built in Swift. The initial layout is taken as asserted unless
    /// `expectInitialLayout` is true.
    public init(
        _ hierarchy: HierarchyDescription, expectInitialLayout: Bool = false,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async throws {
        createdAt = ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column)
        window = try await Window(hierarchy)
        await window.start()
        collect()
        if !expectInitialLayout { received.removeAll() }
    }

    /// Events nobody asserted fail the test when the store goes away. Swift Testing takes the
    /// issue only while the test runs: a store that is a local of the test body goes away inside
    /// it; `await finish()` is the deterministic way to end.
    deinit {
        guard !finished else { return }
        collect()
        reportUnasserted("the store went away with", at: createdAt)
    }

    private func collect() {
        let new = recorder.events(after: consumed)
        consumed += new.count
        received += new
    }

    private var wholeTrace: [String] { recorder.canonicalLines }

    private func report(_ failure: TestKitFailure, at site: ExpectationSite) {
        TestKitIssue.record(failure.description, at: site)
    }

    /// In exhaustive mode, fails at `site` when events were not asserted; then drops them.
    private func reportUnasserted(_ context: String, at site: ExpectationSite) {
        defer { received.removeAll() }
        guard exhaustivity == .on, !received.isEmpty else { return }
        let lines = received.map(\.canonicalLine)
        report(TestKitFailure(
            summary: "\(context) \(lines.count) event(s) nobody asserted:",
            expected: [], actual: lines, trace: wholeTrace, paste: RecordedLines.expectCall(lines)), at: site)
    }

    // MARK: Actions

    /// Performs one window event and collects what it caused. In exhaustive mode, events of the
    /// previous action that were not asserted fail first, at this call. An event the window
    /// refuses (an unknown controller, say) fails here too.
    public func perform(
        _ event: WindowEvent,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        let site = ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column)
        collect()
        reportUnasserted("before performing \(event) there were", at: site)
        do {
            try await window.perform(event)
        } catch {
            TestKitIssue.record("the window refused \(event): \(error)", at: site)
        }
        collect()
    }

    // MARK: Expectations

    /// The received events must be exactly these lines, in order (with `exhaustivity` off: these
    /// lines must appear in order among them). They are consumed either way, so the next action
    /// starts clean. A mismatch is reported at this call with a diff and the actual lines as
    /// Swift to paste.
    public func expect(
        _ lines: [String],
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column)
        collect()
        let actual = received.map(\.canonicalLine)
        received.removeAll()
        switch exhaustivity {
        case .on:
            guard actual != lines else { return }
            report(TestKitFailure(
                summary: "the action's events differ from the expectation:",
                expected: lines, actual: actual, trace: wholeTrace, paste: RecordedLines.expectCall(actual)), at: site)
        case .off:
            guard let missing = Self.firstMissing(lines, inOrderIn: actual) else { return }
            report(TestKitFailure(
                summary: "expected line not found in order: \(missing)",
                expected: lines, actual: actual, trace: wholeTrace, paste: RecordedLines.expectCall(actual)), at: site)
        }
    }

    /// The first of `lines` that does not appear, in order, in `actual`; nil when all do.
    private static func firstMissing(_ lines: [String], inOrderIn actual: [String]) -> String? {
        var remaining = actual[...]
        for line in lines {
            guard let index = remaining.firstIndex(of: line) else { return line }
            remaining = remaining[(index + 1)...]
        }
        return nil
    }

    /// Only events of these message kinds are compared (the kinds the lines use when nil), as a
    /// scenario's `expect` step does; the other received events are dropped. A kind that is no
    /// message's name fails the test here (a typo would compare nothing).
    public func expect(
        _ lines: [String], kinds: Set<String>?,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        let site = ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column)
        collect()
        // A kind no event has would make the comparison hold whatever happened.
        for kind in (kinds ?? []).sorted() where !TraceMessage.eventNames.contains(kind) {
            let hint = NearestName.hint(kind, among: TraceMessage.eventNames)
            TestKitIssue.record("kinds: \"\(kind)\" is no message's name\(hint): no event would be compared for it", at: site)
        }
        let filter = kinds ?? ExpectedLine.kinds(of: lines)
        let actual = ExpectedLine.lines(of: received, kinds: filter)
        received.removeAll()
        guard actual != lines else { return }
        report(TestKitFailure(
            summary: "the action's \(filter.sorted().joined(separator: ", ")) events differ from the expectation:",
            expected: lines, actual: actual, trace: wholeTrace, paste: RecordedLines.expectCall(actual, arguments: ", kinds: " + Self.swiftSet(kinds))), at: site)
    }

    /// `kinds` as Swift source: `nil`, or a set literal in sorted order.
    private static func swiftSet(_ kinds: Set<String>?) -> String {
        guard let kinds else { return "nil" }
        return "[" + kinds.sorted().map(RecordedLines.swiftString).joined(separator: ", ") + "]"
    }

    /// Drops the received events without checking them (the opt-out, one action at a time).
    public func skipReceivedEvents() {
        collect()
        received.removeAll()
    }

    /// The events not asserted yet, as an `expect` call ready to paste (record mode, on demand).
    public var receivedAsSwift: String {
        collect()
        return RecordedLines.expectCall(received.map(\.canonicalLine))
    }

    /// Ends the test: in exhaustive mode, events nobody asserted fail here. The store reports
    /// nothing more when it goes away.
    public func finish(
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        collect()
        finished = true
        reportUnasserted("the test finished with", at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    // MARK: State

    /// A controller's actor, to inspect what the kit does not assert.
    public func controller(_ id: ControllerID) async throws -> Controller {
        try await window.controller(id)
    }

    /// A controller's state now (nil, with an issue at this call, when the window has no such
    /// controller).
    public func state(
        of id: ControllerID,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> ControllerSnapshot? {
        guard let controller = await window.managedController(id) else {
            TestKitIssue.record(
                "the window has no controller \(id)",
                at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
            return nil
        }
        return await controller.snapshot()
    }

    /// The fields `expected` sets must hold of the controller's state; a mismatch is reported at
    /// this call, field by field.
    public func expectState(
        of id: ControllerID, _ expected: ExpectedState,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async {
        guard let actual = await state(of: id, fileID: fileID, filePath: filePath, line: line, column: column) else { return }
        if let mismatch = expected.mismatch(against: actual, of: id) {
            TestKitIssue.record(mismatch, at: ExpectationSite(fileID: fileID, filePath: filePath, line: line, column: column))
        }
    }
}
