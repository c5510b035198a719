import Testing
import TrellisScenario
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport

/// SPEC §7: a node answers each call from state it owns or from what the call (or the step)
/// carries, never from a stale copy — so that every placement prints the in-process trace
/// (CONFORMANCE 36). Each scenario here is one the differential tester found, cut down.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .timeLimit(.minutes(2)))
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
}
