import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestKit

// The tutorial of docs/testing.md, kept compiling and passing.

/// WWDC 2014's "one-third sidebar": a custom presentation controller whose presented controller
/// takes a third of the container's width.
struct OneThirdSidebar: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width / 3, parentSize.height)
    }

    /// "A third of the display and right-aligned": the size above, at the container's right edge.
    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        let size = self.size(forPresented: pc.presentedID, parentSize: bounds.size, in: pc)
        return Rect(origin: Point(x: bounds.size.width - size.width, y: 0), size: size)
    }
}

/// A container that grants half of what a child asks for.
struct HalfGrant: ViewControllerBehavior {
    func preferredContentSizeDidChange(forChild child: ControllerID, preferredSize: Size, in vc: isolated any ViewControllerContext) async {
        guard let current = vc.frame(ofChild: child)?.size else { return }
        let granted = Size(current.width + (preferredSize.width - current.width) / 2,
                           current.height + (preferredSize.height - current.height) / 2)
        await vc.resize(child: child, to: granted)
    }
}

@Suite("Tutorial: the one-third sidebar")
struct OneThirdSidebarTutorial {
    @Test func aloneItGivesAThirdOfTheWidth() async {
        let pc = await PresentationControllerUnderTest(
            presented: "S", style: .custom,
            description: PresentationControllerDescription(behavior: OneThirdSidebar()),
            containerSize: Size(1024, 768))
        let report = await pc.viewWillTransition(to: Size(768, 1024))
        #expect(report.queries.map(\.answer) == [Size(256, 1024)])
        #expect(report.forwardedSizes == ["S": Size(256, 1024)])
        #expect(report.lines == [
            "pc:S viewWillTransition(to: 768x1024)",
            "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",
            "S viewWillTransition(to: 256x1024)",
            "pc:S containerViewWillLayoutSubviews",
            "pc:S frameOfPresentedViewInContainerView -> 512,0 256x1024",
            "pc:S containerViewDidLayoutSubviews",
        ])
    }

    @Test func inAHierarchyItRotatesWithItsPresenter() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R")
            ViewController("S", modalPresentationStyle: .custom,
                           presentationController: PresentationControllerDescription(behavior: OneThirdSidebar()))
        })
        try await store.present("S", from: "R")
        try store.expect([
            "R present(S, style: custom)",
            "S viewWillAppear",
            "pc:S presentationTransitionWillBegin(animated: true)",
            "pc:S sizeForChild(S, parent: 1024x768) -> 341.333x768",
            "pc:S containerViewWillLayoutSubviews",
            "pc:S frameOfPresentedViewInContainerView -> 682.667,0 341.333x768",
            "pc:S containerViewDidLayoutSubviews",
            "S viewWillLayoutSubviews",
            "S viewDidLayoutSubviews",
            "pc:S presentationTransitionDidEnd(completed: true)",
            "S viewDidAppear",
            "R presentCompletion(S)",
        ])
        try await store.resizeWindow(to: Size(768, 1024))
        try store.expect([
            "R viewWillTransition(to: 768x1024)",
            "pc:S viewWillTransition(to: 768x1024)",
            "pc:S sizeForChild(S, parent: 768x1024) -> 256x1024",
            "S viewWillTransition(to: 256x1024)",
        ], kinds: nil)
        try store.finish()
    }
}

@Suite("Tutorial: a container that grants half")
struct HalfGrantTutorial {
    @Test func aloneItGrantsHalfAndSendsAReceipt() async throws {
        let vc = await ControllerUnderTest(
            "N", children: ["V"], behavior: HalfGrant(), size: Size(400, 400))
        let report = await vc.preferredContentSizeDidChange(forChild: "V", preferredSize: Size(400, 600))
        #expect(report.forwardedSizes == ["V": Size(400, 500)])  // the receipt (R25)
        #expect(await vc.controller.frame(ofChild: "V")?.size == Size(400, 500))
    }

    @Test func aloneItAsksNothingOfItsOwnContainer() async {
        let vc = await ControllerUnderTest("N", children: ["V"], behavior: HalfGrant(), size: Size(400, 400))
        let report = await vc.preferredContentSizeDidChange(forChild: "V", preferredSize: Size(400, 600))
        #expect(report.askedOfContainer.isEmpty)  // R22: exactly one level
    }

    @Test func inAHierarchyTheChildKeepsWhatItAskedFor() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R", behavior: HalfGrant()) {
                ViewController("V") { ViewController("V1") }
            }
        })
        try await store.setPreferredContentSize(Size(320, 700), of: "V")
        try store.expect([
            "R preferredContentSizeDidChange(forChild: V)",
            "V viewWillTransition(to: 320x634)",
            "V sizeForChild(V1, parent: 320x634) -> 320x634",
            "V1 viewWillTransition(to: 320x634)",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "V viewWillLayoutSubviews",
            "V viewDidLayoutSubviews",
            "V1 viewWillLayoutSubviews",
            "V1 viewDidLayoutSubviews",
        ])
        #expect(try await store.controller("V").preferredContentSize == Size(320, 700))  // R26
        #expect(try await store.controller("V").size == Size(320, 634))
    }
}
