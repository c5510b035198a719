import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace

/// Rules that need Swift behaviours: code after super (R11), what a controller sees during a
/// transition (R10, R14), where a suppression is recorded (R8), and coordinator blocks (§2).
@Suite("behaviours written in Swift")
struct BehaviorRuleTests {
    /// Notes before and after awaiting super.
    struct AroundSuper: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.note("before super")
            await vc.superViewWillTransition(to: size, with: coordinator)
            vc.note("after super")
        }
    }

    @Test("R11: code after an awaited super runs after the whole forwarded subtree handled the message")
    func r11CodeAfterSuper() async throws {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A", "B"]),
            ControllerDescription("A", children: ["A1", "A2"], behavior: AroundSuper()),
            ControllerDescription("A1"), ControllerDescription("A2"), ControllerDescription("B"),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A note before super",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "A sizeForChild(A2, parent: 568x320) -> 568x320",
            "A2 viewWillTransition(to: 568x320)",
            "A note after super",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A", "A1", "A2", "B"))
    }

    /// Skips super, leaving a note.
    struct SkipsSuper: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.note("not calling super")
        }
    }

    @Test("R8: the suppression is recorded after the override returns, naming what was cut off")
    func r8SuppressionAfterTheOverride() async throws {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A", "B"]),
            ControllerDescription("A", children: ["A1"], behavior: SkipsSuper()),
            ControllerDescription("A1"), ControllerDescription("B"),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines.filter { !$0.contains("LayoutSubviews") } == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A note not calling super",
            "A suppressed viewWillTransition (cut: A1)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ])
    }

    /// Notes what the controller reports at each point of a transition.
    struct Observer: ViewControllerBehavior {
        func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.note("in willTransition traits=\(vc.traitCollection)")
            await vc.superWillTransition(to: traits, with: coordinator)
        }

        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.note("in viewWillTransition size=\(vc.size) traits=\(vc.traitCollection)")
            await vc.superViewWillTransition(to: size, with: coordinator)
        }

        func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) {
            vc.note("in traitCollectionDidChange traits=\(vc.traitCollection)")
        }

        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            vc.note("in viewWillLayoutSubviews size=\(vc.size)")
        }
    }

    @Test("R10 + R14: inside willTransition and viewWillTransition a controller still reports its old size and traits; the traits change before traitCollectionDidChange, the size at layout")
    func r14OldTraitsInsideViewWillTransition() async throws {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", behavior: Observer()),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(
            size: Phone.landscapeSize, traits: TraitCollection(verticalSizeClass: .compact)))
        #expect(lines == [
            "R willTransition(to: \(Phone.landscape))",
            "A willTransition(to: \(Phone.landscape))",
            "A note in willTransition traits=\(Phone.portrait)",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A note in viewWillTransition size=320x568 traits=\(Phone.portrait)",
            "R traitCollectionDidChange(previous: \(Phone.portrait))",
            "A traitCollectionDidChange(previous: \(Phone.portrait))",
            "A note in traitCollectionDidChange traits=\(Phone.landscape)",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A note in viewWillLayoutSubviews size=568x320",
            "A viewDidLayoutSubviews",
        ])
        let a = try await window.controller("A")
        #expect(await a.size == Phone.landscapeSize)
        #expect(await a.traitCollection.verticalSizeClass == .compact)
    }

    /// Registers coordinator blocks in viewWillTransition, then calls super.
    struct Coordinated: ViewControllerBehavior {
        let log: BlockLog
        var alongside = true
        var completion = true

        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            let id = vc.id
            let log = log
            let expected = coordinator.transitionID
            let alongsideBlock: @Sendable (TransitionCoordinatorContext) -> Void = { context in
                log.append("\(id) alongside same-transition=\(context.transitionID == expected) animated=\(context.isAnimated)")
            }
            let completionBlock: @Sendable (TransitionCoordinatorContext) -> Void = { context in
                log.append("\(id) completion same-transition=\(context.transitionID == expected) cancelled=\(context.isCancelled)")
            }
            coordinator.animate(alongsideTransition: alongside ? alongsideBlock : nil, completion: completion ? completionBlock : nil)
            await vc.superViewWillTransition(to: size, with: coordinator)
        }
    }

    @Test("coordinator blocks run at the transition's end, after the layout pass: every alongside block, then every completion block, in registration order")
    func coordinatorBlocksAfterLayout() async throws {
        let log = BlockLog()
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A", "B"]),
            ControllerDescription("A", children: ["A1"], behavior: Coordinated(log: log)),
            ControllerDescription("A1", behavior: Coordinated(log: log, alongside: false)),
            ControllerDescription("B", behavior: Coordinated(log: log, completion: false)),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(size: Phone.landscapeSize, traits: nil))
        #expect(lines == [
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "A sizeForChild(A1, parent: 568x320) -> 568x320",
            "A1 viewWillTransition(to: 568x320)",
            "R sizeForChild(B, parent: 568x320) -> 568x320",
            "B viewWillTransition(to: 568x320)",
        ] + Lines.layout("R", "A", "A1", "B") + [
            "A alongsideTransition",
            "B alongsideTransition",
            "A transitionCompletion",
            "A1 transitionCompletion",
        ])
        #expect(log.all == [
            "A alongside same-transition=true animated=true",
            "B alongside same-transition=true animated=true",
            "A completion same-transition=true cancelled=false",
            "A1 completion same-transition=true cancelled=false",
        ])
        #expect(window.environment.simulatedTime > 0)
    }

    /// Registers one block in willTransition and one in viewWillTransition.
    struct CoordinatedInBoth: ViewControllerBehavior {
        let log: BlockLog

        func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            let log = log
            let id = coordinator.transitionID
            coordinator.animate(alongsideTransition: { context in log.append("traits block, transition \(context.transitionID == id)") })
            await vc.superWillTransition(to: traits, with: coordinator)
        }

        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            let log = log
            let id = coordinator.transitionID
            coordinator.animate(alongsideTransition: nil, completion: { context in log.append("size block, transition \(context.transitionID == id)") })
            await vc.superViewWillTransition(to: size, with: coordinator)
        }
    }

    @Test("one environment change is one transition: blocks registered in willTransition and in viewWillTransition share it and run once, after layout")
    func coordinatorOneTransitionPerChange() async throws {
        let log = BlockLog()
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", behavior: CoordinatedInBoth(log: log)),
        ]))
        await window.start()
        let lines = try await window.lines(of: .environmentChange(
            size: Phone.landscapeSize, traits: TraitCollection(verticalSizeClass: .compact)))
        #expect(Array(lines.suffix(6)) == Lines.layout("R", "A") + ["A alongsideTransition", "A transitionCompletion"])
        #expect(log.all == ["traits block, transition true", "size block, transition true"])
        // A second change is a new transition: the first one's blocks do not run again.
        _ = try await window.lines(of: .environmentChange(size: Phone.size, traits: nil))
        #expect(log.all == ["traits block, transition true", "size block, transition true", "size block, transition true"])
    }

    @Test("R25: a preferred-size receipt is a transition of its own: blocks registered during it run after its layout pass")
    func coordinatorOnAReceipt() async throws {
        let log = BlockLog()
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["N"]),
            ControllerDescription("N", children: ["V"], grant: .all),
            ControllerDescription("V", behavior: Coordinated(log: log)),
        ]))
        await window.start()
        let lines = try await window.lines(of: .setPreferredContentSize("V", Size(200, 300)))
        #expect(lines == [
            "N preferredContentSizeDidChange(forChild: V)",
            "V viewWillTransition(to: 200x300)",
        ] + Lines.layout("N", "V") + [
            "V alongsideTransition",
            "V transitionCompletion",
        ])
        #expect(log.all == [
            "V alongside same-transition=true animated=true",
            "V completion same-transition=true cancelled=false",
        ])
        let v = try await window.controller("V")
        #expect(await v.size == Size(200, 300))
        #expect(await v.preferredContentSize == Size(200, 300))
    }
}
