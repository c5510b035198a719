import Testing
import TrellisTestKit

/// Every window event has a helper on the hierarchy store; each test performs one and asserts
/// every line it caused.
@Suite struct ActionHelperTests {
    @Test("push and pop: the navigation controller's appearance pairs and the new top's size") func pushAndPop() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("N", kind: .navigation) { ViewController("V") }
            ViewController("W")
        })
        await store.push("W", onto: "N")
        store.expect([
            "N push(W)",
            "V viewWillDisappear",
            "W viewWillAppear",
            "W viewWillLayoutSubviews",
            "W viewDidLayoutSubviews",
            "V viewDidDisappear",
            "W viewDidAppear",
        ])
        await store.pop("N")
        store.expect([
            "N pop(W)",
            "W viewWillDisappear",
            "V viewWillAppear",
            "W viewDidDisappear",
            "V viewDidAppear",
        ])
        await store.finish()
    }

    @Test("select: the tab bar controller swaps appearance and sizes the new child") func selectATab() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("T", kind: .tab) { ViewController("A"); ViewController("B") }
        })
        await store.select(tab: "T", index: 1)
        store.expect([
            "T select(B, index: 1)",
            "B viewWillAppear",
            "A viewWillDisappear",
            "B viewWillLayoutSubviews",
            "B viewDidLayoutSubviews",
            "A viewDidDisappear",
            "B viewDidAppear",
        ])
        await store.finish()
    }

    @Test("R55 + R56: show pushes onto the navigation controller, showDetail replaces the split's detail")

    func showAndShowDetail() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPadLandscape) {
            ViewController("S", kind: .split) {
                ViewController("N", kind: .navigation) { ViewController("V") }
                ViewController("D")
            }
            ViewController("W")
            ViewController("E")
        })
        await store.show("W", from: "V")
        store.expect([
            "V show(W)",
            "N push(W)",
            "V viewWillDisappear",
            "W viewWillAppear",
            "W viewWillLayoutSubviews",
            "W viewDidLayoutSubviews",
            "V viewDidDisappear",
            "W viewDidAppear",
        ])
        await store.showDetail("E", from: "V")
        store.expect([
            "V showDetail(E)",
            "S replaceDetail(E)",
            "D viewWillDisappear",
            "E viewWillAppear",
            "E viewWillLayoutSubviews",
            "E viewDidLayoutSubviews",
            "E viewDidAppear",
            "D viewDidDisappear",
        ])
        await store.finish()
    }

    @Test("R17: a trait override and its removal are trait transitions of that child only")

    func traitOverrideAndItsRemoval() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.setTraitOverride(TraitCollection(horizontalSizeClass: .compact), forChild: "A", of: "R")
        store.expect([
            "A willTransition(to: h=compact v=regular idiom=pad scale=2)",
            "A traitCollectionDidChange(previous: h=regular v=regular idiom=pad scale=2)",
        ])
        await store.setTraitOverride(nil, forChild: "A", of: "R")
        store.expect([
            "A willTransition(to: h=regular v=regular idiom=pad scale=2)",
            "A traitCollectionDidChange(previous: h=compact v=regular idiom=pad scale=2)",
        ])
        await store.finish()
    }

    @Test("R27: a fitting-size change goes one level up, to the container")

    func fittingSizeChangeGoesToTheContainer() async throws {
        let store = try await TraceTestStore(padHierarchy())
        await store.systemLayoutFittingSizeDidChange(of: "A")
        store.expect([
            "R systemLayoutFittingSizeDidChange(forChild: A)",
        ])
        await store.finish()
    }

    @Test("R14: size and traits in one transition: trait pass, size pass, traits applied, layout")

    func sizeAndTraitsInOneTransition() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R") { ViewController("A") }
        })
        await store.transition(to: .iPhoneLandscape)
        store.expect([
            "R willTransition(to: h=compact v=compact idiom=phone scale=2)",
            "A willTransition(to: h=compact v=compact idiom=phone scale=2)",
            "R viewWillTransition(to: 568x320)",
            "R sizeForChild(A, parent: 568x320) -> 568x320",
            "A viewWillTransition(to: 568x320)",
            "R traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "A traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A viewDidLayoutSubviews",
        ])
        await store.transition(to: Size(320, 568), traits: WindowSetup.iPhonePortrait.traits)
        store.expect([
            "R willTransition(to: h=compact v=regular idiom=phone scale=2)",
            "A willTransition(to: h=compact v=regular idiom=phone scale=2)",
            "R viewWillTransition(to: 320x568)",
            "R sizeForChild(A, parent: 320x568) -> 320x568",
            "A viewWillTransition(to: 320x568)",
            "R traitCollectionDidChange(previous: h=compact v=compact idiom=phone scale=2)",
            "A traitCollectionDidChange(previous: h=compact v=compact idiom=phone scale=2)",
            "R viewWillLayoutSubviews",
            "R viewDidLayoutSubviews",
            "A viewWillLayoutSubviews",
            "A viewDidLayoutSubviews",
        ])
        await store.setTraits(TraitCollection(userInterfaceStyle: .dark))
        store.expect([
            "R willTransition(to: h=compact v=regular idiom=phone scale=2 style=dark)",
            "A willTransition(to: h=compact v=regular idiom=phone scale=2 style=dark)",
            "R traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
            "A traitCollectionDidChange(previous: h=compact v=regular idiom=phone scale=2)",
        ])
        await store.finish()
    }

    @Test("present and dismiss without animation, over full screen: the presenter stays") func presentAndDismiss() async throws {
        let store = try await TraceTestStore(HierarchyDescription(.iPhonePortrait) {
            ViewController("R")
            ViewController("P", modalPresentationStyle: .overFullScreen)
        })
        await store.present("P", from: "R", animated: false)
        store.expect([
            "R present(P, style: overFullScreen)",
            "P viewWillAppear",
            "pc:P presentationTransitionWillBegin(animated: false)",
            "pc:P containerViewWillLayoutSubviews",
            "pc:P frameOfPresentedViewInContainerView -> 0,0 320x568",
            "pc:P containerViewDidLayoutSubviews",
            "P viewWillLayoutSubviews",
            "P viewDidLayoutSubviews",
            "pc:P presentationTransitionDidEnd(completed: true)",
            "P viewDidAppear",
            "R presentCompletion(P)",
        ])
        await store.dismiss("P", animated: false)
        store.expect([
            "R dismiss(P)",
            "pc:P dismissalTransitionWillBegin(animated: false)",
            "P viewWillDisappear",
            "P viewDidDisappear",
            "pc:P dismissalTransitionDidEnd(completed: true)",
            "P dismissCompletion(P)",
        ])
        await store.finish()
    }
}
