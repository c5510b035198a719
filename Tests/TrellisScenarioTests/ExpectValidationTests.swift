import Testing
import TrellisTestSupport
import TrellisModel
import TrellisScenario
import TrellisTrace

/// `validate` checks `expect` lines before anything runs: an unknown receiver or message name is
/// an error at its JSON path, as a typo in any other field is.
struct ExpectValidationTests {
    static func scenario(expect lines: [String], placement: String = "") -> String {
        let quoted = lines.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            { \(Phone.window), "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {}, "P": {} },
              \(placement)
              "steps": [ { "resizeWindow": [568, 320] },
                         { "expect": [\(quoted)] } ] }
            """
    }

    @Test func aMisspeltMessageIsRefusedWithAHint() throws {
        let error = try #require(Scenarios.rejection(Self.scenario(expect: ["R viewWillTransition(to: 568x320)", "R viewWillTransitoin(to: 568x320)"])))
        #expect(error.path == "$.steps[1].expect[1]")
        #expect(error.message == "unknown message \"viewWillTransitoin\" (did you mean \"viewWillTransition\"?)")
        #expect(error.line == 5)  // the expect line's own position
    }

    @Test func anUnknownReceiverIsRefused() throws {
        let error = try #require(Scenarios.rejection(Self.scenario(expect: ["X viewWillTransition(to: 568x320)"])))
        #expect(error.path == "$.steps[1].expect[0]")
        #expect(error.message.hasPrefix("unknown receiver \"X\""))
        let presented = try #require(Scenarios.rejection(Self.scenario(expect: ["pc:Q adaptivePresentationStyle -> none"])))
        #expect(presented.message.hasPrefix("unknown receiver \"pc:Q\""))
    }

    @Test func everyKindOfReceiverAndMessageIsAccepted() {
        let lines = ["R viewWillTransition(to: 568x320)", "A viewWillLayoutSubviews", "pc:P adaptivePresentationStyle -> none",
                     "wrap:P viewDidAppear", "P presentCompletion(P)", "node:main fault gone", "node:b fault gone",
                     "R warning something", "pc:P presentationTransitionWillBegin(animated: true)"]
        #expect(Scenarios.rejection(Self.scenario(expect: lines, placement: "\"placement\": { \"A\": \"b\" },")) == nil)
    }

    /// Every message an event can carry is a known name, so no valid `expect` line is refused.
    @Test func everyEventMessageNameIsKnown() {
        let id = ControllerID("X")
        var messages: [TraceMessage] = [
            .viewWillTransition(to: .zero), .sizeForChild(child: id, parent: .zero, answer: .zero), .willTransition(to: .unspecified),
            .traitCollectionDidChange(previous: .unspecified), .preferredContentSizeDidChange(child: id),
            .systemLayoutFittingSizeDidChange(child: id), .suppressed(message: "m", cut: []), .alongsideTransition(transition: 1),
            .transitionCompletion(transition: 1), .warning("w"), .error("e"), .fault("f"), .note("n"),
            .present(id, style: .formSheet, transitionStyle: .crossDissolve), .dismiss(id), .adaptivePresentationStyle(.fullScreen),
            .willPresentWithAdaptiveStyle(.none), .frameOfPresentedView(Rect(x: 1, y: 2, width: 3, height: 4)), .completion(action: "present", id), .completion(action: "dismiss", id),
            .show(id, detail: false), .show(id, detail: true), .push(id), .pop(id), .replaceDetail(id), .select(id, index: 0),
        ]
        messages += LayoutCallback.allCases.map { .layout($0) }
        messages += AppearanceCallback.allCases.map { .appearance($0) }
        messages += PresentationCallback.allCases.map { .presentationTransition($0, value: true) }
        for message in messages {
            #expect(TraceMessage.eventNames.contains(message.name), "\(message.name)")
            #expect(ExpectedLine.kind(of: "X " + message.canonicalText) == message.name)
        }
    }
}
