import Testing
import TrellisDistributed
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport

/// SPEC §11, issue 25 item 8: a scenario that performs segues, with a placement, gives over
/// nodes exactly the in-process trace, the fresh copies of its destinations included. The copies
/// are controllers of the decoded scenario (TSF/1 §6.5), which every node decodes alike.
@Suite(.distributedHangGuard)
struct SegueDistributedTests {
    /// The Master-Detail template's shape on an iPad: its detail navigation controller `DN` is a
    /// column of the split and the destination of `showDetail`; a form sheet, a popover from an
    /// anchor, a push, and unwinds. `MN` and `DN` live on other nodes, so do their copies.
    static let masterDetail = """
        { "scenario": "master-detail-segues",
          \(Pad.window),
          "root": "S",
          "controllers": {
            "S": { "kind": "split", "children": ["MN", "DN"] },
            "MN": { "kind": "navigation", "children": ["Master"] }, "Master": { "kind": "view" },
            "DN": { "kind": "navigation", "children": ["Detail"] }, "Detail": { "kind": "view" },
            "Info": { "kind": "view", "modalPresentationStyle": "fullScreen" },
            "Picker": { "kind": "view", "preferredContentSize": [300, 200] },
            "More": { "kind": "view" }
          },
          "segues": {
            "showDetail": { "kind": "showDetail", "from": "Master", "destination": "DN" },
            "info": { "kind": "presentation", "from": "Detail", "destination": "Info", "style": "formSheet" },
            "pick": { "kind": "popoverPresentation", "from": "Detail", "destination": "Picker",
                      "anchor": { "view": "Detail", "rect": [10, 20, 30, 40] } },
            "more": { "kind": "push", "from": "Master", "destination": "More" },
            "done": { "kind": "unwind", "from": "Info" }
          },
          "placement": { "MN": "b", "DN": "c", "Info": "b" },
          "steps": [
            { "performSegue": "showDetail" },
            { "performSegue": "info" },
            { "transition": { "size": [768, 1024] } },
            { "performSegue": "done" },
            { "performSegue": "showDetail" },
            { "performSegue": "pick" },
            { "setTraits": { "horizontalSizeClass": "compact" } },
            { "dismiss": "Picker~1" },
            { "performSegue": "more" }
          ]
        }
        """

    @Test("copies are placed with the controller the file places: DN~N on DN's node, Info~1 on Info's, children with their parent")
    func copiesFollowTheirOriginalsPlacement() throws {
        let scenario = try ScenarioDecoder.decode(Self.masterDetail, file: "segues.json")
        let placement = Placement(scenario)
        #expect(placement.nodeOf["DN~1"] == "c" && placement.nodeOf["DN~2"] == "c")
        #expect(placement.nodeOf["Detail~1"] == "c" && placement.nodeOf["Detail~2"] == "c")
        #expect(placement.nodeOf["Info~1"] == "b")
        // Unplaced, not a child: with the controller the step brings it in from (its source).
        #expect(placement.nodeOf["Picker~1"] == "c", "Picker~1 is presented from Detail~2, on c")
        #expect(placement.nodeOf["More~1"] == "b", "More~1 is pushed from Master, on b")
    }

    @Test("the Master-Detail segues over nodes give the in-process trace, copies included", arguments: Medium.allCases)
    func masterDetailMatchesInProcess(_ medium: Medium) async throws {
        let scenario = try ScenarioDecoder.decode(Self.masterDetail, file: "segues.json")
        let inProcess = try await ScenarioRunner.run(scenario).canonicalLines
        let distributed = try await DistributedRun.run(scenario, scenarioText: Self.masterDetail, options: try medium.options()).canonicalLines
        #expect(distributed == inProcess, "\(inProcess.count) lines in process, \(distributed.count) distributed")
        // The run did what the segues say, on the copies.
        for line in ["S replaceDetail(DN~1)", "S replaceDetail(DN~2)", "present(Info~1, style: formSheet)", "dismiss(Info~1)",
                     "present(Picker~1, style: popover)", "push(More~1)"] {
            #expect(inProcess.contains { $0.contains(line) }, "no \(line)")
        }
        #expect(!inProcess.contains { $0.hasPrefix("error ") || $0.contains(" error ") }, "\(inProcess.filter { $0.contains("error") })")
    }

