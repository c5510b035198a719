// docs/testing.md, "Under XCTest".

import TrellisTestKit
import XCTest

final class SidebarXCTests: XCTestCase {
    func testItRotatesWithItsPresenter() async throws {
        let store = try await TraceTestStore(sidebarHierarchy())
        await store.present("S", from: "R")
        store.skipReceivedEvents()
        await store.resizeWindow(to: Size(768, 1024))
        store.expect([
            "R viewWillTransition(to: 768x1024)",
            "pc:S viewWillTransition(to: 768x1024)",
            "S viewWillTransition(to: 256x1024)",
        ], kinds: nil)
        await store.expectState(of: "S", ExpectedState(size: Size(256, 1024)))
        await store.finish()
    }
}

final class SidebarFixtureTests: XCTestCase {
    var store: TraceTestStore?

    override func setUp() async throws {
        store = try await TraceTestStore(sidebarHierarchy())
    }

    override func tearDown() async throws {
        // Reports, in this test, the events its last action caused that it did not assert.
        await store?.finish()
        store = nil
    }
}

extension SidebarFixtureTests {
    /// The fixture's store, ended in `tearDown()`: everything asserted, nothing reported.
    func testTheFixturesStoreIsEndedInTearDown() async throws {
        let store = try XCTUnwrap(store)
        await store.present("S", from: "R")
        store.skipReceivedEvents()
    }
}
