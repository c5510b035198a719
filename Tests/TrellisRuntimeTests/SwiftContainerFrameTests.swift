import Testing
@testable import TrellisRuntime
import TrellisModel
import TrellisTestSupport
import TrellisTrace

// SPEC R2a ("a Swift behaviour's layout may set its children's frames itself, else the runtime
// sizes them by the behaviour's own SFC answer without tracing a query"), R10 (the size changes
// at layout) and R61 (containers place their children). Every frame below is worked out by hand.

/// Puts its children side by side, each an equal share of its width, in `viewWillLayoutSubviews`
/// (or `viewDidLayoutSubviews`), as UIKit code sets `child.view.frame` there. It leaves
/// `size(forChild:)` UIKit's (the parent's size), so any other size would be the runtime's.
struct SideBySide: ViewControllerBehavior {
    var inDidLayout = false

    func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
        if !inDidLayout { place(vc) }
    }

    func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
        if inDidLayout { place(vc) }
    }

    private func place(_ vc: isolated any ViewControllerContext) {
        let width = vc.size.width / Double(max(1, vc.children.count))
        for (index, child) in vc.children.enumerated() {
            vc.setFrame(Rect(x: width * Double(index), y: 0, width: width, height: vc.size.height), ofChild: child)
        }
    }
}

/// A window whose root `R` has the behaviour and two plain children `A` and `B`, on an iPad.
private func sideBySideWindow(_ behavior: any ViewControllerBehavior) async throws -> Window {
    let window = try await Window(HierarchyDescription(
        windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
        controllers: [ControllerDescription("R", children: ["A", "B"], behavior: behavior), ControllerDescription("A"), ControllerDescription("B")]))
    await window.start()
    return window
}

/// The frame each controller's layout events carried, in order (`viewWillLayoutSubviews` holds it).
private func layoutFrames(_ events: [TraceEvent]) -> [String] {
    events.compactMap { event in event.message.frame.map { "\(event.controller) \($0)" } }
}

