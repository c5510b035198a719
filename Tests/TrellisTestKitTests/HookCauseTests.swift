import Testing
import TrellisModel
import TrellisRuntime
import TrellisTestKit
import TrellisTrace

/// Notes the name of every hook it is called in, asks its own `sizeForChild` there (a query),
/// and makes a request that changes nothing (its first child's override traits removed).
struct NotesEveryHook: ViewControllerBehavior {
    private func inHook(_ name: String, _ vc: isolated any ViewControllerContext) {
        vc.note(name)
        guard let child = vc.children.first else { return }
        _ = vc.sizeForChild(child, parentSize: vc.size)
        vc.setOverrideTraitCollection(nil, forChild: child)
    }

    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        inHook("viewWillTransition", vc)
        await vc.superViewWillTransition(to: size, with: coordinator)
    }

    func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
        inHook("willTransition", vc)
        await vc.superWillTransition(to: traits, with: coordinator)
    }

    func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) { inHook("traitCollectionDidChange", vc) }
    func viewWillLayoutSubviews(in vc: isolated any ViewControllerContext) { inHook("viewWillLayoutSubviews", vc) }
    func viewDidLayoutSubviews(in vc: isolated any ViewControllerContext) { inHook("viewDidLayoutSubviews", vc) }
    func viewWillAppear(in vc: isolated any ViewControllerContext) { inHook("viewWillAppear", vc) }
    func viewDidAppear(in vc: isolated any ViewControllerContext) { inHook("viewDidAppear", vc) }
    func viewWillDisappear(in vc: isolated any ViewControllerContext) { inHook("viewWillDisappear", vc) }
    func viewDidDisappear(in vc: isolated any ViewControllerContext) { inHook("viewDidDisappear", vc) }

    func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
        inHook("action", vc)
        return true
    }
}

/// A custom presentation controller that notes every hook it is called in, re-applies its
/// frame there (the `frameOfPresentedViewInContainerView` query, from `containerViewWillLayoutSubviews`'s
/// super step) and requests the frame it already has (a request that changes nothing).
struct PCNotesEveryHook: PresentationControllerBehavior {
    private func inHook(_ name: String, _ pc: isolated any PresentationControllerContext) {
        pc.note(name)
        pc.setPresentedViewFrame(pc.presentedViewFrame)
    }

    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        Size(parentSize.width, 200)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        let bounds = pc.containerViewBounds
        return Rect(origin: Point(x: 0, y: bounds.size.height - 200), size: Size(bounds.size.width, 200))
    }

    func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in pc: isolated any PresentationControllerContext) async {
        inHook("viewWillTransition", pc)
        await pc.superViewWillTransition(to: size, with: coordinator)
    }

    func containerViewWillLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        inHook("containerViewWillLayoutSubviews", pc)
        pc.superContainerViewWillLayoutSubviews()
    }

    func containerViewDidLayoutSubviews(in pc: isolated any PresentationControllerContext) {
        inHook("containerViewDidLayoutSubviews", pc)
        pc.superContainerViewDidLayoutSubviews()
    }

    func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) { inHook("presentationTransitionWillBegin", pc) }
    func presentationTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) { inHook("presentationTransitionDidEnd", pc) }
    func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) { inHook("dismissalTransitionWillBegin", pc) }
    func dismissalTransitionDidEnd(completed: Bool, in pc: isolated any PresentationControllerContext) { inHook("dismissalTransitionDidEnd", pc) }

    func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
        inHook("action", pc)
        return true
    }
}

