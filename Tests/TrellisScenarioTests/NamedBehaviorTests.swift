import Testing
import TrellisModel
import TrellisRuntime
import TrellisScenario
import TrellisTestSupport
import TrellisTrace

/// SPEC §4.1, §5: scenario files name Swift behaviours a runner registers; the names are checked
/// like every other reference, and the controllers are built with the registered code.
@Suite("scenario files naming Swift behaviours")
struct NamedBehaviorTests {
    static let registry = BehaviorRegistry()
        .presentationController("Third", Third())
        .viewController("Noting", Noting())
        .adaptiveDelegate("CompactFullScreen", CompactFullScreen())

    static let sidebar = """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view", "behavior": "Noting" },
            "S": { "kind": "view", "modalPresentationStyle": "custom",
                   "presentationController": { "behavior": "Third" },
                   "adaptiveDelegate": { "behavior": "CompactFullScreen" } } },
          "steps": [ { "present": "S", "from": "R", "animated": false },
                     { "transition": { "size": [320, 768], "traits": { "horizontalSizeClass": "compact" } } } ] }
        """

    func rejection(_ json: String, registry: BehaviorRegistry = BehaviorRegistry()) -> ScenarioError? {
        do {
            _ = try ScenarioDecoder.decode(json, file: "named.json", registry: registry)
            return nil
        } catch {
            return error
        }
    }

