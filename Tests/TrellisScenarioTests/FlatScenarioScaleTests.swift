import Testing
import TrellisScenario

/// A flat scenario of 100,000 leaves validates, and an error among its children still names
/// the child's line and column (issue 27: `validate` in time proportional to the file; the
/// timing is `trellis bench`'s `validate-flat` figure, never a test's).
@Suite(.timeLimit(.minutes(5)))
struct FlatScenarioScaleTests {
    static let leaves = 100_000

    /// A root `view` with `leaves` children `c0`…, each `{"kind":"view"}`, one a line: child
    /// `i` of the root is on line 5 + i. `last` replaces the root's last child's id.
    static func flat(last: String? = nil) -> String {
        var children = (0..<leaves).map { "\"c\($0)\"" }
        if let last { children[leaves - 1] = "\"\(last)\"" }
        let controllers = (0..<leaves).map { "\"c\($0)\":{\"kind\":\"view\"}" }
        return """
            {"scenario":"flat",
            "window":{"size":[320,568]},"root":"root",
            "controllers":{
            "root":{"kind":"view","children":[
            \(children.joined(separator: ",\n"))]},
            \(controllers.joined(separator: ",\n"))}}
            """
    }

    @Test func aHundredThousandLeavesValidate() throws {
        let scenario = try ScenarioDecoder.decode(Self.flat(), file: "flat.json")
        #expect(scenario.controllers.count == Self.leaves + 1)
        #expect(scenario.controllers.first?.children.count == Self.leaves)
        #expect(scenario.controllers.first?.children.last == "c99999")
        #expect(scenario.controllers.dropFirst().allSatisfy { $0.kind == .view && $0.children.isEmpty })
    }

    @Test func anUnknownLastChildIsNamedAtItsLine() {
        #expect {
            try ScenarioDecoder.decode(Self.flat(last: "nobody"), file: "flat.json")
        } throws: { error in
            "\(error)" == "flat.json:\(5 + Self.leaves - 1):1: $.controllers.root.children[99999]: unknown controller \"nobody\""
        }
    }

    @Test func aDuplicateLastChildIsNamedAtItsLine() {
        #expect {
            try ScenarioDecoder.decode(Self.flat(last: "c0"), file: "flat.json")
        } throws: { error in
            "\(error)" == "flat.json:\(5 + Self.leaves - 1):1: $.controllers.root.children[99999]: duplicate child \"c0\" of \"root\""
        }
    }
}