    @Test("a custom segue the runner registers is performed alike on in-process nodes, which get the conductor's registry")
    func registeredCustomSegueOverLoopback() async throws {
        let text = Self.masterDetail
            .replacingOccurrences(of: #""done": { "kind": "unwind", "from": "Info" }"#,
                                  with: #""done": { "kind": "unwind", "from": "Info" }, "fade": { "kind": "custom", "from": "Detail", "destination": "Info", "customClass": "Fade" }"#)
            .replacingOccurrences(of: #"{ "performSegue": "info" }"#, with: #"{ "performSegue": "fade" }"#)
        let scenario = try ScenarioDecoder.decode(text, file: "segues.json", registry: BehaviorRegistry().segue("Fade", .present(style: .overFullScreen)))
        let inProcess = try await ScenarioRunner.run(scenario).canonicalLines
        #expect(inProcess.contains("S present(Info~1, style: overFullScreen)"))
        let distributed = try await DistributedRun.run(scenario, scenarioText: text, options: loopbackOptions()).canonicalLines
        #expect(distributed == inProcess)
    }

    /// Random scenarios with segues (`ScenarioGenerator.scenarioPerformingSegues`): a destination
    /// in the tree or detached, copied once or twice, presented, shown, shown in detail, unwound.
    static let loopbackSeeds: [UInt64] = Array(1...150)
    static let zeroMQSeeds: [UInt64] = Array(1...3)

    @Test("a random scenario performing segues over in-process nodes gives the in-process trace", arguments: loopbackSeeds)
    func randomSeguesOverLoopback(_ seed: UInt64) async {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: loopbackOptions(), performingSegues: true) {
            Issue.record("over loopback, segues: \(mismatch)")
        }
    }

    @Test("a random scenario performing segues over processes gives the in-process trace", arguments: zeroMQSeeds)
    func randomSeguesOverZeroMQ(_ seed: UInt64) async throws {
        if let mismatch = await DifferentialCheck.check(seed: seed, options: try options(), performingSegues: true) {
            Issue.record("over ZeroMQ, segues: \(mismatch)")
        }
    }

    @Test("the segue generator keeps the seed's scenario, performs every kind, and makes copies")
    func theSegueGeneratorCoversTheKinds() throws {
        var kinds = Set<String>()
        var copied = 0, twice = 0
        for seed: UInt64 in 0..<200 {
            let generated = ScenarioGenerator.scenarioPerformingSegues(seed: seed), plain = ScenarioGenerator.scenario(seed: seed)
            #expect(generated.text == ScenarioGenerator.scenarioPerformingSegues(seed: seed).text)
            #expect(generated.placementDescription == plain.placementDescription)
            let scenario = try ScenarioDecoder.decode(generated.text, file: "seed-\(seed).json")
            let segueSteps = scenario.steps.filter { step in
                if case .event(.performSegue) = step { return true }
                return false
            }
            #expect(!segueSteps.isEmpty)
            kinds.formUnion(scenario.segues.map(\.kind.rawValue))
            if !scenario.copiedFrom.isEmpty { copied += 1 }
            if scenario.copiedFrom.keys.contains(where: { $0.name.hasSuffix("~2") }) { twice += 1 }
        }
        #expect(kinds == Set(SegueKind.allCases.map(\.rawValue)).subtracting(["custom"]))
        #expect(copied > 150, "only \(copied) of 200 seeds made a copy")
        #expect(twice > 20, "only \(twice) of 200 seeds copied a controller twice")
    }
}
