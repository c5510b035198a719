/// A value kept in a heap box of its own, for a controller's rarely used state: a large
/// hierarchy does not fit in the caches, so every byte of a controller the router does not
/// touch on a transition is better somewhere else. Reading and writing through `value` keeps
/// value semantics (a write stores a new box); `modify` changes the value in place when nothing
/// else shares its box, so only the first change allocates.
struct OutOfLine<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box?

    init(_ value: Value? = nil) {
        box = value.map(Box.init)
    }

    var value: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    /// What `body` reads from the value, without copying the rest of it out; nil without one.
    @inline(__always)
    func read<Field>(_ body: (Value) -> Field) -> Field? {
        guard let box else { return nil }
        return body(box.value)
    }

    /// Changes the value — `initial` when there is none yet — in its own box when this storage
    /// is the box's only holder (a controller's is: its state is never copied out whole), in a
    /// new box otherwise, so that no copy made earlier sees the change.
    mutating func modify(default initial: @autoclosure () -> Value, _ change: (inout Value) -> Void) {
        if !isKnownUniquelyReferenced(&box) {
            box = Box(box?.value ?? initial())
        }
        // Known unique or just made: the box is there.
        guard let box else { return }
        change(&box.value)
    }
}
