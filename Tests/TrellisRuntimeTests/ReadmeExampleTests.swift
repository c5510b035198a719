import Testing
import TrellisModel
import TrellisRuntime

/// The README's Swift example, kept compiling and checked line by line.
@Suite struct ReadmeExampleTests {
    struct HalfWidthSidebar: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator,
                                in vc: isolated any ViewControllerContext) async {
            vc.note("before super: \(vc.size)")
            await vc.superViewWillTransition(to: size, with: coordinator)
            vc.note("after the whole subtree")
            coordinator.animate(alongsideTransition: { _ in }, completion: { _ in })
        }

        func size(forChild child: ControllerID, parentSize: Size,
                  in vc: isolated any ViewControllerContext) -> Size {
            child == "sidebar" ? Size(parentSize.width / 2, parentSize.height)
                               : vc.superSize(forChild: child, parentSize: parentSize)
        }
    }

    @Test func halfWidthSidebarRotates() async throws {
        let window = try await Window(HierarchyDescription(
            windowSize: Size(1024, 768),
            windowTraits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular),
            root: "R",
            controllers: [
                ControllerDescription("R", children: ["sidebar", "content"], behavior: HalfWidthSidebar()),
                ControllerDescription("sidebar"),
                ControllerDescription("content"),
            ]))
        await window.start()
        let before = window.environment.recorder.count
        try await window.perform(.resizeWindow(Size(768, 1024)))
        let lines = window.environment.recorder.events(after: before).map(\.canonicalLine)
        #expect(lines == [
            "R viewWillTransition(to: 768x1024)",
            "R note before super: 1024x768",
            "R sizeForChild(sidebar, parent: 768x1024) -> 384x1024",
            "sidebar viewWillTransition(to: 384x1024)",
            "R sizeForChild(content, parent: 768x1024) -> 768x1024",
            "content viewWillTransition(to: 768x1024)",
            "R note after the whole subtree",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "sidebar viewWillLayoutSubviews",
            "sidebar viewDidLayoutSubviews",
            "content viewWillLayoutSubviews",
            "content viewDidLayoutSubviews",
            "R alongsideTransition",
            "R transitionCompletion",
        ])
        #expect(try await window.controller("sidebar").size == Size(384, 1024))
    }
}
