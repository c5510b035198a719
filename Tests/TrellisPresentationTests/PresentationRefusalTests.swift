import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

// SPEC R31: refusals are `error` lines on the receiver, state unchanged, no completion.
// CONFORMANCE 27.

@Suite("R31: Refused presentations")
struct PresentationRefusalTests {
    /// The lines of a refused step: exactly one error on the receiver.
    static func expectSingleError(_ lines: [String], on receiver: String) {
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("\(receiver) error ") == true, "\(lines)")
    }

    /// CONFORMANCE 27 — presenting a controller that is already presented. Two context
    /// definers so that the second presenter is free: C1 presents P, then C2 tries to.
    @Test func presentingAnAlreadyPresentedControllerIsAnError() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"] },
            "C1": { "kind": "view", "definesPresentationContext": true },
            "C2": { "kind": "view", "definesPresentationContext": true },
            "P":  { "kind": "view", "modalPresentationStyle": "currentContext" } },
          "steps": [
            { "present": "P", "from": "C1" },
            { "present": "P", "from": "C2" } ] }
        """)
        try await stage.perform(step: 1)
        #expect(await stage.node("C1")?.presented == "P")
        let before = await stage.window.structure
        try await stage.perform(step: 2)
        Self.expectSingleError(stage.lines(step: 2), on: "C2")
        #expect(await stage.window.structure == before)
        #expect(await stage.node("P")?.presenting == "C1")
        #expect(await stage.node("C2")?.presented == nil)
    }

    /// CONFORMANCE 27 — presenting a controller on itself.
    @Test func presentingAControllerOnItselfIsAnError() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "fullScreen" } },
          "steps": [ { "present": "P", "from": "P" } ] }
        """)
        let before = await stage.window.structure
        try await stage.perform(step: 1)
        Self.expectSingleError(stage.lines(step: 1), on: "P")
        #expect(await stage.window.structure == before)
        #expect(await stage.node("P")?.presenting == nil)
        #expect(await stage.node("P")?.presented == nil)
        #expect(await stage.node("R")?.presented == nil)
    }

    /// Style `none` is an adaptive delegate's answer, never a presentation's (Apple's
    /// `UIModalPresentationStyle.none`): asked of the controller or of the step, an error on the
    /// receiver, nothing presented; the same controller then presents with a style.
    @Test func presentingWithStyleNoneIsAnError() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "none" } },
          "steps": [ { "present": "P", "from": "R" }, { "present": "P", "from": "R", "style": "none" },
                     { "present": "P", "from": "R", "style": "formSheet" } ] }
        """)
        let before = await stage.window.structure
        for step in 1...2 {
            try await stage.perform(step: step)
            #expect(stage.lines(step: step) == ["R error presentation of P with style none: the specified modal presentation style "
                + "doesn't have a corresponding presentation controller"])
            #expect(await stage.window.structure == before)
        }
        try await stage.perform(step: 3)
        #expect(await stage.node("R")?.presented == "P")
    }

    static let childElsewhere = """
    { \(Phone.window), "root": "R",
      "controllers": {
        "R":  { "kind": "view", "children": ["C1", "C2"] },
        "C1": { "kind": "view" },
        "C2": { "kind": "view" } },
      "steps": [ { "present": "C2", "from": "C1" } ] }
    """

    /// CONFORMANCE 27 — a child elsewhere in the hierarchy: the scenario file is rejected
    /// before anything runs (SPEC §5, exit status 2), naming the step.
    @Test func presentingAChildElsewhereIsRejectedByScenarioValidation() throws {
        #expect(throws: ScenarioError.self) { try ScenarioDecoder.decode(Self.childElsewhere, file: "inline") }
        do {
            _ = try ScenarioDecoder.decode(Self.childElsewhere, file: "inline")
        } catch {
            #expect(error.file == "inline")
            #expect(error.path == "$.steps[0]")
            #expect(error.message.contains("C2"))
        }
    }

    /// CONFORMANCE 27 — the same request reaching the runtime directly: an error line on the
    /// receiver, the structure unchanged, no completion, C2 still R's child.
    @Test func presentingAChildElsewhereIsRefusedByTheRuntime() async throws {
        let stage = try await Stage("""
        { \(Phone.window), "root": "R",
          "controllers": {
            "R":  { "kind": "view", "children": ["C1", "C2"] },
            "C1": { "kind": "view" },
            "C2": { "kind": "view" } } }
        """)
        let before = await stage.window.structure
        let count = stage.window.environment.recorder.count
        try? await stage.window.perform(.present("C2", from: "C1", animated: true, style: .fullScreen))
        let produced = stage.window.environment.recorder.events(after: count).map(\.canonicalLine)
        Self.expectSingleError(produced, on: "C1")
        #expect(await stage.window.structure == before)
        #expect(await stage.node("C2")?.parent == "R")
        #expect(await stage.node("C2")?.presenting == nil)
        #expect(await stage.node("R")?.presented == nil)
        #expect(try await stage.controller("R").children == ["C1", "C2"])
        #expect(await stage.pc("C2") == nil)
    }

    /// SPEC R31 — a popover without a source in regular width.
    @Test("R31: popover without a source in regular width is an error")
    func popoverWithoutASourceInRegularWidthIsAnError() async throws {
        let stage = try await Stage("""
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "P": { "kind": "view", "modalPresentationStyle": "popover" } },
          "steps": [ { "present": "P", "from": "R" } ] }
        """)
        let before = await stage.window.structure
        try await stage.perform(step: 1)
        Self.expectSingleError(stage.lines(step: 1), on: "R")
        #expect(await stage.window.structure == before)
    }
}
