import Testing
import TrellisScenario
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport

/// SPEC §7: a node answers each call from state it owns or from what the call (or the step)
/// carries, never from a stale copy — so that every placement prints the in-process trace
/// (CONFORMANCE 36). Each scenario here is one the differential tester found, cut down.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct PlacementEquivalenceTests {
    static let pad = """
        "window": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular",
                                                     "userInterfaceIdiom": "pad", "displayScale": 2 } }
        """

    /// Runs `text` in one process and distributed — over ZeroMQ between processes, and over a
    /// loopback network in this one — and expects the same canonical lines each time. These few
    /// cases are cheap enough for both; the differential tester's many go over loopback mostly.
    static func expectSameTrace(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let scenario = try ScenarioDecoder.decode(text, file: "inline.json")
        let inProcess = try await ScenarioRunner.run(scenario).canonicalLines
        for medium in Medium.allCases {
            let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: try medium.options()).canonicalLines
            if distributed != inProcess {
                Issue.record("- in-process, + distributed over \(medium):\n\(DifferentialCheck.difference(inProcess, distributed))",
                             sourceLocation: sourceLocation)
            }
        }
    }

    /// A trait-only step adapts P's form sheet to full screen: its presentation controller, on
    /// node b, resizes P with a receipt transition of its own, and P forwards that transition to
    /// the presentation controller of Q, which it presents. The receipt's window size must be the
    /// window's, not the 0×0 node b had heard of (it had heard of no rotation).
    @Test func aReceiptOnAnotherNodeCarriesTheWindowAsItIs() async throws {
        try await Self.expectSameTrace("""
            { \(Self.pad), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {},
                               "P": { "modalPresentationStyle": "formSheet", "children": ["P1"] }, "P1": {},
                               "Q": { "modalPresentationStyle": "fullScreen" } },
              "placement": { "P": "b", "Q": "b" },
              "steps": [ { "present": "P", "from": "R" }, { "present": "Q", "from": "P" },
                         { "setTraits": { "horizontalSizeClass": "compact" } }, { "resizeWindow": [900, 700] },
                         { "setTraits": { "horizontalSizeClass": "regular" } }, { "resizeWindow": [1024, 768] } ] }
            """)
    }

    /// P is presented on node b, dismissed, the window rotates, and P is presented again: its new
    /// presentation controller is sized from the window now (900×700), and the next rotation
    /// reaches it. Node b used to keep serving calls for `pc:P` to the first, dismissed one.
    @Test func aControllerPresentedAgainGetsItsNewPresentationController() async throws {
        try await Self.expectSameTrace("""
            { \(Self.pad), "root": "R",
              "controllers": { "R": { "children": ["A"] }, "A": {}, "P": { "modalPresentationStyle": "fullScreen" } },
              "placement": { "P": "b" },
              "steps": [ { "present": "P", "from": "R" }, { "dismiss": "P" }, { "resizeWindow": [900, 700] },
                         { "present": "P", "from": "R" }, { "resizeWindow": [1024, 768] } ] }
            """)
    }

    /// A popover's source is a controller placed by a `layout` rule of a parent on another node:
    /// the window asks that parent for the frame it gave the child, origin included.
    @Test func aPopoverSourceInsideARemoteContainerKeepsItsOrigin() async throws {
        try await Self.expectSameTrace("""
            { \(Self.pad), "root": "R",
              "controllers": { "R": { "children": ["C"] },
                               "C": { "children": ["S", "T"], "layout": "row", "overrides": { "sizeForChild": { "fixed": [200, 100] } } },
                               "S": {}, "T": {},
                               "P": { "modalPresentationStyle": "popover", "preferredContentSize": [250, 250],
                                      "popoverSource": { "view": "T", "rect": [20, 0, 10, 30] } } },
              "placement": { "C": "b", "P": "c" },
              "steps": [ { "present": "P", "from": "R" }, { "resizeWindow": [768, 1024] } ] }
            """)
    }

    /// SPEC §3.2, R61 and R57 across nodes: split views on nodes b and c. Regular, S's secondary
    /// is W − 321 wide (the 1-point divider; 447 in a 768-point window); collapsed, `showDetail`
    /// is forwarded to S's primary navigation controller (on c), which pushes, and T, whose
    /// primary is a plain controller, presents the detail itself in the context it defines.
    /// Every placement prints the in-process trace, and that trace is the amended one.
    @Test func aSplitViewOnAnotherNodeKeepsItsDividerAndForwardsShowDetail() async throws {
        let text = """
            { \(Self.pad), "root": "R",
              "controllers": { "R": { "children": ["S", "T"] },
                               "S": { "kind": "split", "children": ["M", "D"] },
                               "M": { "kind": "navigation", "children": ["MV"] }, "MV": {}, "D": {}, "E": {}, "X": {},
                               "T": { "kind": "split", "children": ["U", "V"], "definesPresentationContext": true },
                               "U": {}, "V": {}, "W": { "modalPresentationStyle": "overCurrentContext" } },
              "placement": { "S": "b", "M": "c", "T": "c", "W": "b" },
              "steps": [ { "showDetail": "E", "from": "MV" }, { "resizeWindow": [768, 1024] },
                         { "setTraits": { "horizontalSizeClass": "compact" } },
                         { "showDetail": "X", "from": "MV" }, { "showDetail": "W", "from": "U" } ] }
            """
        try await Self.expectSameTrace(text)
        let lines = try await ScenarioRunner.run(try ScenarioDecoder.decode(text, file: "inline.json")).canonicalLines
        let amended = ["S replaceDetail(E)", "S sizeForChild(E, parent: 768x1024) -> 447x1024", "E viewWillTransition(to: 447x1024)",
                       "M push(X)", "T present(W, style: overCurrentContext)"]
        #expect(amended.filter { !lines.contains($0) } == [], "the in-process trace lacks these lines")
        #expect(lines.filter { $0.hasPrefix("M show(") || $0.hasPrefix("R present(") } == [])
    }
}
