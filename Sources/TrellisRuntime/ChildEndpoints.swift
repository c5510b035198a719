import CTrellisPrefetch
import TrellisModel

/// A container's children as the router walks them: in order, each a local `Controller` or
/// another endpoint (a presentation controller, a stand-in for a controller on another node).
/// It keeps the two things a walk over a large hierarchy needs and nothing else holds: the child
/// as its concrete type, and a prefetch of the next one.
struct ChildEndpoints {
    private(set) var all: [any ControllerEndpoint]

    init(_ endpoints: [any ControllerEndpoint]) {
        all = endpoints
    }

    var count: Int { all.count }
    var ids: [ControllerID] { all.map(\.id) }

    subscript(index: Int) -> any ControllerEndpoint {
        get { all[index] }
        set { all[index] = newValue }
    }

    /// The id of the child at `index`: a local controller's own field, read without the
    /// endpoint's witness table.
    @inline(__always)
    func id(at index: Int) -> ControllerID {
        local(at: index)?.id ?? all[index].id
    }

    /// The child at `index` as a local controller (`local(at:)`), unretained: for a caller that
    /// lends its id (`Unmanaged.lendingID`) without retaining the child or this array.
    @inline(__always)
    func unretainedLocal(at index: Int) -> Unmanaged<Controller>? {
        local(at: index).map(Unmanaged.passUnretained)
    }

    func firstIndex(of id: ControllerID) -> Int? {
        all.firstIndex { $0.id == id }
    }

    mutating func append(_ endpoint: any ControllerEndpoint) { all.append(endpoint) }
    mutating func removeLast() { all.removeLast() }

    /// The child at `index` as the local `Controller` it usually is, for the two walks of a size
    /// transition: an async call through the `ControllerEndpoint` existential allocates a second
    /// async frame (the witness thunk's) on every hop — uprobes count two `swift_task_alloc` a hop
    /// through the existential, one through the concrete type, about 12% of a bare actor walk.
    /// Nil for any other endpoint (a presentation controller, a remote controller).
    @inline(__always)
    func local(at index: Int) -> Controller? {
        let endpoint = all[index]
        guard type(of: endpoint) == Controller.self else { return nil }
        // Safe: the dynamic type was just checked to be exactly `Controller`, and an actor has
        // no subclasses.
        return unsafeDowncast(endpoint, to: Controller.self)
    }

    /// Starts loading the child at `index` (if any) into the cache while the walk is busy with
    /// the ones before it. A large hierarchy does not fit in the caches, and a walk's first touch
    /// of each child — reading its type in `local(at:)` — was half of the samples of the size
    /// walk's loop at 100k controllers; the later siblings are known a whole subtree ahead.
    ///
    /// The walks fetch four children ahead: a leaf takes a walk some 50 ns, less than a load
    /// from memory on these VMs, so a sibling fetched one child ahead had not arrived when the
    /// walk reached it. At 100k controllers in turns (docs/performance.md, issue 27 item 9,
    /// "four children ahead"): one ahead 11.4–11.8 M hops/s, three 11.8–12.8, four 12.0–12.5.
    /// The four calls are written out at each walk: a method of this struct making them copied
    /// (retained) the array, and a loop was slower at 10k.
    @inline(__always)
    func prefetch(at index: Int) {
        guard index < all.count else { return }
        trellis_prefetch_object(UnsafeRawPointer(Unmanaged.passUnretained(all[index] as AnyObject).toOpaque()))
    }
}

extension Unmanaged where Instance == Controller {
    /// Calls `body` with the controller's id lent, not copied.
    ///
    /// A copy is a retain and a release of the id's storage: for a parent whose behaviour's
    /// `size(forChild:)` only calls super, 3–5% of a size walk (docs/performance.md, issue 28,
    /// seventh pass). For the child of a container, got from `ChildEndpoints.unretainedLocal(at:)`
    /// by its parent, safe for `body`'s call alone: the parent's `endpoints` holds the child
    /// strongly, and only the parent's `appendChild`, `removeLastChild` and `replaceChild` change
    /// it — package methods isolated to the parent that the window calls with async messages,
    /// which cannot run while a synchronous `body` runs on the parent's executor, and which a
    /// behaviour's hook (public API only) cannot call. The id is a `let`.
    ///
    /// A function of this module: a closure isolated to the parent handed straight to
    /// `_withUnsafeGuaranteedRef` got run-time isolation checks (docs/performance.md, issue 28,
    /// fifth pass).
    @inline(__always)
    func lendingID<Result>(_ body: (borrowing ControllerID) -> Result) -> Result {
        _withUnsafeGuaranteedRef { body($0.id) }
    }
}
