/// A value kept in a heap box of its own, for a controller's rarely used state: a large
/// hierarchy does not fit in the caches, so every byte of a controller the router does not
/// touch on a transition is better somewhere else. Reading and writing through `value` keeps
/// value semantics: a write stores a new box.
struct OutOfLine<Value> {
    private final class Box {
        let value: Value
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
}