/// SPEC §4.2, §6: every event a behaviour makes (a note, a request, a query it asks) is caused by
/// the event of the hook it was made in, whatever the kind of hook: what `trace follow` and
/// `trace show --tree` show is the trace's `cause`.
@Suite struct HookCauseTests {
    /// For each note (its text names the hook it was written in), its cause is that hook's event
    /// on the same controller; the queries and requests the same hook made right after it share
    /// that cause. Returns the hooks seen, in order.
    @discardableResult
    private func checkCauses(_ events: [TraceEvent], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var hooks: [String] = []
        for (position, event) in events.enumerated() {
            guard case let .note(hook) = event.message else { continue }
            hooks.append(hook)
            let cause = event.cause.flatMap { byID[$0] }
            let expectedName = hook == "action" ? "action" : hook
            #expect(cause?.controller == event.controller && cause?.message.name == expectedName,
                    "\(event.controller) note \(hook) is caused by \(cause?.canonicalLine ?? "nothing")", sourceLocation: sourceLocation)
            // What the same hook made right after the note: its query (a view controller with a
            // child) and its request.
            var made: [TraceEvent] = []
            for next in events[(position + 1)...] where next.controller == event.controller {
                guard case .sizeForChild = next.message, made.isEmpty else {
                    if case .request = next.message { made.append(next) }
                    break
                }
                made.append(next)
            }
            #expect(made.contains { $0.message.kind == "request" }, "no request after \(event.controller) note \(hook)", sourceLocation: sourceLocation)
            for next in made {
                #expect(next.cause == event.cause,
                        "\(next.canonicalLine), made in \(hook), is caused by \(next.cause.flatMap { byID[$0] }?.canonicalLine ?? "nothing")",
                        sourceLocation: sourceLocation)
            }
        }
        return hooks
    }

    private func window() -> HierarchyDescription {
        HierarchyDescription(.iPadLandscape) {
            ViewController("R", behavior: NotesEveryHook()) { ViewController("C") }
            ViewController("P", behavior: NotesEveryHook(), modalPresentationStyle: .fullScreen) { ViewController("PC1") }
            ViewController(
                "S", modalPresentationStyle: .custom,
                presentationController: PresentationControllerDescription(shouldPresentInFullscreen: true, behavior: PCNotesEveryHook()))
        }
    }

    @Test("a view controller's notes, queries and requests are caused by the hook they were made in")
    func viewControllerHooks() async throws {
        let store = try await TraceTestStore(window())
        store.exhaustivity = .off
        var events: [TraceEvent] = []
        for event: WindowEvent in [
            .present("P", from: "R", animated: true, style: nil), .transition(size: WindowSetup.iPadPortrait.size, traits: WindowSetup.iPadPortrait.traits),
            .setTraits(TraitCollection(userInterfaceStyle: .dark)), .action("tap", on: "P", value: nil), .dismiss("P", animated: true),
        ] {
            await store.perform(event)
            events += store.received
            store.skipReceivedEvents()
        }
        let hooks = Set(checkCauses(events))
        for hook in [
            "viewWillTransition", "willTransition", "traitCollectionDidChange", "viewWillLayoutSubviews", "viewDidLayoutSubviews",
            "viewWillAppear", "viewDidAppear", "viewWillDisappear", "viewDidDisappear", "action",
        ] {
            #expect(hooks.contains(hook), "no note from \(hook)")
        }
    }

    @Test("a presentation controller's notes, frame queries and requests are caused by the hook they were made in")
    func presentationControllerHooks() async throws {
        let store = try await TraceTestStore(window())
        store.exhaustivity = .off
        var events: [TraceEvent] = []
        for event: WindowEvent in [
            .present("S", from: "R", animated: true, style: nil), .transition(size: WindowSetup.iPadPortrait.size, traits: WindowSetup.iPadPortrait.traits),
            .action("tap", on: "pc:S", value: nil), .dismiss("S", animated: true),
        ] {
            await store.perform(event)
            events += store.received
            store.skipReceivedEvents()
        }
        let hooks = Set(checkCauses(events))
        for hook in [
            "viewWillTransition", "containerViewWillLayoutSubviews", "containerViewDidLayoutSubviews",
            "presentationTransitionWillBegin", "presentationTransitionDidEnd", "dismissalTransitionWillBegin",
            "dismissalTransitionDidEnd", "action",
        ] {
            #expect(hooks.contains(hook), "no note from \(hook)")
        }
        // The frame query of containerViewWillLayoutSubviews's super step is caused by that hook
        // (the frames the requests set are caused by their requests).
        let byID = Dictionary(events.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let frames = events.filter { event in
            event.message.name == "frameOfPresentedViewInContainerView" && event.cause.flatMap { byID[$0] }?.message.kind != "request"
        }
        #expect(!frames.isEmpty)
        for frame in frames {
            #expect(frame.cause.flatMap { byID[$0] }?.message.name == "containerViewWillLayoutSubviews", "\(frame.canonicalLine)")
        }
    }
}

/// WWDC 2014's sidebar, noting each time its own size and frame code is asked.
struct NotesWhenAsked: PresentationControllerBehavior {
    func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
        pc.note("asked size")
        return Size((parentSize.width / 3).rounded(.down), parentSize.height)
    }

    func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
        pc.note("asked frame")
        let bounds = pc.containerViewBounds
        let width = (bounds.size.width / 3).rounded(.down)
        return Rect(x: bounds.size.width - width, y: 0, width: width, height: bounds.size.height)
    }
}

/// Full screen in compact width, no adaptation otherwise.
struct FullScreenWhenCompact: AdaptivePresentationDelegate {
    func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
        traits.horizontalSizeClass == .compact ? .style(.fullScreen) : .style(.none)
    }
}

/// SPEC §3.7, decisions.md ("An adapted custom presentation is not asked as custom"): while a
/// custom presentation is adapted, its size and frame are the adapted style's, and its
/// behaviour's size and frame code is not called.
@Suite struct AdaptedQueryTests {
    @Test("an adapted custom presentation answers with the adapted style's size, without calling its behaviour")
    func adaptedQueriesDoNotCallTheBehaviour() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("R")
            ViewController(
                "S", modalPresentationStyle: .custom,
                presentationController: PresentationControllerDescription(behavior: NotesWhenAsked()),
                adaptiveDelegate: FullScreenWhenCompact())
        })
        store.exhaustivity = .off
        await store.present("S", from: "R", animated: true)
        var lines = store.received.map(\.canonicalLine)
        #expect(lines.contains("pc:S note asked size"))
        #expect(lines.contains("pc:S note asked frame"))
        store.skipReceivedEvents()

        await store.transition(to: Size(320, 768), traits: TraitCollection(horizontalSizeClass: .compact))
        lines = store.received.map(\.canonicalLine)
        let adapted = try #require(lines.firstIndex(of: "pc:S willPresentWithAdaptiveStyle(fullScreen)"), "\(lines)")
        // The adapted style's answer (the whole window), after the adaptation line.
        let query = try #require(lines.firstIndex(of: "pc:S sizeForChild(S, parent: 320x768) -> 320x768"), "\(lines)")
        #expect(adapted < query)
        #expect(!lines.contains { $0.hasPrefix("pc:S note asked") }, "\(lines)")
        store.skipReceivedEvents()

        // Back in regular width, the behaviour is asked again.
        await store.transition(to: .iPadLandscape)
        lines = store.received.map(\.canonicalLine)
        #expect(lines.contains("pc:S willPresentWithAdaptiveStyle(none)"), "\(lines)")
        #expect(lines.contains("pc:S note asked size"), "\(lines)")
        store.skipReceivedEvents()
    }
}
