import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport

/// SPEC §3.4, R22–R27, with plain containers (presentation controllers are separate work).
@Suite("SPEC 3.4 preferred content size")
struct PreferredSizeRuleTests {
    /// R{N{V{V1}}} on the phone; N's grant policy is `grant` (JSON), absent for the default.
    static func tree(grant: String?) -> String {
        let overrides = grant.map { #", "overrides": { "grant": \#($0) }"# } ?? ""
        return """
            \(Phone.window), "root": "R",
            "controllers": { "R": { "children": ["N"] }, "N": { "children": ["V"]\(overrides) },
                             "V": { "children": ["V1"] }, "V1": {} }
            """
    }

    @Test("R22 + R24 default: V's new preferredContentSize goes to its parent N only; a plain container grants nothing")
    func r22ExactlyOneLevelUp() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: nil)),
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } } ] }
            """)
        #expect(trace.headers == ["== step 1: setPreferredContentSize V 200x300"])
        #expect(trace[step: 1] == ["N preferredContentSizeDidChange(forChild: V)"])
    }

    @Test("R22: setting the same preferredContentSize again is no change and sends nothing")
    func r22SameValueSendsNothing() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: nil)),
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } },
                         { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } } ] }
            """)
        #expect(trace[step: 1] == ["N preferredContentSizeDidChange(forChild: V)"])
        #expect(trace[step: 2] == [])
    }

    @Test("R22: the container's own preferredContentSize goes one more level, only when the container itself sets it")
    func r22ContainerOwnChange() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: #""all""#)),
              "steps": [ { "setPreferredContentSize": { "controller": "N", "size": [300, 300] } } ] }
            """)
        #expect(trace[step: 1] == ["R preferredContentSizeDidChange(forChild: N)"])
    }

    @Test("R22: the window's root has no container, so its preferredContentSize goes nowhere")
    func r22RootHasNoContainer() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: nil)),
              "steps": [ { "setPreferredContentSize": { "controller": "R", "size": [100, 100] } } ] }
            """)
        #expect(trace[step: 1] == [])
    }

    struct GrantCase: Sendable, CustomTestStringConvertible {
        var grant: String
        var granted: String
        var testDescription: String { "grant \(grant) -> \(granted)" }
    }

    @Test("R24 + R25: the container grants by its policy, sends the granted size as a viewWillTransition receipt that the child forwards down, then lays it out",
          arguments: [
              GrantCase(grant: #""all""#, granted: "200x300"),
              GrantCase(grant: #"{ "clamp": [250, 250] }"#, granted: "200x250"),
              GrantCase(grant: #"{ "fraction": 0.5 }"#, granted: "260x434"),
              GrantCase(grant: #"{ "fraction": 0.25 }"#, granted: "290x501"),
          ])
    func r24GrantPolicies(_ grantCase: GrantCase) async throws {
        // V is 320x568 and asks for 200x300.
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: grantCase.grant)),
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } } ] }
            """)
        let granted = grantCase.granted
        #expect(trace[step: 1] == [
            "N preferredContentSizeDidChange(forChild: V)",
            "V viewWillTransition(to: \(granted))",
            "V sizeForChild(V1, parent: \(granted)) -> \(granted)",
            "V1 viewWillTransition(to: \(granted))",
        ] + Lines.layout("N", "V", "V1"))
    }

    @Test("R24: grant none ignores the request: no receipt, no layout")
    func r24GrantNone() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: #""none""#)),
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } } ] }
            """)
        #expect(trace[step: 1] == ["N preferredContentSizeDidChange(forChild: V)"])
    }

    @Test("R25: no receipt when the granted size is the child's current size", arguments: [
        #""all""#, #"{ "clamp": [320, 568] }"#,
    ])
    func r25NoReceiptWithoutChange(grant: String) async throws {
        // "all" of 320x568 is V's size already; the clamp cuts 400x600 down to V's size.
        let requested = grant == #""all""# ? "[320, 568]" : "[400, 600]"
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: grant)),
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": \(requested) } } ] }
            """)
        #expect(trace[step: 1] == ["N preferredContentSizeDidChange(forChild: V)"])
    }

    @Test("R25 + R8: the receipt is an ordinary viewWillTransition: a child that skips super keeps it from its own children")
    func r25ReceiptCanBeSuppressed() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["N"] }, "N": { "children": ["V"], "overrides": { "grant": "all" } },
                               "V": { "children": ["V1"], "overrides": { "viewWillTransition": "noSuper" } }, "V1": {} },
              "steps": [ { "setPreferredContentSize": { "controller": "V", "size": [200, 300] } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "N preferredContentSizeDidChange(forChild: V)",
            "V viewWillTransition(to: 200x300)",
            "V suppressed viewWillTransition (cut: V1)",
        ])
    }

    @Test("R25 + R26: after a partial grant the child has the granted size and still prefers the requested one (CONFORMANCE 13)")
    func r26PreferredSizeKeepsTheRequest() async throws {
        let scenario = try ScenarioDecoder.decode("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["C"] },
                               "C": { "children": ["P"],
                                      "overrides": { "sizeForChild": { "perChild": { "P": [300, 400] } }, "grant": { "fraction": 0.5 } } },
                               "P": { "children": ["P1"] }, "P1": {} } }
            """, file: "inline.json")
        let window = try await Window(ScenarioRunner.hierarchy(of: scenario))
        await window.start()
        let p = try await window.controller("P")
        #expect(await p.size == Size(300, 400))
        let before = window.environment.recorder.count
        try await window.perform(.setPreferredContentSize("P", Size(300, 500)))
        #expect(window.environment.recorder.events(after: before).map(\.canonicalLine) == [
            "C preferredContentSizeDidChange(forChild: P)",
            "P viewWillTransition(to: 300x450)",
            "P sizeForChild(P1, parent: 300x450) -> 300x450",
            "P1 viewWillTransition(to: 300x450)",
        ] + Lines.layout("C", "P", "P1"))
        #expect(await p.preferredContentSize == Size(300, 500))
        #expect(await p.size == Size(300, 450))
        let c = try await window.controller("C")
        let p1 = try await window.controller("P1")
        #expect(await c.childFrames["P"]?.size == Size(300, 450))
        #expect(await p1.size == Size(300, 450))
    }

    @Test("R27: systemLayoutFittingSizeDidChange also goes exactly one level up")
    func r27FittingSizeOneLevel() async throws {
        let trace = try await Scenarios.run("""
            { \(Self.tree(grant: #""all""#)),
              "steps": [ { "systemLayoutFittingSizeDidChange": "V" }, { "systemLayoutFittingSizeDidChange": "N" } ] }
            """)
        #expect(trace[step: 1] == ["N systemLayoutFittingSizeDidChange(forChild: V)"])
        #expect(trace[step: 2] == ["R systemLayoutFittingSizeDidChange(forChild: N)"])
    }
}
