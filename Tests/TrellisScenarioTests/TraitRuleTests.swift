import Testing
import TrellisScenario
import TrellisTestSupport

/// SPEC §3.3, R13–R17 (R18 needs presentation and is not covered here).
@Suite("SPEC 3.3 trait transitions")
struct TraitRuleTests {
    static let tree = """
        "root": "R",
        "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1", "A2"] }, "A1": {}, "A2": {}, "B": {} }
        """

    @Test("R13: willTransition enters at the root and goes depth first, as viewWillTransition does; traitCollectionDidChange follows")
    func r13SameEntryAndOrder() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), \(Self.tree), "steps": [ { "setTraits": { "verticalSizeClass": "compact" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A1 willTransition(to: \(Phone.landscape))",
            "A2 willTransition(to: \(Phone.landscape))",
            "B willTransition(to: \(Phone.landscape))",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "A2 traitCollectionDidChange(previous: \(Phone.portrait))",
            "B traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
    }

    @Test("R13 + R8: a willTransition override without super cuts the messages below it; the traits still change, so traitCollectionDidChange still arrives")
    func r13SuppressionInTheMiddle() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] },
                               "A": { "children": ["A1"], "overrides": { "willTransition": "noSuper" } },
                               "A1": {}, "B": { "children": ["B1"] }, "B1": {} },
              "steps": [ { "setTraits": { "verticalSizeClass": "compact" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A suppressed willTransition (cut: A1)",
            "B willTransition(to: \(Phone.landscape))",
            "B1 willTransition(to: \(Phone.landscape))",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "B traitCollectionDidChange(previous: \(Phone.portrait))",
            "B1 traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
    }

    @Test("R13 + R8: a willTransition override without super at the root cuts every willTransition below it")
    func r13SuppressionAtTheRoot() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"], "overrides": { "willTransition": "noSuper" } },
                               "A": { "children": ["A1"] }, "A1": {}, "B": {} },
              "steps": [ { "setTraits": { "verticalSizeClass": "compact" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.landscape))",
            "R suppressed willTransition (cut: A, B)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "B traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
    }

    @Test("R13: a viewWillTransition override without super does not cut willTransition (each message has its own override)")
    func r13OverridesAreIndependent() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] },
                               "A": { "children": ["A1"], "overrides": { "viewWillTransition": "noSuper" } }, "A1": {} },
              "steps": [ { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A1 willTransition(to: \(Phone.landscape))",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A suppressed viewWillTransition (cut: A1)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
    }

    @Test("R14: one environment change = a willTransition pass, a viewWillTransition pass, a traitCollectionDidChange pass, then layout")
    func r14ThreePassesThenLayout() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1"] }, "A1": {}, "B": {} },
              "steps": [ { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
            """)
        #expect(trace[step: 1] == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A1 willTransition(to: \(Phone.landscape))",
            "B willTransition(to: \(Phone.landscape))",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "B traitCollectionDidChange(previous: \(Phone.portrait))",
        ] + Lines.layout("R", "A", "A1", "B"))
    }

    @Test("R16: an iPad rotation keeps regular/regular, so there are no trait messages at all (CONFORMANCE 10)")
    func r16NoTraitChangeNoTraitMessages() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "transition": { "size": [768, 1024],
                                           "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular" } } } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 768x1024)",
            "R sizeForChild(A, parent: 768x1024) -> 768x1024",
            "A viewWillTransition(to: 768x1024)",
        ] + Lines.layout("R", "A"))
    }

    @Test("R16: setting traits the window already has is no change: nothing is delivered")
    func r16SameTraitsNothing() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), \(Self.tree),
              "steps": [ { "setTraits": { "verticalSizeClass": "regular", "userInterfaceIdiom": "phone" } } ] }
            """)
        #expect(trace[step: 1] == [])
    }

    @Test("R17 + hidden children: an override set on a tab the tab bar controller does not show sends it nothing; it takes the traits, with traitCollectionDidChange, when it is selected")
    func r17OverrideOfAHiddenChildWaitsUntilItIsShown() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "T",
              "controllers": { "T": { "kind": "tab", "children": ["A", "N"], "traitOverrides": { "N": { "horizontalSizeClass": "compact" } } },
                               "A": {}, "N": { "kind": "navigation", "children": ["B"] }, "B": {} },
              "steps": [ { "setTraitOverride": { "container": "T", "child": "N", "traits": null } },
                         { "select": "T", "index": 1 } ] }
            """)
        #expect(trace.messages(step: 1) == [])
        #expect(trace.messages(step: 2).filter { $0.contains("traitCollectionDidChange") || $0.contains("willTransition") } == [
            "N traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=2)",
            "B traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=2)",
        ])
    }

    @Test("R17: a trait override of a controller an earlier step pushed is accepted and sent to it")
    func overrideOfAPushedController() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["A"] }, "A": {}, "W": {} },
              "steps": [ { "push": "W", "onto": "N" },
                         { "setTraitOverride": { "container": "N", "child": "W", "traits": { "userInterfaceStyle": "dark" } } } ] }
            """)
        #expect(trace.headers.last == "== step 2: setTraitOverride N child W style=dark")
        #expect(trace.messages(step: 2).first?.hasPrefix("W willTransition(to: ") == true, "\(trace.messages(step: 2))")
    }

    @Test("R16 + R17: an overridden size class hides the window's change: Y and its subtree get nothing; a non-overridden axis still reaches them; removing the override delivers the change (CONFORMANCE 11)")
    func r17OverrideHidesAChange() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "X",
              "controllers": { "X": { "children": ["Y"], "traitOverrides": { "Y": { "horizontalSizeClass": "regular" } } },
                               "Y": { "children": ["Z"] }, "Z": {} },
              "steps": [ { "setTraits": { "horizontalSizeClass": "compact" } },
                         { "setTraits": { "displayScale": 3 } },
                         { "setTraitOverride": { "container": "X", "child": "Y", "traits": null } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "X willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "X traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
        ])
        #expect(trace.messages(step: 2) == [
            "X willTransition(to: h=compact v=regular idiom=pad scale=3)",
            "Y willTransition(to: h=regular v=regular idiom=pad scale=3)",
            "Z willTransition(to: h=regular v=regular idiom=pad scale=3)",
            "X traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=2)",
            "Y traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
            "Z traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
        ])
        #expect(trace.headers.last == "== step 3: setTraitOverride X child Y removed")
        #expect(trace.messages(step: 3) == [
            "Y willTransition(to: h=compact v=regular idiom=pad scale=3)",
            "Z willTransition(to: h=compact v=regular idiom=pad scale=3)",
            "Y traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=3)",
            "Z traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=3)",
        ])
    }

    @Test("R17: effective traits merge the parent's effective traits with the parent's override, axis by axis, level by level")
    func r17AxisByAxisMerge() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "X",
              "controllers": { "X": { "children": ["Y"], "traitOverrides": { "Y": { "horizontalSizeClass": "compact" } } },
                               "Y": { "children": ["Z"], "traitOverrides": { "Z": { "displayScale": 3 } } },
                               "Z": {} },
              "steps": [ { "setTraits": { "verticalSizeClass": "compact" } },
                         { "setTraits": { "horizontalSizeClass": "compact" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "X willTransition(to: h=regular v=compact idiom=pad scale=2)",
            "Y willTransition(to: h=compact v=compact idiom=pad scale=2)",
            "Z willTransition(to: h=compact v=compact idiom=pad scale=3)",
            "X traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
            "Y traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=2)",
            "Z traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=3)",
        ])
        // Y's width is overridden to compact already: only X changes.
        #expect(trace.messages(step: 2) == [
            "X willTransition(to: h=compact v=compact idiom=pad scale=2)",
            "X traitCollectionDidChange(previous: h=regular v=compact idiom=pad scale=2)",
        ])
    }

    @Test("R17: setting an override replaces the previous one, and only the child's subtree hears of it")
    func r17SetOverrideReplaces() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "X",
              "controllers": { "X": { "children": ["Y"] },
                               "Y": { "children": ["Z", "W"], "traitOverrides": { "Z": { "displayScale": 3 } } },
                               "Z": {}, "W": {} },
              "steps": [ { "setTraitOverride": { "container": "Y", "child": "Z", "traits": { "horizontalSizeClass": "compact" } } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "Z willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "Z traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=3)",
        ])
    }

    @Test("R9 + R13: a willTransition override may forward to a chosen child; the others still change traits silently and get traitCollectionDidChange in children order")
    func r13ManualTraitForwarding() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] },
                               "A": { "children": ["A1", "A2"], "overrides": { "willTransition": { "forwardTo": ["A2"] } } },
                               "A1": {}, "A2": {} },
              "steps": [ { "setTraits": { "verticalSizeClass": "compact" } } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A2 willTransition(to: \(Phone.landscape))",
            "A suppressed willTransition (cut: A1)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "A2 traitCollectionDidChange(previous: \(Phone.portrait))",
        ])
    }

    @Test("R16 + R17: an override that leaves the child's effective traits as they are delivers nothing")
    func r17NoOpOverride() async throws {
        let trace = try await Scenarios.run("""
            { \(Pad.window), "root": "X",
              "controllers": { "X": { "children": ["Y"] }, "Y": { "children": ["Z"] }, "Z": {} },
              "steps": [ { "setTraitOverride": { "container": "X", "child": "Y", "traits": { "horizontalSizeClass": "regular" } } } ] }
            """)
        #expect(trace[step: 1] == [])
    }
}
