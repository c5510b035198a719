import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// Reading traces at scale (SPEC §6, issue 17): a minimal diff without an N×M table, steps
/// aligned by what they are, cycles of causes reported, and deep cause chains giving output
/// linear in their length. Sizes and counts are asserted, never timings.
@Suite struct TraceAtScaleTests {
    static func event(_ sequence: UInt64, cause: UInt64?, _ controller: String, step: Int = 1, _ message: TraceMessage) -> TraceEvent {
        TraceEvent(id: EventRef(node: "main", sequence: sequence), lamport: sequence,
                   cause: cause.map { EventRef(node: "main", sequence: $0) }, controller: ControllerID(controller),
                   transition: nil, step: step, message: message, time: 0)
    }

    /// A step header and one cause chain `depth` events deep under it.
    static func chain(_ depth: Int) -> [TraceEvent] {
        [event(1, cause: nil, "window", .step(number: 1, description: "resizeWindow 568x320"))]
            + (0..<depth).map { event(UInt64($0 + 2), cause: UInt64($0 + 1), "C\($0)", .viewWillTransition(to: Size(568, 320))) }
    }

    /// The length of a longest common subsequence, by the textbook table (the reference).
    static func lcsLength(_ a: [Int], _ b: [Int]) -> Int {
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    /// The matches are a common subsequence: increasing on both sides, equal elements.
    static func isCommonSubsequence(_ matches: [(left: Int, right: Int)], _ a: [Int], _ b: [Int]) -> Bool {
        zip(matches, matches.dropFirst()).allSatisfy { $0.left < $1.left && $0.right < $1.right }
            && matches.allSatisfy { a[$0.left] == b[$0.right] }
    }

    @Test("merging one node's events keeps them when in order and sorts them when not; several nodes interleave by clock, node, sequence")
    func mergeOrders() {
        let ordered = Self.chain(4)
        #expect(TraceMerge.merge([ordered]).map(\.id) == ordered.map(\.id))
        #expect(TraceMerge.merge([ordered.reversed()]).map(\.id) == ordered.map(\.id))
        let other = TraceEvent(id: EventRef(node: "b", sequence: 1), lamport: 2, cause: nil, controller: ControllerID("B"),
                               transition: nil, step: 1, message: .viewWillTransition(to: Size(568, 320)), time: 0)
        #expect(TraceMerge.merge([[other], ordered]).map(\.id) == [ordered[0].id, other.id] + ordered.dropFirst().map(\.id))
    }

    @Test func myersFindsALongestCommonSubsequence() {
        // Myers' own example: ABCABBA against CBABAC, 5 edits, 4 in common.
        let a = Array("ABCABBA".unicodeScalars.map { Int($0.value) }), b = Array("CBABAC".unicodeScalars.map { Int($0.value) })
        let matches = MyersDiff.matches(a, b)
        #expect(matches.count == 4)
        #expect(Self.isCommonSubsequence(matches, a, b))
        // Small sequences of a few symbols, from a fixed generator: always as long as the table's.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<400 {
            let left = (0..<next(14)).map { _ in next(4) }, right = (0..<next(14)).map { _ in next(4) }
            let found = MyersDiff.matches(left, right)
            #expect(Self.isCommonSubsequence(found, left, right))
            #expect(found.count == Self.lcsLength(left, right), "\(left) against \(right)")
        }
    }

    @Test func aMillionLinesWithAFewChangesStayMinimal() {
        let left = Array(0..<1_000_000)
        var right = left
        right.remove(at: 700_000)
        right.insert(-1, at: 500_000)
        right[10] = -2
        let operations = LineDiff.operations(expected: left.map(String.init), actual: right.map(String.init))
        let changed = operations.filter { if case .same = $0 { return false }; return true }
        // Exactly the three edits' lines: two missing (index 10 and 700 000), two extra (-2, -1).
        #expect(changed == [.missing("10"), .extra("-2"), .extra("-1"), .missing("700000")])
        #expect(operations.count == 1_000_002)
    }

    @Test func pastItsBudgetTheDiffSaysItIsNotMinimal() {
        // Two unrelated sides: thousands of differences. Within the budget the diff is shortest…
        let left = (0..<2_000).map { "a\($0)" }, right = ["same"] + (0..<2_000).map { "b\($0)" } + ["end"]
        let full = LineDiff.operations(expected: ["same"] + left + ["end"], actual: right, budget: .max)
        #expect(full.minimal)
        #expect(full.operations.filter { if case .same = $0 { return true }; return false }.count == 2)
        // …past it, the head and tail stay, all between is - then +, and the result says so.
        let capped = LineDiff.operations(expected: ["same"] + left + ["end"], actual: right, budget: 1_000)
        #expect(!capped.minimal)
        #expect(capped.operations == [.same("same")] + left.map { .missing($0) } + right.dropFirst().dropLast().map { .extra($0) } + [.same("end")])
        #expect(MyersDiff.matches([1, 2, 3], [3, 2, 1], within: 1) == nil)
        let before = Self.chain(3), after = Self.chain(3).map { event in
            var changed = event
            if case .viewWillTransition = event.message { changed.message = .viewWillTransition(to: Size(1, 1)) }
            return changed
        }
        #expect(TraceDiff.compare(before, after).map(\.minimal) == [true])
        let differences = TraceDiff.compare(before, after, budget: 1)
        #expect(differences.map(\.minimal) == [false])
        #expect(TraceDiff.render(differences).contains("not a shortest diff"))
    }

