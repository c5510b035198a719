/// A set of peer names that remembers only the `capacity` inserted last: one more forgets the
/// oldest. What a node keeps about strangers — peers that are not nodes of its run, whose names
/// anybody can make up by the thousand by connecting under fresh routing ids — stays bounded this
/// way, where a set would grow by a name for each of them.
struct RecentNames {
    let capacity: Int
    private var names = Set<String>()
    /// The names remembered, in the order they were inserted, from `head` on (before it:
    /// forgotten).
    private var order: [String] = []
    private var head = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    var count: Int { names.count }

    func contains(_ name: String) -> Bool { names.contains(name) }

    /// Remembers `name` (a name already remembered keeps its place); returns the name forgotten
    /// to make room, if any.
    @discardableResult
    mutating func insert(_ name: String) -> String? {
        guard names.insert(name).inserted else { return nil }
        order.append(name)
        guard order.count - head > capacity else { return nil }
        let oldest = order[head]
        head += 1
        // The forgotten names' slots are given back once they are most of the storage.
        if head > capacity, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        return names.remove(oldest)
    }

    /// Forgets `name` now (a look through at most `capacity` names: rare, unlike `insert`).
    mutating func remove(_ name: String) {
        guard names.remove(name) != nil, let index = order[head...].firstIndex(of: name) else { return }
        order.remove(at: index)
    }
}
