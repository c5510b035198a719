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

    /// The trace lines of the start and three resizes of a window whose `A` has `behavior`.
    static func passes(_ behavior: any ViewControllerBehavior) async throws -> [[String]] {
        let window = try await Window(Phone.hierarchy([
            ControllerDescription("R", children: ["A"]),
            ControllerDescription("A", children: ["A1"], behavior: behavior),
            ControllerDescription("A1"),
        ]))
        await window.start()
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
}
