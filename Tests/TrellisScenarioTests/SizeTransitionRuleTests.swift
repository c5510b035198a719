import Testing
import TrellisScenario
import TrellisTestSupport

/// SPEC §3.1, R1–R10, each as an inline scenario and the canonical lines SPEC implies.
/// (R11, code after super, needs a Swift behaviour: see TrellisRuntimeTests.)
@Suite("SPEC 3.1 size transitions")
struct SizeTransitionRuleTests {
    @Test("R1: a window size change enters at the window's root with the window's new size")
    func r1WindowResizeEntersAtRoot() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A"))
    }

    @Test("R1: the root gets the window's size whatever the root's own sizeForChild answers")
    func r1RootIgnoresItsOwnSizeRule() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"], "overrides": { "sizeForChild": { "fixed": [10, 10] } } }, "A": {} },
              "steps": [ { "resizeWindow": [400, 300] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 400x300)",
            "R sizeForChild(A, parent: 400x300) -> 10x10",
        ])
    }

    @Test("R1: resizing the window to its current size is no transition at all")
    func r1SameSizeIsNoTransition() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [320, 568] } ] }
            """)
        #expect(trace.headers == ["== step 1: resizeWindow 320x568"])
        #expect(trace[step: 1] == [])
    }

    @Test("R2: each child's sizeForChild is asked right before it is messaged, and its whole subtree runs before the next child")
    func r2OneChildAtATime() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1", "A2"] },
                               "A1": {}, "A2": {}, "B": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "A sizeForChild(A2, parent: 568x320) -> 568x320",
            "A2 viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A", "A1", "A2", "B"))
    }

    @Test("R3: the child gets what sizeForChild answers; a plain child's default answer is the size it received")
    func r3SizeForChildDecidesTheChildSize() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"], "overrides": { "sizeForChild": { "fraction": [0.3, 0.5] } } },
                               "A": { "children": ["A1"] }, "A1": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        // R2a: the first layout sizes by the rule without asking it.
        #expect(trace.lines(step: 0, kinds: ["sizeForChild"]) == [])
        #expect(trace.laidOutFrames(step: 0) == ["R 0,0 320x568", "A 0,0 96x284", "A1 0,0 96x284"])
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 170.4x160",
            "A viewWillTransition(to: 170.4x160)",
            "A sizeForChild(A1, parent: 170.4x160) -> 170.4x160",
            "A1 viewWillTransition(to: 170.4x160)",
        ] + Lines.layout("R", "A", "A1"))
    }

    @Test("R4: a child whose sizeForChild answer equals its current size is not messaged, nor anything below it; siblings are")
    func r4UnchangedChildSizePerChild() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["K", "S"], "overrides": { "sizeForChild": { "perChild": { "K": [200, 200] } } } },
                               "K": { "children": ["K1"] }, "K1": {}, "S": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(K, parent: 568x320) -> 200x200",
            "R sizeForChild(S, parent: 568x320) -> 568x320",
            "S viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "S"))
    }

    @Test("R4: a fixed sizeForChild keeps every child's size, so no child is messaged")
    func r4UnchangedChildSizeFixed() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["S"] },
                               "S": { "children": ["S1", "S2"], "overrides": { "sizeForChild": { "fixed": [100, 100] } } },
                               "S1": {}, "S2": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(S, parent: 568x320) -> 568x320",
            "S viewWillTransition(to: 568x320)",
            "S sizeForChild(S1, parent: 568x320) -> 100x100",
            "S sizeForChild(S2, parent: 568x320) -> 100x100",
        ] + Lines.layout("R", "S"))
    }

    @Test("R4 is about sizes only: a child whose size is unchanged still gets the trait messages of a rotation")
    func r4UnchangedSizeStillGetsTraits() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["K", "S"], "overrides": { "sizeForChild": { "perChild": { "K": [200, 200] } } } },
                               "K": { "children": ["K1"] }, "K1": {}, "S": {} },
              "steps": [ { "transition": { "size": [568, 320], "traits": { "verticalSizeClass": "compact" } } } ] }
            """)
        #expect(trace[step: 1] == [
            "R willTransition(to: \(Phone.landscape))",
            "K willTransition(to: \(Phone.landscape))",
            "K1 willTransition(to: \(Phone.landscape))",
            "S willTransition(to: \(Phone.landscape))",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(K, parent: 568x320) -> 200x200",
            "R sizeForChild(S, parent: 568x320) -> 568x320",
            "S viewWillTransition(to: 568x320)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "K traitCollectionDidChange(previous: \(Phone.portrait))",
            "K1 traitCollectionDidChange(previous: \(Phone.portrait))",
            "S traitCollectionDidChange(previous: \(Phone.portrait))",
        ] + Lines.layout("R", "S"))
    }

    @Test("R5: depth first in children order: child 1's whole subtree before child 2")
    func r5DepthFirst() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1"] }, "A1": { "children": ["A1a"] },
                               "A1a": {}, "B": { "children": ["B1"] }, "B1": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace[step: 1] == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "A1 sizeForChild(A1a, parent: 568x320) -> 568x320",
            "A1a viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "B sizeForChild(B1, parent: 568x320) -> 568x320",
            "B1 viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A", "A1", "A1a", "B", "B1"))
    }

    @Test("R8: suppression in the middle cuts that controller's subtree only; the sibling and its subtree are notified")
    func r8SuppressionInTheMiddle() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] },
                               "A": { "children": ["A1"], "overrides": { "viewWillTransition": "noSuper" } },
                               "A1": {}, "B": { "children": ["B1"] }, "B1": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A suppressed viewWillTransition (cut: A1)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "B sizeForChild(B1, parent: 568x320) -> 568x320",
            "B1 viewWillTransition(to: 568x320)",
        ])
    }

    @Test("R8: suppression at the root cuts everything: no sizeForChild is asked and no child is messaged")
    func r8SuppressionAtTheRoot() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"], "overrides": { "viewWillTransition": "noSuper" } },
                               "A": { "children": ["A1"] }, "A1": {}, "B": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 568x320)",
            "R suppressed viewWillTransition (cut: A, B)",
        ])
    }

    @Test("R8: a leaf that skips super cuts nothing off")
    func r8SuppressionAtALeaf() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": {},
                               "B": { "overrides": { "viewWillTransition": "noSuper" } } },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
            "B suppressed viewWillTransition (cut: none)",
        ])
    }

    @Test("R8: the suppression lists what that controller would have forwarded to (a navigation controller: its top only)")
    func r8SuppressionListsTheDefaultTargets() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["V1", "V2"],
                                      "overrides": { "viewWillTransition": "noSuper" } },
                               "V1": {}, "V2": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "N viewWillTransition(to: 568x320)",
            "N suppressed viewWillTransition (cut: V2)",
        ])
    }

    @Test("R9: manual forwarding: A skips super and sends A2 a size of its choosing; A1 is silent, no sizeForChild is asked for A2")
    func r9ManualForwardingWithChosenSize() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] },
                               "A": { "children": ["A1", "A2"],
                                      "overrides": { "viewWillTransition": { "forwardTo": [ { "child": "A2", "size": [200, 100] } ] } } },
                               "A1": {}, "A2": { "children": ["A2a"] }, "A2a": {}, "B": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A2 viewWillTransition(to: 200x100)",
            "A2 sizeForChild(A2a, parent: 200x100) -> 200x100",
            "A2a viewWillTransition(to: 200x100)",
            "A suppressed viewWillTransition (cut: A1)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ])
    }

    @Test("R9 with R4: a manually forwarded edge is not decided by sizeForChild, so it fires even when the size is unchanged")
    func r9ManualEdgeIgnoresUnchangedSize() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] },
                               "A": { "children": ["A1", "A2"],
                                      "overrides": { "viewWillTransition": { "forwardTo": [ { "child": "A2", "size": [200, 100] } ] } } },
                               "A1": {}, "A2": {} },
              "steps": [ { "resizeWindow": [568, 320] }, { "resizeWindow": [320, 568] } ] }
            """)
        #expect(trace.messages(step: 2) == [
            "R viewWillTransition(to: 320x568)",
            "R sizeForChild(A, parent: 320x568) -> 320x568",
            "A viewWillTransition(to: 320x568)",
            "A2 viewWillTransition(to: 200x100)",
            "A suppressed viewWillTransition (cut: A1)",
        ])
    }

    @Test("R9: an override that forwards without a size asks its own sizeForChild (a traced query) for that child")
    func r9ManualForwardingAsksSizeForChild() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A1", "A2"],
                                      "overrides": { "viewWillTransition": { "forwardTo": ["A2"] },
                                                     "sizeForChild": { "fraction": [0.5, 0.5] } } },
                               "A1": {}, "A2": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A2, parent: 568x320) -> 284x160",
            "A2 viewWillTransition(to: 284x160)",
            "R suppressed viewWillTransition (cut: A1)",
        ])
    }

    @Test("R9: manual forwarding may reach a child the default would not (a navigation controller's non-top child)")
    func r9ManualForwardingBeyondTheDefault() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "N",
              "controllers": { "N": { "kind": "navigation", "children": ["V1", "V2"],
                                      "overrides": { "viewWillTransition": { "forwardTo": [ { "child": "V1", "size": [100, 100] } ] } } },
                               "V1": {}, "V2": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        #expect(trace.messages(step: 1) == [
            "N viewWillTransition(to: 568x320)",
            "V1 viewWillTransition(to: 100x100)",
            "N suppressed viewWillTransition (cut: V2)",
        ])
    }

    @Test("R10: sizes change at layout, after the message: the next transition compares against the laid-out sizes")
    func r10SizesApplyAtLayout() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {} },
              "steps": [ { "resizeWindow": [568, 320] }, { "resizeWindow": [320, 568] } ] }
            """)
        // Step 1's layout gave A 568x320, so going back to 320x568 is a change for A again.
        #expect(trace[step: 2] == [
            "R viewWillTransition(to: 320x568)",
            "R sizeForChild(A, parent: 320x568) -> 320x568",
            "A viewWillTransition(to: 320x568)",
        ] + Lines.layout("R", "A"))
    }

    @Test("R10: the layout pass runs after every viewWillTransition of the change, parent before children")
    func r10LayoutAfterTheWholePass() async throws {
        let trace = try await Scenarios.run("""
            { \(Phone.window), "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1"] }, "A1": {}, "B": {} },
              "steps": [ { "resizeWindow": [568, 320] } ] }
            """)
        let lines = trace[step: 1]
        let firstLayout = try #require(lines.firstIndex { Lines.layoutKinds.contains(Lines.kind($0)) })
        let lastMessage = try #require(lines.lastIndex { Lines.kind($0) == "viewWillTransition" })
        #expect(lastMessage < firstLayout)
        #expect(Array(lines[firstLayout...]) == Lines.layout("R", "A", "A1", "B"))
    }
}
