import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport

/// A hierarchy built in Swift is checked as a scenario file is: every id known and used once,
/// one parent each, no cycle — with the offending controllers named, and never a hang.
@Suite("hierarchy descriptions are validated")
struct HierarchyValidationTests {
    static func rejection(_ controllers: [ControllerDescription], root: ControllerID = "R") -> RuntimeError? {
        do {
            _ = try Phone.hierarchy(controllers, root: root).validate()
            return nil
        } catch {
            return error
        }
    }

    @Test("an id described twice, a child not described, a child of two parents")
    func idsAndParents() {
        #expect(Self.rejection([ControllerDescription("R"), ControllerDescription("R")]) == .duplicateController("R"))
        #expect(Self.rejection([ControllerDescription("R", children: ["A"])]) == .unknownController("A"))
        #expect(Self.rejection([
            ControllerDescription("R", children: ["A", "B"]), ControllerDescription("A", children: ["C"]),
            ControllerDescription("B", children: ["C"]), ControllerDescription("C"),
        ]) == .usedTwice("C", firstParent: "A", secondParent: "B"))
    }

    @Test("an id a trace line could not tell apart is refused, as a scenario file's is: white space, ':', the reserved words")
    func idsTraceLinesCannotName() {
        for id: ControllerID in ["Ro ot", "pc:X", "a,b", "window", ""] {
            let expected = ControllerID.problem(with: id.name)
            #expect(expected != nil, "\(id)")
            #expect(Self.rejection([ControllerDescription("R", children: [id]), ControllerDescription(id)]) == expected.map(RuntimeError.invalidValue))
        }
        #expect(ControllerID.problem(with: "Ro ot") == "controller id \"Ro ot\" may not contain white space or any of ( ) , : \" # =")
        #expect(ControllerID.problem(with: "Item~1") == nil)
    }

    @Test("a cycle is named parent to child, from its first controller in the list")
    func cycle() {
        #expect(Self.rejection([
            ControllerDescription("R"), ControllerDescription("X", children: ["Y"]), ControllerDescription("Y", children: ["X"]),
        ]) == .cycle(["X", "Y", "X"]))
        #expect(Self.rejection([ControllerDescription("R"), ControllerDescription("X", children: ["X"])]) == .cycle(["X", "X"]))
    }

    /// A walks up to B, and B and C are each other's parents: walking up from A never comes
    /// back to A. Checking each controller by walking up until it came back looped forever here.
    @Test("a controller listed first that leads into a cycle without being on it: the cycle is found")
    func leadsIntoCycle() {
        #expect(Self.rejection([
            ControllerDescription("R"), ControllerDescription("A"),
            ControllerDescription("B", children: ["A", "C"]), ControllerDescription("C", children: ["B"]),
        ]) == .cycle(["B", "C", "B"]))
    }

    @Test("a chain 20,000 deep is accepted")
    func deepChain() throws {
        let depth = 20_000
        let controllers = (0..<depth).map { index in
            ControllerDescription(ControllerID("c\(index)"), children: index + 1 < depth ? [ControllerID("c\(index + 1)")] : [])
        }
        #expect(try Phone.hierarchy(controllers, root: "c0").validate().count == depth)
    }
}
