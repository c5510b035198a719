import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport

/// `superSize(forChild:parentSize:)` finds the child a behaviour is being asked about by the
/// words of the id it was handed; an equal id with other words (built anew, longer than a small
/// string) must get the same answer, by the slot's own comparison.
@Suite("superSize answers alike for the id it was handed and for an equal one built anew")
struct SuperSizeTests {
    /// Passes back the very id it was asked about.
    struct PassesTheID: ViewControllerBehavior {
        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            vc.superSize(forChild: child, parentSize: parentSize)
        }
    }

    /// Passes an equal id in new storage: its words are not the handed id's.
    struct PassesACopy: ViewControllerBehavior {
        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            vc.superSize(forChild: ControllerID(String(decoding: Array(child.name.utf8), as: UTF8.self)), parentSize: parentSize)
        }
    }

    /// Asks about the other column: the asked slot must not answer for it.
    struct PassesTheOther: ViewControllerBehavior {
        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            let other: ControllerID = child == "primary-column-controller" ? "secondary-column-controller" : "primary-column-controller"
            return vc.superSize(forChild: other, parentSize: parentSize)
        }
    }

    /// The lines of a regular split view's start and two rotations, its two columns named past
    /// a small string's 15 bytes, the split's behaviour `behavior`: the columns' sizes differ by
    /// slot (R5), so an answer for the wrong slot would show.
    static func lines(_ behavior: any ViewControllerBehavior) async throws -> [String] {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "S",
            controllers: [
                ControllerDescription("S", kind: .split, children: ["primary-column-controller", "secondary-column-controller"], behavior: behavior),
                ControllerDescription("primary-column-controller"), ControllerDescription("secondary-column-controller"),
            ]))
        await window.start()
        for size in [Size(768, 1024), Pad.size] {
            try await window.perform(.environmentChange(size: size, traits: nil))
        }
        return window.environment.recorder.events(after: 0).map(\.canonicalLine)
    }

    @Test("the handed id, an equal copy and the default behaviour give one trace, the columns sized by their slots")
    func handedAndCopiedIDsAgree() async throws {
        let plain = try await Self.lines(DefaultBehavior())
        #expect(try await Self.lines(PassesTheID()) == plain)
        #expect(try await Self.lines(PassesACopy()) == plain)
        let queries = plain.filter { $0.hasPrefix("S sizeForChild") }
        #expect(queries.count == 4)
        // The two columns get different widths: the slot decided each answer.
        #expect(Set(queries.map { $0.split(separator: " ").last ?? "" }).count > 1)
    }

    @Test("superSize about a child other than the one being asked about answers for that child")
    func otherChildGetsItsOwnAnswer() async throws {
        let plain = try await Self.lines(DefaultBehavior()).filter { $0.hasPrefix("S sizeForChild") }
        let swapped = try await Self.lines(PassesTheOther()).filter { $0.hasPrefix("S sizeForChild") }
        let answer = { (line: String) in line.split(separator: " ").last ?? "" }
        #expect(swapped.count == plain.count)
        // Queries come in pairs, primary then secondary: each answered with the other's size.
        for pair in stride(from: 0, to: min(plain.count, swapped.count) - 1, by: 2) {
            #expect(answer(swapped[pair]) == answer(plain[pair + 1]))
            #expect(answer(swapped[pair + 1]) == answer(plain[pair]))
        }
    }
}
