import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTrace

/// One action vocabulary from file to window (issue 23): a step a file names is the window event
/// of the same name, and its header (`== step N: …`, which the golden traces keep) is that
/// event's own description.
@Suite("steps are window events")
struct StepVocabularyTests {
    /// One step of every kind, as a file writes it, with the event it is and its header.
    static let samples: [(json: String, event: WindowEvent?, header: String)] = [
        (#"{ "resizeWindow": [568, 320] }"#, .resizeWindow(Size(568, 320)), "resizeWindow 568x320"),
        (#"{ "setTraits": { "horizontalSizeClass": "regular" } }"#,
         .setTraits(TraitCollection(horizontalSizeClass: .regular)), "setTraits h=regular"),
        // A transition keeps its name whatever it carries: never `resizeWindow`.
        (#"{ "transition": { "size": [568, 320] } }"#, .transition(size: Size(568, 320), traits: nil), "transition 568x320"),
        (#"{ "present": "P", "from": "R", "animated": false, "style": "formSheet" }"#,
         .present("P", from: "R", animated: false, style: .formSheet), "present P from R style: formSheet"),
        (#"{ "dismiss": "P" }"#, .dismiss("P", animated: true), "dismiss P animated"),
        (#"{ "show": "P", "from": "A" }"#, .show("P", from: "A"), "show P from A"),
        (#"{ "showDetail": "P", "from": "A" }"#, .showDetail("P", from: "A"), "showDetail P from A"),
        (#"{ "push": "P", "onto": "N" }"#, .push("P", onto: "N"), "push P onto N"),
        (#"{ "pop": "N" }"#, .pop("N"), "pop N"),
        (#"{ "select": "T", "index": 1 }"#, .select(tab: "T", index: 1), "select T index 1"),
        (#"{ "setPreferredContentSize": { "controller": "A", "size": [100, 200] } }"#,
         .setPreferredContentSize("A", Size(100, 200)), "setPreferredContentSize A 100x200"),
        (#"{ "setTraitOverride": { "container": "T", "child": "A", "traits": null } }"#,
         .setTraitOverride(container: "T", child: "A", traits: nil), "setTraitOverride T child A removed"),
        (#"{ "systemLayoutFittingSizeDidChange": "A" }"#, .systemLayoutFittingSizeDidChange("A"), "systemLayoutFittingSizeDidChange A"),
        (#"{ "action": "keyboardWillShow", "on": "pc:P", "value": { "height": 216 } }"#,
         .action("keyboardWillShow", on: "pc:P", value: .object([ActionMember("height", .number(216))])),
         #"action keyboardWillShow on pc:P value {"height":216}"#),
        // SPEC §11: what the segue does to the fresh copy of its destination it makes.
        (#"{ "performSegue": "info" }"#, .performSegue("info", .present("P~1", from: "A")), "performSegue info: present P~1 from A"),
        (#"{ "expect": ["A viewWillTransition(to: 568x320)"] }"#, nil, ""),
    ]

    /// The first key of a step object: the step's name.
    static func name(of json: String) -> String {
        String(json.drop { $0 != "\"" }.dropFirst().prefix { $0 != "\"" })
    }

    static func decode(_ steps: [String]) throws -> Scenario {
        try ScenarioDecoder.decode("""
            { "window": { "size": [320, 568] }, "root": "R",
              "controllers": {
                "R": { "children": ["T", "N"] },
                "T": { "kind": "tab", "children": ["A", "B"] }, "A": {}, "B": {},
                "N": { "kind": "navigation", "children": ["C"] }, "C": {}, "P": {} },
              "segues": { "info": { "kind": "presentation", "from": "A", "destination": "P" } },
              "steps": [ \(steps.joined(separator: ", ")) ] }
            """, file: "steps.json")
    }

    @Test("each step decodes to the event of its name, whose description is the step's header")
    func eachStepIsTheEventOfItsName() throws {
        let scenario = try Self.decode(Self.samples.map(\.json))
        #expect(scenario.steps.count == Self.samples.count)
        for (step, sample) in zip(scenario.steps, Self.samples) {
            switch step {
            case let .event(event):
                #expect(event == sample.event, "\(sample.json)")
                #expect(event.description == sample.header)
                // The header starts with the name the file gives the step.
                #expect(event.description.split(separator: " ").first.map(String.init) == Self.name(of: sample.json))
            case let .expect(lines):
                #expect(sample.event == nil, "\(sample.json) decoded as expect")
                #expect(lines == ["A viewWillTransition(to: 568x320)"])
            }
        }
    }

    @Test("the samples cover every step a file may name, in the order the decoder lists them")
    func theSamplesCoverEveryStep() throws {
        let error = try #require(Scenarios.rejection("""
            { "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": {} }, "steps": [ { "wobble": 1 } ] }
            """))
        let list = try #require(error.message.split(separator: "one of: ").last)
        let listed = list.split(separator: ", ").map(String.init)
        let sampled = Self.samples.map { Self.name(of: $0.json) }
        #expect(listed == sampled, "\(error.message)")
    }

    @Test("the header of a run's step is the event's description")
    func aRunWritesTheEventAsItsHeader() async throws {
        let scenario = try Self.decode([#"{ "transition": { "size": [568, 320] } }"#, #"{ "present": "P", "from": "A", "animated": false }"#])
        let run = try await ScenarioRunner.run(scenario)
        let headers = run.canonicalLines.filter { $0.hasPrefix("==") }
        #expect(headers == ["== step 1: transition 568x320", "== step 2: present P from A"])
    }

    @Test("an environment change built in Swift is the step a file would name")
    func environmentChangeNamesItsStep() {
        let size = Size(568, 320)
        let traits = TraitCollection(verticalSizeClass: .compact)
        #expect(WindowEvent.environmentChange(size: size, traits: nil) == .resizeWindow(size))
        #expect(WindowEvent.environmentChange(size: nil, traits: traits) == .setTraits(traits))
        #expect(WindowEvent.environmentChange(size: size, traits: traits) == .transition(size: size, traits: traits))
    }
}
