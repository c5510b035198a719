import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace

/// Notes the child it is asked the size of, by the id the router hands it (kept by the
/// controller beside its delivery, not read from the child), then answers as super does.
private struct NotesAskedChild: ViewControllerBehavior {
    func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
        vc.note("asked \(child)")
        return vc.superSize(forChild: child, parentSize: parentSize)
    }
}

/// A behaviour with a stored property: controllers with different values must not share it
/// (behaviours without stored properties share one settings box).
private struct Tagged: ViewControllerBehavior {
    let tag: String

    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        vc.note(tag)
        await vc.superViewWillTransition(to: size, with: coordinator)
    }
}

/// What a controller with a Swift behaviour keeps for its size walk — its children's ids, the
/// child being asked, its settings — follows pushes and pops, and is its own.
@Suite("a Swift behaviour's size walk state")
struct SwiftBehaviorSlotTests {
    static func window() async throws -> Window {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["nav", "split"], behavior: Tagged(tag: "first")),
            ControllerDescription("nav", kind: .navigation, children: ["n0"], behavior: NotesAskedChild()),
            ControllerDescription("n0", behavior: Tagged(tag: "second")),
            ControllerDescription("pushed", behavior: NotesAskedChild()),
            ControllerDescription("split", kind: .split, children: ["primary", "secondary"], behavior: NotesAskedChild()),
            ControllerDescription("primary"),
            ControllerDescription("secondary"),
        ]))
        await window.start()
        return window
    }

    /// Each `asked` note of `controller` with the child its next size query names.
    static func asked(_ lines: [String], by controller: String) -> [(noted: String, queried: String)] {
        lines.indices.compactMap { index in
            let prefix = "\(controller) note asked ", queryPrefix = "\(controller) sizeForChild("
            guard lines[index].hasPrefix(prefix), index + 1 < lines.count else { return nil }
            let noted = String(lines[index].dropFirst(prefix.count))
            // The query's line: `nav sizeForChild(n0, parent: 568x320) -> 568x320`.
            // No query follows when the layout sized the child by the behaviour's answer (R2a:
            // a push or the first layout asks no sizeForChild).
            guard lines[index + 1].hasPrefix(queryPrefix) else { return nil }
            return (noted, String(lines[index + 1].dropFirst(queryPrefix.count).prefix { $0 != "," }))
        }
    }

    @Test("the child a behaviour is asked about is the one queried, after a push and a pop too")
    func askedChildFollowsPushAndPop() async throws {
        let window = try await Self.window()
        var asked: [String] = []
        for event: WindowEvent in [
            .environmentChange(size: Phone.landscapeSize, traits: nil), .push("pushed", onto: "nav"),
            .environmentChange(size: Phone.size, traits: nil), .pop("nav"), .environmentChange(size: Phone.landscapeSize, traits: nil),
        ] {
            let lines = try await window.lines(of: event)
            for pair in Self.asked(lines, by: "nav") {
                #expect(pair.noted == pair.queried, "\(lines)")
                asked.append(pair.noted)
            }
            let split = Self.asked(lines, by: "split")
            #expect(split.allSatisfy { $0.noted == $0.queried }, "\(lines)")
        }
        #expect(asked.contains("n0"))
        #expect(asked.contains("pushed"))
        #expect(asked.last == "n0")
    }

    @Test("the child asked about after showDetail replaced a split view's secondary column is the new one")
    func askedChildFollowsReplacement() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "split",
            controllers: [
                ControllerDescription("split", kind: .split, children: ["primary", "secondary"], behavior: NotesAskedChild()),
                ControllerDescription("primary"),
                ControllerDescription("secondary"),
                ControllerDescription("detail"),
            ]))
        await window.start()
        _ = try await window.lines(of: .showDetail("detail", from: "primary"))
        let lines = try await window.lines(of: .environmentChange(size: Size(768, 1024), traits: nil))
        let asked = Self.asked(lines, by: "split")
        #expect(asked.map(\.noted) == ["primary", "detail"], "\(lines)")
        #expect(asked.allSatisfy { $0.noted == $0.queried }, "\(lines)")
    }

    @Test("behaviours with stored properties keep their own values")
    func storedPropertiesAreNotShared() async throws {
        let window = try await Self.window()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines.contains("R note first"))
        #expect(lines.contains("n0 note second"))
    }
}
