import Testing
import TrellisTestSupport
import TrellisScenario

/// Deep hierarchies are refused before anything runs, with the limit named (SPEC §10: input
/// never crashes the tool; `docs/decisions.md`, *Hierarchy depth*).
struct HierarchyDepthTests {
    static let limit = 10_000

    /// A chain `C0 → C1 → … → C(depth-1)`, plus `extra` controllers outside the tree.
    static func chain(depth: Int, extra: [String] = [], steps: String = "") -> String {
        var controllers: [String] = []
        for index in 0..<depth {
            let children = index + 1 < depth ? "\"C\(index + 1)\"" : ""
            controllers.append("\"C\(index)\": { \"children\": [\(children)] }")
        }
        controllers += extra.map { "\"\($0)\": {}" }
        return """
            { \(Phone.window), "root": "C0",
              "controllers": { \(controllers.joined(separator: ",\n")) },
              "steps": [\(steps)] }
            """
    }

    @Test func aChainAtTheLimitIsAccepted() throws {
        let scenario = try ScenarioDecoder.decode(Self.chain(depth: Self.limit), file: "deep.json")
        #expect(scenario.controllers.count == Self.limit)
    }

    @Test func aChainOneLevelDeeperIsRefusedAtTheRoot() {
        #expect {
            try ScenarioDecoder.decode(Self.chain(depth: Self.limit + 1), file: "deep.json")
        } throws: { error in
            "\(error)".contains("$.root: the hierarchy under \"C0\" is 10001 levels deep; at most 10000 are supported")
        }
    }

    @Test func presentationsCountTowardsTheLimit() {
        let steps = (0..<3).map { _ in "{ \"present\": \"P\", \"from\": \"C0\" }, { \"dismiss\": \"P\" }" }.joined(separator: ", ")
        #expect {
            try ScenarioDecoder.decode(Self.chain(depth: Self.limit - 2, extra: ["P"], steps: steps), file: "deep.json")
        } throws: { error in
            "\(error)".contains("$.steps[4]: with \"P\" the hierarchy could be 10001 levels deep")
        }
    }
}
