import Testing
import TrellisTestKit

/// SPEC §4.2: a behaviour's `setNeedsLayout()` — the layout pass at the frame the controller has,
/// callbacks included, after the event that asked — as UIKit code asks for one when a trait its
/// layout reads changes without a new size.
@Suite struct SetNeedsLayoutTests {
    /// Two children side by side in a regular width, one above the other in a compact one; a
    /// change of traits asks for a layout.
    struct Columns: ViewControllerBehavior {
        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            let size = vc.size
            if vc.traitCollection.horizontalSizeClass == .compact {
                vc.setFrame(Rect(x: 0, y: 0, width: size.width, height: size.height / 2), ofChild: "A")
                vc.setFrame(Rect(x: 0, y: size.height / 2, width: size.width, height: size.height / 2), ofChild: "B")
            } else {
                vc.setFrame(Rect(x: 0, y: 0, width: size.width / 2, height: size.height), ofChild: "A")
                vc.setFrame(Rect(x: size.width / 2, y: 0, width: size.width / 2, height: size.height), ofChild: "B")
            }
        }

        func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) {
            vc.setNeedsLayout()
        }
    }

    /// A presentation controller that asks for a layout on a tap: refused, it is no view controller.
    struct AsksToo: PresentationControllerBehavior {
        func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
            pc.setNeedsLayout()
            return true
        }
    }

    @Test("a trait change alone re-lays out a container whose layout reads the traits, once asked")
    func aTraitChangeReLaysOut() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R", behavior: Columns()) { ViewController("A"); ViewController("B") }
        })
        await store.expectState(of: "A", ExpectedState(frame: Rect(x: 0, y: 0, width: 512, height: 768)))
        await store.setTraits(TraitCollection(horizontalSizeClass: .compact))
        store.expect([
            "R request setNeedsLayout",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A viewDidLayoutSubviews",
            "B viewWillLayoutSubviews",
            "B viewDidLayoutSubviews",
        ], kinds: ["request", "viewWillLayoutSubviews", "viewDidLayoutSubviews"])
        await store.expectState(of: "A", ExpectedState(frame: Rect(x: 0, y: 0, width: 1024, height: 384)))
        await store.expectState(of: "B", ExpectedState(frame: Rect(x: 0, y: 384, width: 1024, height: 384)))
        await store.finish()
    }

    @Test("a container sized by its size-for-child rule takes its children's sizes again")
    func aDeclarativeRuleIsAppliedAgain() async throws {
        struct Traited: ViewControllerBehavior {
            func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
                vc.traitCollection.horizontalSizeClass == .compact ? parentSize : Size(parentSize.width / 4, parentSize.height)
            }

            func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) {
                vc.setNeedsLayout()
            }
        }
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R", behavior: Traited()) { ViewController("A") }
        })
        await store.expectState(of: "A", ExpectedState(size: Size(256, 768)))
        await store.setTraits(TraitCollection(horizontalSizeClass: .compact))
        store.expect(["R request setNeedsLayout", "R viewWillLayoutSubviews", "A viewWillLayoutSubviews"],
                     kinds: ["request", "viewWillLayoutSubviews"])
        await store.expectState(of: "A", ExpectedState(size: Size(1024, 768)))
        await store.finish()
    }

    @Test("a presentation controller's setNeedsLayout is refused with a warning")
    func aPresentationControllersIsRefused() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R")
            ViewController("S", modalPresentationStyle: .custom, presentationController: PresentationControllerDescription(behavior: AsksToo()))
        })
        await store.present("S", from: "R", animated: false)
        store.skipReceivedEvents()
        await store.action("tap", on: "pc:S")
        store.expect([
            "pc:S action(tap)",
            "pc:S request setNeedsLayout",
            "pc:S warning setNeedsLayout: pc:S is not a view controller",
        ])
        await store.finish()
    }
}
