import Testing
@testable import TrellisRuntime
@testable import TrellisScenario
import TrellisModel

/// The validator's table of controllers by position (`ControllerTable`, `HierarchyLinks`):
/// each id hashed once, its position both ways learned as it is placed.
struct ControllerTableTests {
    @Test("ids each once in order of first appearance; a later spec of the same id is the one looked up")
    func positionsBothWays() {
        let specs = [ControllerSpec(id: "A"), ControllerSpec(id: "B", kind: .navigation), ControllerSpec(id: "A", kind: .tab), ControllerSpec(id: "C")]
        let table = ControllerTable(specs)
        #expect(table.links.ids == ["A", "B", "C"])
        #expect(table.links.orderCount == 3)
        #expect((0..<4).map(table.position(ofControllerAt:)) == [0, 1, 0, 2])
        #expect(table["A"]?.kind == .tab)
        #expect(table["B"]?.kind == .navigation)
        #expect(table["C"]?.kind == .view)
        #expect(table["D"] == nil)
    }

    @Test("unique ids: each at its own index")
    func uniqueIDs() {
        let table = ControllerTable((0..<5).map { ControllerSpec(id: ControllerID("c\($0)")) })
        #expect((0..<5).map(table.position(ofControllerAt:)) == Array(0..<5))
        #expect(table["c3"]?.id == "c3")
    }

    @Test("links by position: a parent named only in the links is added after the order")
    func linksAddUnknownIDs() {
        var placed: [[Int]] = []
        let plain = HierarchyLinks(order: ["R", "A", "R", "B"]) { placed.append([$0, $1]) }
        #expect(placed == [[0, 0], [1, 1], [2, 0], [3, 2]])
        #expect(plain.ids == ["R", "A", "B"])
        let links = HierarchyLinks(order: ["R", "A"], parentOf: ["A": "R", "X": "Y"])
        #expect(links.orderCount == 2)
        #expect(Set(links.ids.dropFirst(2)) == ["X", "Y"])
        #expect(links[parentOf: "A"] == "R")
        #expect(links[parentOf: "X"] == "Y")
        #expect(links[parentOf: "R"] == nil)
        #expect(links.position(of: "Y").map { links.parent[$0] } == -1)
    }
}
