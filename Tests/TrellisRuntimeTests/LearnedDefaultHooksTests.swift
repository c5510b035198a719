import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestSupport
import TrellisTrace

/// The router skips a layout hook once it learns that the behaviour's type keeps UIKit's empty
/// default (`DefaultHook`); a hook with code of its own must still run on every layout pass.
@Suite("layout hooks left as the defaults are skipped, the others always run")
struct LearnedDefaultHooksTests {
    /// Overrides nothing but the size transition: its layout hooks are the defaults.
    struct LeavesLayoutHooks: ViewControllerBehavior {}

    /// A wrapper whose hook has code of its own, then calls the wrapped behaviour's default:
    /// the default runs for another type, so the wrapper's hook is not learned as a default.
    struct WrapsDefault: ViewControllerBehavior {
        let wrapped = LeavesLayoutHooks()

        func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) {
            vc.note("will")
            wrapped.viewWillLayoutSubviews(in: vc)
        }
    }

    /// Overrides only `viewDidLayoutSubviews`: `viewWillLayoutSubviews` is learned, this one not.
    struct OnlyDid: ViewControllerBehavior {
        func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) {
            vc.note("did")
        }
    }

    /// Overrides only `size(forChild:)`: `viewWillTransition` is learned as the default, this one not.
    struct OnlySize: ViewControllerBehavior {
        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            vc.note("size")
            return vc.superSize(forChild: child, parentSize: parentSize)
        }
    }

    /// A wrapper whose `viewWillTransition` has code of its own, then calls the wrapped
    /// behaviour's default: not learned, so it runs on every transition.
    struct WrapsTransition: ViewControllerBehavior {
        let wrapped = LeavesLayoutHooks()

        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.note("transition")
            await wrapped.viewWillTransition(to: size, with: coordinator, in: vc)
        }
    }

    /// Overrides only the synchronous `viewWillTransitionBeforeSuper`, answering super. Used by
    /// one test only: its size hooks are learned by the first transition of that test's window.
    struct FirstTransitionBeforeSuper: ViewControllerBehavior {
        func viewWillTransitionBeforeSuper(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) -> SuperStep {
            .callSuper
        }
    }

    /// What `A` of `passes(behavior)` learned its behaviour keeps, after the passes.
    static func learned(_ behavior: any ViewControllerBehavior) async throws -> (viewWillTransition: Bool, sizeForChild: Bool) {
        let window = try await Self.window(behavior)
        for size in [Phone.landscapeSize, Phone.size] {
            try await window.perform(.environmentChange(size: size, traits: nil))
        }
        return try await window.controller("A").learnedSizeWalkDefaults
    }

    static func window(_ behavior: any ViewControllerBehavior) async throws -> Window {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", children: ["A1"], behavior: behavior),
            ControllerDescription("A1"),
        ]))
        await window.start()
        return window
    }

    /// The trace lines of the start and three resizes of a window whose `A` has `behavior`.
    static func passes(_ behavior: any ViewControllerBehavior) async throws -> [[String]] {
        let window = try await Self.window(behavior)
        var passes = [window.environment.recorder.events(after: 0).map(\.canonicalLine)]
        for size in [Phone.landscapeSize, Phone.size, Phone.landscapeSize] {
            passes.append(try await window.lines(of: .environmentChange(size: size, traits: nil)))
        }
        return passes
    }

    @Test("a hook that calls a wrapped behaviour's default still runs on every pass, between its two callbacks")
    func wrapperStillRuns() async throws {
        for lines in try await Self.passes(WrapsDefault()) {
            let will = try #require(lines.firstIndex { $0.hasPrefix("A viewWillLayoutSubviews") })
            let did = try #require(lines.firstIndex { $0.hasPrefix("A viewDidLayoutSubviews") })
            #expect(lines[will + 1] == "A note will")
            #expect(did > will + 1)
            #expect(lines.filter { $0 == "A note will" }.count == 1)
        }
    }

    @Test("an overridden viewDidLayoutSubviews runs on every pass once viewWillLayoutSubviews is learned as the default")
    func overriddenHookStillRuns() async throws {
        for lines in try await Self.passes(OnlyDid()) {
            let will = try #require(lines.firstIndex { $0.hasPrefix("A viewWillLayoutSubviews") })
            let did = try #require(lines.firstIndex { $0.hasPrefix("A viewDidLayoutSubviews") })
            #expect(will < did)
            #expect(lines[did + 1] == "A note did")
            #expect(lines.filter { $0 == "A note did" }.count == 1)
        }
    }

    @Test("a behaviour that leaves both layout hooks gives the default behaviour's trace on every pass")
    func leftHooksGiveTheDefaultTrace() async throws {
        let swift = try await Self.passes(LeavesLayoutHooks())
        let plain = try await Self.passes(DefaultBehavior())
        #expect(swift.count == 4)
        #expect(swift.allSatisfy { $0.contains { $0.hasPrefix("A viewDidLayoutSubviews") } })
        #expect(swift == plain)
    }

    @Test("size hooks left as the defaults are learned per hook, and an overridden one runs on every transition")
    func sizeHooksLearnedPerHook() async throws {
        let left = try await Self.learned(LeavesLayoutHooks())
        #expect(left.viewWillTransition && left.sizeForChild)
        let onlySize = try await Self.learned(OnlySize())
        #expect(onlySize.viewWillTransition && !onlySize.sizeForChild)
        for lines in try await Self.passes(OnlySize()).dropFirst() {
            // A asks its child's size once a transition, through its behaviour every time.
            #expect(lines.filter { $0 == "A note size" }.count == 1)
        }
    }

    @Test("a viewWillTransition that calls a wrapped behaviour's default is not learned and runs on every transition")
    func wrappedTransitionStillRuns() async throws {
        let wraps = try await Self.learned(WrapsTransition())
        #expect(!wraps.viewWillTransition && wraps.sizeForChild)
        for lines in try await Self.passes(WrapsTransition()).dropFirst() {
            let note = try #require(lines.firstIndex(of: "A note transition"))
            #expect(lines[note - 1].hasPrefix("A viewWillTransition"))
            #expect(lines.contains { $0.hasPrefix("A1 viewWillTransition") })
        }
    }

    @Test("what the root learns on the first transition serves every controller of its type: none takes that transition as an async message")
    func firstTransitionLearnedForAll() async throws {
        let behavior = FirstTransitionBeforeSuper()
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A", "B"], behavior: behavior),
            ControllerDescription("A", children: ["A1"], behavior: behavior),
            ControllerDescription("A1", behavior: behavior),
            ControllerDescription("B", behavior: behavior),
        ]))
        await window.start()
        try await window.perform(.environmentChange(size: Phone.landscapeSize, traits: nil))
        // The root gets the window's async message, and learns there; the others were reached
        // by the synchronous walk, which needs no slot (each had made one, before).
        #expect(try await window.controller("R").madeDeliverySlot)
        for id: ControllerID in ["A", "A1", "B"] {
            let made = try await window.controller(id).madeDeliverySlot
            #expect(!made, "\(id)")
        }
        let lines = window.environment.recorder.events(after: 0).map(\.canonicalLine)
        #expect(lines.contains { $0.hasPrefix("A1 viewWillTransition") })
    }
}