    @Test("the runner's behaviours build the controllers: the Swift frame, the Swift note, the Swift delegate")
    func runsWithTheRegistry() async throws {
        let scenario = try ScenarioDecoder.decode(Self.sidebar, file: "named.json", registry: Self.registry)
        #expect(scenario.behaviorNames == [
            BehaviorName(.viewController, "Noting"), BehaviorName(.presentationController, "Third"),
            BehaviorName(.adaptiveDelegate, "CompactFullScreen"),
        ])
        let lines = try await ScenarioRunner.run(scenario).canonicalLines
        #expect(lines.contains("R note laid out by Swift"))
        #expect(lines.contains("pc:S frameOfPresentedViewInContainerView -> 683,0 341x768"))
        #expect(lines.contains("pc:S adaptivePresentationStyle -> fullScreen"))
    }

    @Test("the plain trellis (an empty registry) refuses a name with its position and the advice to use the runner")
    func unknownInThePlainTool() throws {
        let error = try #require(rejection(Self.sidebar))
        #expect(error.path == "$.controllers.R.behavior")
        #expect(error.line == 4 && error.column > 1, "\(error)")
        #expect(error.description.hasPrefix("named.json:4:"))
        #expect(error.message.contains("unknown view-controller behaviour \"Noting\""))
        #expect(error.message.contains("registers no Swift behaviours"))
        #expect(error.message.contains("run it with the runner that registers it"))
        // Every other name it lacks, at the first: one run says them all.
        #expect(error.message.hasSuffix("; the file also names Third (presentation-controller behaviour), CompactFullScreen (adaptive delegate), which it does not register either"), "\(error.message)")
    }

    @Test("a runner without the name lists what it registers and suggests the nearest")
    func unknownInAnotherRunner() throws {
        let registry = BehaviorRegistry().presentationController("Thirds", Third()).viewController("Noting", Noting())
        let error = try #require(rejection(Self.sidebar, registry: registry))
        #expect(error.path == "$.controllers.S.presentationController.behavior")
        #expect(error.line == 6, "\(error)")
        #expect(error.message.contains("unknown presentation-controller behaviour \"Third\""))
        #expect(error.message.contains("did you mean \"Thirds\"?"))
        #expect(error.message.contains("this runner registers Thirds"))
    }

    @Test("an adaptive delegate name is checked too; a name registered as another kind says so")
    func wrongKind() throws {
        let registry = BehaviorRegistry().presentationController("Third", Third()).viewController("Noting", Noting())
            .viewController("CompactFullScreen", Noting())
        let error = try #require(rejection(Self.sidebar, registry: registry))
        #expect(error.path == "$.controllers.S.adaptiveDelegate.behavior")
        #expect(error.message == "\"CompactFullScreen\" is registered as a view-controller behaviour, not as an adaptive delegate")
    }

    @Test("declarative overrides beside a named behaviour are an error, at the override", arguments: [
        (#""R": { "behavior": "Noting", "overrides": { "viewWillTransition": "noSuper" } }"#, "$.controllers.R.overrides"),
        (#""R": { "behavior": "Noting", "overrides": { "grant": "all" } }"#, "$.controllers.R.overrides"),
        (#""R": {}, "S": { "presentationController": { "behavior": "Third", "frame": { "align": "right" } } }"#, "$.controllers.S.presentationController.frame"),
        (#""R": {}, "S": { "presentationController": { "sizeForChild": { "fixed": [1, 1] }, "behavior": "Third" } }"#, "$.controllers.S.presentationController.sizeForChild"),
        (#""R": {}, "S": { "presentationController": { "behavior": "Third", "overrides": { "viewWillTransition": "noSuper" } } }"#, "$.controllers.S.presentationController.overrides"),
        (#""R": {}, "S": { "presentationController": { "behavior": "Third", "grant": "all" } }"#, "$.controllers.S.presentationController.grant"),
        (#""R": {}, "S": { "adaptiveDelegate": { "behavior": "CompactFullScreen", "style": "none" } }"#, "$.controllers.S.adaptiveDelegate.style"),
    ])
    func overridesBesideABehavior(controllers: String, path: String) throws {
        let json = "{ \(Pad.window), \"root\": \"R\", \"controllers\": { \(controllers) } }"
        let error = try #require(rejection(json, registry: Self.registry))
        #expect(error.path == path, "\(error)")
        #expect(error.line == 2 && error.column > 1)
        #expect(error.message.contains("beside the"))
    }

    @Test("an empty behaviour name and a name that is not a string are rejected where they are")
    func malformedNames() throws {
        let empty = try #require(rejection("{ \(Pad.window), \"root\": \"R\", \"controllers\": { \"R\": { \"behavior\": \"\" } } }"))
        #expect(empty.path == "$.controllers.R.behavior" && empty.message.contains("must not be empty"))
        let number = try #require(rejection("{ \(Pad.window), \"root\": \"R\", \"controllers\": { \"R\": { \"behavior\": 3 } } }"))
        #expect(number.path == "$.controllers.R.behavior" && number.message.contains("expected a string"))
    }

    @Test("behavior, round: the fields are listed among the allowed ones of an unknown field's message")
    func allowedFieldsListBehavior() throws {
        let error = try #require(rejection("{ \(Pad.window), \"root\": \"R\", \"controllers\": { \"R\": { \"behaviour\": \"Noting\" } } }"))
        #expect(error.path == "$.controllers.R.behaviour")
        #expect(error.message.contains("behavior"))
    }
}

/// SPEC §5 `round`: a `fraction` rule rounds as UIKit code rounds its own division.
@Suite("rounding in fraction rules")
struct FractionRoundingTests {
    static func sidebar(_ rule: String) -> String {
        """
        { \(Pad.window), "root": "R",
          "controllers": {
            "R": { "kind": "view" },
            "S": { "kind": "view", "modalPresentationStyle": "custom",
                   "presentationController": { "sizeForChild": \(rule), "frame": { "align": "right" } } } },
          "steps": [ { "present": "S", "from": "R", "animated": false } ] }
        """
    }

    @Test("floor, ceil and nearest round both dimensions of the fraction's size", arguments: [
        (#"{ "fraction": [0.3333, 1] }"#, "341.299x768", "682.701,0 341.299x768"),
        (#"{ "fraction": [0.3333, 1], "round": "floor" }"#, "341x768", "683,0 341x768"),
        (#"{ "fraction": [0.3333, 0.5005], "round": "ceil" }"#, "342x385", "682,191.5 342x385"),
        (#"{ "round": "nearest", "fraction": [0.3335, 1] }"#, "342x768", "682,0 342x768"),
        // A third to twelve decimals is a third: 768 / 3 is 256, not 255.
        (#"{ "fraction": [0.333333333333, 0.333333333333], "round": "floor" }"#, "341x256", "683,256 341x256"),
    ])
    func rounding(rule: String, size: String, frame: String) async throws {
        let run = try await ScenarioRunner.run(try ScenarioDecoder.decode(Self.sidebar(rule), file: "round.json"))
        // R2a: the rule sizes the frame without a sizeForChild event; S is laid out at that size.
        #expect(!run.canonicalLines.contains { $0.contains("sizeForChild") }, "\(run.canonicalLines)")
        #expect(run.canonicalLines.contains("pc:S frameOfPresentedViewInContainerView -> \(frame)"))
        #expect(run.events.contains { event in
            guard event.controller == "S", case let .layout(.viewWillLayoutSubviews, laidOut?) = event.message else { return false }
            return laidOut.size.description == size
        })
    }

    @Test("a round of the wrong value, or beside a rule that is not a fraction, is rejected at the round", arguments: [
        (#"{ "fraction": [0.3333, 1], "round": "down" }"#, "unknown rounding \"down\" (expected one of: floor, ceil, nearest)"),
        (#"{ "fraction": [0.3333, 1], "round": 1 }"#, "expected a string"),
        (#"{ "fixed": [300, 768], "round": "floor" }"#, "applies to a \"fraction\" rule only"),
    ])
    func badRound(rule: String, message: String) throws {
        do {
            _ = try ScenarioDecoder.decode(Self.sidebar(rule), file: "round.json")
            Issue.record("accepted \(rule)")
        } catch {
            #expect(error.path == "$.controllers.S.presentationController.sizeForChild.round", "\(error)")
            #expect(error.line == 6 && error.column > 1)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }
}
