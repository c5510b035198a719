import TrellisModel

/// Where each interned controller id is in a recorder's names: an open-addressed table of 4-byte
/// positions into the names array, which keeps the ids themselves. A dictionary from id to
/// position kept a second copy of every id in 2.6 buckets a controller at 100k (52 bytes a
/// controller); this table costs about 10 (issue 27 item 7).
struct ControllerNameIndex: Sendable {
    /// A power of two long (or empty); each slot holds a position in the names plus one, 0 when
    /// empty. At most three quarters full, so a probe always ends at an empty slot.
    private var slots: [UInt32] = []
    /// How many positions the table holds: the names' first `count`.
    private var count = 0

    /// The position of `id` in `names`, nil when it is not there.
    func position(of id: ControllerID, in names: [ControllerID]) -> UInt32? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while true {
            let stored = slots[slot]
            if stored == 0 { return nil }
            if names[Int(stored - 1)] == id { return stored - 1 }
            slot = (slot + 1) & mask
        }
    }

    /// Adds the last of `names` (not in the table yet) at its position.
    mutating func appendLast(of names: [ControllerID]) {
        guard let id = names.last else { return }
        if (count + 1) * 4 > slots.count * 3 { rebuild(toHold: count + 1, names: names) }
        place(id, at: names.count - 1)
        count += 1
    }

    /// Makes room for `total` names at once: a table outgrown and copied stays resident.
    mutating func reserve(_ total: Int, names: [ControllerID]) {
        if total * 4 > slots.count * 3 { rebuild(toHold: total, names: names) }
    }

    /// A table large enough for `total`, holding the names' first `count` again.
    private mutating func rebuild(toHold total: Int, names: [ControllerID]) {
        var capacity = max(16, slots.count)
        while total * 4 > capacity * 3 { capacity *= 2 }
        slots = [UInt32](repeating: 0, count: capacity)
        for position in 0..<count { place(names[position], at: position) }
    }

    /// Puts `position` in the first empty slot from `id`'s hash on.
    private mutating func place(_ id: ControllerID, at position: Int) {
        let mask = slots.count - 1
        var slot = id.hashValue & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(truncatingIfNeeded: position + 1)
    }
}
