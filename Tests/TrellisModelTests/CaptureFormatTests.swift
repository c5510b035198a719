import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

@Suite("JSON Lines capture format (SPEC §6)")
struct CaptureFormatTests {
    static let traits = TraitCollection(
        horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2,
        layoutDirection: .rightToLeft, userInterfaceStyle: .dark, preferredContentSizeCategory: .accessibilityLarge)

    static let messages: [TraceMessage] = [
        .step(number: 4, description: "transition 568x320 v=compact"),
        .viewWillTransition(to: Size(568, 320)),
        .sizeForChild(child: "A", parent: Size(568, 320), answer: Size(170.4, 160)),
        .willTransition(to: traits),
        .traitCollectionDidChange(previous: TraitCollection(displayScale: 1.5)),
        .preferredContentSizeDidChange(child: "P"),
        .systemLayoutFittingSizeDidChange(child: "V"),
        .suppressed(message: "viewWillTransition", cut: ["A1", "pc:P"]),
        .suppressed(message: "willTransition", cut: []),
        .alongsideTransition(transition: 3),
        .transitionCompletion(transition: 3),
        .warning("Attempt to present X on R (from C1) which is already presenting Q"),
        .error("line one\nline two"),
        .fault("peer \"b\" gone"),
        .note("tab\there, backslash \\, unicode é 😀, control \u{01}"),
        .frameOfPresentedView(Rect(x: 682.667, y: 0, width: 341.333, height: 768)),
        .layout(.viewWillLayoutSubviews, frame: Rect(x: 512, y: -0.5, width: 512, height: 768)),
        .layout(.containerViewDidLayoutSubviews, frame: Rect(x: 0, y: 0, width: 1024, height: 768)),
    ] + LayoutCallback.allCases.map { .layout($0) }

    static func event(_ message: TraceMessage, sequence: UInt64) -> TraceEvent {
        TraceEvent(
            id: EventRef(node: "main", sequence: sequence), lamport: sequence + 10,
            cause: sequence.isMultiple(of: 2) ? EventRef(node: "node#b", sequence: sequence - 1) : nil,
            controller: sequence.isMultiple(of: 3) ? "pc:P" : "R", transition: sequence.isMultiple(of: 2) ? 7 : nil,
            step: 2, message: message, time: 1_234_567 + sequence)
    }

    static func readError(_ line: String) -> TraceCaptureFormat.ReadError? {
        do {
            _ = try TraceCaptureFormat.event(fromLine: line)
            return nil
        } catch {
            return error
        }
    }

    @Test("every kind of event survives line(for:) then event(fromLine:), on one line")
    func roundTrip() throws {
        for (index, message) in Self.messages.enumerated() {
            let event = Self.event(message, sequence: UInt64(index + 1))
            let line = TraceCaptureFormat.line(for: event, runID: "run \"one\"")
            #expect(!line.contains("\n"), "\(line)")
            let decoded = try TraceCaptureFormat.event(fromLine: line)
            #expect(decoded.event == event)
            #expect(decoded.runID == "run \"one\"")
            #expect(decoded.event.canonicalLine == event.canonicalLine)
        }
    }

    @Test("a line of a newer minor version with unknown fields is read, ignoring them")
    func newerMinorVersion() throws {
        let event = Self.event(.viewWillTransition(to: Size(568, 320)), sequence: 2)
        let line = TraceCaptureFormat.line(for: event, runID: "r")
        #expect(line.hasPrefix(#"{"v":"1.0","#))
        let newer = line
            .replacing(#"{"v":"1.0","#, with: #"{"v":"1.9","shard":{"id":[1,2,{"x":null}]},"#)
            .replacing(#""payload":{"to":[568,320]}"#, with: #""payload":{"to":[568,320],"easing":"linear"}"#)
            .dropLast() + #","extra":true}"#
        #expect(newer != line)
        let decoded = try TraceCaptureFormat.event(fromLine: String(newer))
        #expect(decoded.event == event)
    }

    @Test("a line of another major version is rejected with a clear message", arguments: ["2.0", "0.9", "10.1"])
    func otherMajorVersion(_ version: String) throws {
        let line = TraceCaptureFormat.line(for: Self.event(.note("x"), sequence: 1), runID: "r")
            .replacing(#"{"v":"1.0","#, with: #"{"v":"\#(version)","#)
        let error = try #require(Self.readError(line), "version \(version) accepted")
        #expect(error.message.contains("major version"))
        #expect(error.message.contains(String(version.prefix { $0 != "." })))
    }

    @Test("malformed lines are rejected, not trapped on", arguments: [
        "", "not json", "[]", #"{"v":"1"}"#, #"{"v":1.0}"#,
        #"{"v":"1.0","run":"r","node":"main","seq":-1,"lamport":1,"cause":null,"controller":"R","transition":null,"step":0,"kind":"note","message":"note","payload":{"text":"x"},"time":0}"#,
        #"{"v":"1.0","run":"r","node":"main","seq":1,"lamport":1,"cause":"nohash","controller":"R","transition":null,"step":0,"kind":"note","message":"note","payload":{"text":"x"},"time":0}"#,
        #"{"v":"1.0","run":"r","node":"main","seq":1,"lamport":1,"cause":null,"controller":"R","transition":null,"step":0,"kind":"note","message":"teleport","payload":{},"time":0}"#,
        #"{"v":"1.0","run":"r","node":"main","seq":1,"lamport":1,"cause":null,"controller":"R","transition":null,"step":0,"kind":"delivery","message":"viewWillTransition","payload":{"to":[1]},"time":0}"#,
    ])
    func malformed(_ line: String) {
        #expect(throws: TraceCaptureFormat.ReadError.self) {
            try TraceCaptureFormat.event(fromLine: line)
        }
    }

    @Test("a missing field is named")
    func missingField() throws {
        let line = #"{"v":"1.0","run":"r","node":"main","lamport":1,"cause":null,"controller":"R","transition":null,"step":0,"kind":"note","message":"note","payload":{"text":"x"},"time":0}"#
        let error = try #require(Self.readError(line), "accepted a line without seq")
        #expect(error.message.contains("seq"))
    }
}