    @Test func anInsertedStepIsTheOnlyDifference() {
        func trace(_ steps: [(String, [String])]) -> [TraceEvent] {
            var events: [TraceEvent] = []
            for (number, (description, controllers)) in steps.enumerated() {
                let header = UInt64(events.count + 1)
                events.append(Self.event(header, cause: nil, "window", step: number + 1, .step(number: number + 1, description: description)))
                for name in controllers {
                    events.append(Self.event(UInt64(events.count + 1), cause: header, name, step: number + 1, .viewWillTransition(to: Size(568, 320))))
                }
            }
            return events
        }
        let before = trace([("resizeWindow 568x320", ["R", "A"]), ("resizeWindow 320x568", ["R", "B"]), ("resizeWindow 1024x768", ["R"])])
        let after = trace([("resizeWindow 568x320", ["R", "A"]), ("expect", []), ("resizeWindow 320x568", ["R", "B"]),
                           ("resizeWindow 1024x768", ["R", "C"])])
        let differences = TraceDiff.compare(before, after)
        #expect(differences.map(\.header) == ["== step 2: expect", "== step 4: resizeWindow 1024x768"])
        #expect(differences[0].operations == [.extra("== step 2: expect")])
        #expect(differences[1].operations == [.same("R viewWillTransition(to: 568x320)"), .extra("C viewWillTransition(to: 568x320)")])
        // Removed again, the other way round: the step shows as missing, the rest pairs up.
        #expect(TraceDiff.compare(after, before).map(\.operations.first) == [.missing("== step 2: expect"), .same("R viewWillTransition(to: 568x320)")])
    }

    @Test func aCycleOfCausesIsNamed() {
        let events = (1...4).map { Self.event(UInt64($0), cause: UInt64($0 == 1 ? 4 : $0 - 1), "C\($0)", .viewWillTransition(to: Size(1, 1))) }
        let tree = CausalTree(events)
        #expect(tree.roots.isEmpty)
        #expect(tree.cycle.map { (0..<4).contains($0) } == true)
        // A cycle below a sound root, and a sound trace.
        let below = Self.chain(3) + [Self.event(10, cause: 11, "X", .note("x")), Self.event(11, cause: 10, "Y", .note("y"))]
        #expect(CausalTree(below).cycle.map { below[$0].controller.name } != nil)
        #expect(CausalTree(Self.chain(3)).cycle == nil)
    }

    @Test func aDeepChainPrintsInLinearSpace() {
        let depth = 5_000
        let tree = CausalTree(Self.chain(depth))
        #expect(tree.cycle == nil)
        let lines = tree.indentedLines()
        #expect(lines.count == depth + 1)
        #expect(lines[1] == "  C0 viewWillTransition(to: 568x320)")
        #expect(lines[32] == String(repeating: "  ", count: 32) + "C31 viewWillTransition(to: 568x320)")
        #expect(lines[33] == String(repeating: "  ", count: 32) + "[33] C32 viewWillTransition(to: 568x320)")
        #expect(lines[depth] == String(repeating: "  ", count: 32) + "[\(depth)] C\(depth - 1) viewWillTransition(to: 568x320)")
        // Every line at most the capped indent, its depth and the event: no line grows with depth.
        #expect(lines.allSatisfy { $0.utf8.count <= 64 + 8 + "C4999 viewWillTransition(to: 568x320)".utf8.count })
        #expect(tree.effects(of: 0).count == depth)
        #expect(tree.causes(of: depth).count == depth)
        #expect(tree.subtrees(of: [1, 2, 3]).count == depth)
        #expect(tree.lastEffectClocks().first == UInt64(depth + 1))
    }

    @Test func aDeepChainExportsInLinearSpace() {
        let depth = 5_000
        let events = Self.chain(depth)
        let perfetto = PerfettoExport.json(events)
        // One slice and one flow pair per event, each line of bounded size.
        #expect(perfetto.split(separator: "\n").allSatisfy { $0.utf8.count < 400 })
        #expect(perfetto.split(separator: "\n").count < 4 * (depth + 1) + 10)
        // The first slice spans the whole chain below it.
        #expect(perfetto.contains("\"dur\":\(depth)"))
        let mermaid = MermaidExport.sequenceDiagram(events)
        #expect(mermaid.split(separator: "\n").count == 1 + depth + 1 + 1 + depth)
    }
}
