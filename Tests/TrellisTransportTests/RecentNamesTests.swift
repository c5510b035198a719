import Testing
@testable import TrellisTransport

/// `RecentNames` remembers the names inserted last, at most its capacity.
struct RecentNamesTests {
    @Test func theOldestNameIsForgottenPastTheCapacity() {
        var names = RecentNames(capacity: 3)
        var forgotten: [String] = []
        for name in ["a", "b", "c"] {
            if let name = names.insert(name) { forgotten.append(name) }
        }
        #expect(forgotten.isEmpty)
        #expect(names.insert("b") == nil, "a name already there keeps its place")
        #expect(names.insert("d") == "a")
        #expect(!names.contains("a") && names.contains("d"))
        names.remove("c")
        // c's room, given back, takes e: nothing is forgotten for it.
        #expect(names.insert("e") == nil)
        #expect(names.insert("f") == "b")
        #expect(names.count == 3 && ["d", "e", "f"].allSatisfy(names.contains))
        // A name removed and inserted again is the newest: the next forgotten are e, then f.
        names.remove("d")
        names.insert("d")
        #expect(names.insert("g") == "e")
        #expect(names.insert("h") == "f")
        #expect(names.count == 3 && ["d", "g", "h"].allSatisfy(names.contains))
    }

    @Test func manyNamesKeepTheCountAtTheCapacity() {
        var names = RecentNames(capacity: 100)
        for index in 0..<100_000 { names.insert("name-\(index)") }
        #expect(names.count == 100)
        #expect(names.contains("name-99999") && !names.contains("name-99899"))
    }
}