@Suite("R2a, R61: a Swift container's layout sets its children's frames")
struct SwiftContainerFrameTests {
    /// The first layout gives each child the frame the layout hook set: no query, no
    /// `viewWillTransition`, each child laid out at its frame.
    @Test(arguments: [false, true])
    func theFirstLayoutGivesTheFramesTheHookSet(inDidLayout: Bool) async throws {
        let window = try await sideBySideWindow(SideBySide(inDidLayout: inDidLayout))
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 512, height: 768))
        #expect(await window.frame(of: "B") == Rect(x: 512, y: 0, width: 512, height: 768))
        #expect(try await window.controller("B").frame == Rect(x: 512, y: 0, width: 512, height: 768))
        let events = window.environment.recorder.events(after: 0)
        #expect(layoutFrames(events) == ["R 0,0 1024x768", "A 0,0 512x768", "B 512,0 512x768"])
        #expect(events.map(\.canonicalLine) == [
            "R viewWillLayoutSubviews", "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews", "A viewDidLayoutSubviews",
            "B viewWillLayoutSubviews", "B viewDidLayoutSubviews",
        ])
    }

    /// On rotation the default `viewWillTransition` asks SFC (UIKit's default: the parent size)
    /// and sends it; the layout then applies the hook's frames, which the children take (R10).
    @Test(arguments: [false, true])
    func afterRotationTheChildrenTakeTheFramesTheHookSet(inDidLayout: Bool) async throws {
        let window = try await sideBySideWindow(SideBySide(inDidLayout: inDidLayout))
        let before = window.environment.recorder.count
        try await window.perform(.environmentChange(size: Size(768, 1024), traits: nil))
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 384, height: 1024))
        #expect(await window.frame(of: "B") == Rect(x: 384, y: 0, width: 384, height: 1024))
        #expect(try await window.controller("A").size == Size(384, 1024))
        #expect(try await window.controller("B").frame == Rect(x: 384, y: 0, width: 384, height: 1024))
        let events = window.environment.recorder.events(after: before)
        #expect(layoutFrames(events) == ["R 0,0 768x1024", "A 0,0 384x1024", "B 384,0 384x1024"])
        #expect(events.map(\.canonicalLine).filter { $0.contains("sizeForChild") } == [
            "R sizeForChild(A, parent: 768x1024) -> 768x1024",
            "R sizeForChild(B, parent: 768x1024) -> 768x1024",
        ])
    }

    /// A child whose frame the hook changes gets its layout pass although no `viewWillTransition`
    /// reached it (R4 skipped it: its SFC answer did not change); a child only moved gets none.
    @Test func aChildTheHookResizesIsLaidOutWithoutAViewWillTransition() async throws {
        struct Fixed: ViewControllerBehavior {
            func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
                Size(100, 100)
            }

            func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
                // A follows the container's height; B only moves.
                vc.setFrame(Rect(x: 0, y: 0, width: 100, height: vc.size.height), ofChild: "A")
                vc.setFrame(Rect(x: vc.size.width - 100, y: 0, width: 100, height: 100), ofChild: "B")
            }
        }
        let window = try await sideBySideWindow(Fixed())
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 100, height: 768))
        let lines = try await window.lines(of: .environmentChange(size: Size(768, 1024), traits: nil))
        #expect(lines == [
            "R viewWillTransition(to: 768x1024)",
            "R sizeForChild(A, parent: 768x1024) -> 100x100",
            "A viewWillTransition(to: 100x100)",
            "R sizeForChild(B, parent: 768x1024) -> 100x100",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A viewDidLayoutSubviews",
        ])
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 100, height: 1024))
        #expect(await window.frame(of: "B") == Rect(x: 668, y: 0, width: 100, height: 100))
        #expect(try await window.controller("B").frame == Rect(x: 668, y: 0, width: 100, height: 100))
    }

    /// R2a's "else": a child the hook framed in `viewWillLayoutSubviews` of the first layout is
    /// not sized by the behaviour's SFC (its code does not run for it); the other child is.
    @Test func theFirstLayoutAsksNoSizeOfAFramedChild() async throws {
        struct FramesA: ViewControllerBehavior {
            func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
                vc.note("size asked for \(child)")
                return Size(parentSize.width / 4, parentSize.height)
            }

            func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
                vc.setFrame(Rect(x: 10, y: 20, width: 300, height: 400), ofChild: "A")
            }
        }
        let window = try await sideBySideWindow(FramesA())
        #expect(await window.frame(of: "A") == Rect(x: 10, y: 20, width: 300, height: 400))
        #expect(await window.frame(of: "B") == Rect(x: 0, y: 0, width: 256, height: 768))
        let lines = window.environment.recorder.canonicalLines
        #expect(lines.filter { $0.contains("size asked") } == ["R note size asked for B"])
        #expect(!lines.contains { $0.contains("sizeForChild") })
    }

    /// The frame the hook sets stands over the scenario's layout rule in the same pass.
    @Test func aFrameStandsOverTheLayoutRule() async throws {
        struct FramesB: ViewControllerBehavior {
            func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
                vc.setFrame(Rect(x: 0, y: 500, width: 200, height: 200), ofChild: "B")
            }
        }
        let window = try await Window(HierarchyDescription(
            windowSize: Pad.size, windowTraits: Pad.traits, root: "R",
            controllers: [ControllerDescription("R", children: ["A", "B"], behavior: FramesB(), layout: .column),
                          ControllerDescription("A"), ControllerDescription("B")]))
        await window.start()
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 1024, height: 768))
        #expect(await window.frame(of: "B") == Rect(x: 0, y: 500, width: 200, height: 200))
    }

    /// Misuse is an `error` line, as every other misuse of the context, and changes nothing:
    /// a stranger, a negative or infinite size, and a frame set outside the layout hooks.
    @Test func misuseIsAnErrorAndChangesNothing() async throws {
        struct Misuse: ViewControllerBehavior {
            func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
                vc.setFrame(Rect(x: 0, y: 0, width: 10, height: 10), ofChild: "Z")
                vc.setFrame(Rect(x: 0, y: 0, width: -10, height: 10), ofChild: "A")
                vc.setFrame(Rect(x: 0, y: 0, width: .infinity, height: 10), ofChild: "B")
            }

            func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
                vc.setFrame(Rect(x: 5, y: 5, width: 10, height: 10), ofChild: "A")
                return true
            }
        }
        let window = try await sideBySideWindow(Misuse())
        let errors = window.environment.recorder.canonicalLines.filter { $0.hasPrefix("R error") }
        #expect(errors == [
            "R error setFrame: Z is not a child of R",
            "R error setFrame: 0,0 -10x10 for A is not a frame: its width is negative",
            "R error setFrame: 0,0 infx10 for B is not a frame: its width is infinite",
        ])
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 1024, height: 768))
        #expect(await window.frame(of: "B") == Rect(x: 0, y: 0, width: 1024, height: 768))
        let lines = try await window.lines(of: .action("tap", on: "R", value: nil))
        #expect(lines == [
            "R action(tap)",
            "R error setFrame: called outside viewWillLayoutSubviews and viewDidLayoutSubviews (a frame is set when the view is laid out)",
        ])
        #expect(await window.frame(of: "A") == Rect(x: 0, y: 0, width: 1024, height: 768))
    }

    /// The error names the hook it was made in as its cause, as every misuse does.
    @Test func aMisuseInALayoutHookIsCausedByIt() async throws {
        struct Stranger: ViewControllerBehavior {
            func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
                vc.setFrame(Rect(x: 0, y: 0, width: 1, height: 1), ofChild: "Z")
            }
        }
        let window = try await sideBySideWindow(Stranger())
        let events = window.environment.recorder.events(after: 0)
        let error = try #require(events.first { $0.canonicalLine.hasPrefix("R error") })
        let cause = try #require(events.first { $0.id == error.cause })
        #expect(cause.canonicalLine == "R viewDidLayoutSubviews")
    }

    /// Per-child memory does not grow: the pass's mark sits in what was the slot's padding.
    @Test func aSlotIsNoLarger() {
        #expect(MemoryLayout<ChildSlot>.stride <= 40)
        #expect(MemoryLayout<LayoutHookState>.size == 1)
    }
}
