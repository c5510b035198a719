import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace

@Test func rotationReachesEveryChildDepthFirst() async throws {
    let hierarchy = HierarchyDescription(
        windowSize: Size(320, 568),
        windowTraits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2),
        root: "R",
        controllers: [
            ControllerDescription("R", children: ["A", "B"]),
            ControllerDescription("A", children: ["A1", "A2"]),
            ControllerDescription("A1"), ControllerDescription("A2"), ControllerDescription("B"),
        ])
    let window = try await Window(hierarchy)
    await window.start()
    let before = window.environment.recorder.count
    try await window.perform(.environmentChange(size: Size(568, 320), traits: TraitCollection(verticalSizeClass: .compact)))
    let lines = window.environment.recorder.events(after: before).map(\.canonicalLine)
    print(lines.joined(separator: "\n"))
    #expect(lines.first == "R willTransition(to: h=compact v=compact idiom=phone scale=2)")
}
