import TrellisModel
import TrellisTrace

extension HierarchyStructure {
    /// Every node of a structure, by id: the nodes in one dense array and their positions in a
    /// dictionary, instead of a dictionary of nodes. A dictionary's capacity is a power of two
    /// at most three quarters full — about 2.6 buckets a controller at 100k, 2.1 at 1M — so
    /// keeping the 64-byte nodes in its buckets cost 210 bytes a controller at 100k where the
    /// array and a 20-byte bucket of positions cost about 116 (issue 27 item 7).
    public struct NodeTable: Sendable, Equatable {
        /// Where each id's node is in `storage`. Int32: 2³¹ nodes of 64 bytes would be 128 GiB.
        /// With `names`, only the ids its recorder has not interned.
        private var positions: [ControllerID: Int32]
        /// The nodes, in no particular order (a removal moves the last into the gap).
        private var storage: [Node]
        /// A window's recorder, whose index of interned names stands in for `positions` (its
        /// controllers interned theirs when they were made): 4 bytes a controller in
        /// `positionsByName` instead of a 20-byte bucket (issue 27 item 7, second pass).
        private let names: TraceRecorder?
        /// The position in `storage` of the node of each name position of `names`, -1 for none.
        private var positionsByName: [Int32] = []

        /// The table of `nodes`; a later node with an id replaces an earlier one.
        init<Nodes: Collection<Node>>(_ nodes: Nodes, names: TraceRecorder? = nil) {
            self.names = names
            positions = names == nil ? Dictionary(minimumCapacity: nodes.count) : [:]
            storage = []
            storage.reserveCapacity(nodes.count)
            if names != nil { positionsByName.reserveCapacity(nodes.count) }
            for node in nodes { self[node.id] = node }
        }

        /// The position of `id`'s node in `storage`, nil when there is none.
        private func position(of id: ControllerID) -> Int? {
            guard let names else { return positions[id].map(Int.init) }
            if let name = names.internedName(id)?.position, name < positionsByName.count, positionsByName[name] >= 0 {
                return Int(positionsByName[name])
            }
            return positions.isEmpty ? nil : positions[id].map(Int.init)
        }

        /// Keeps `position` (nil: none) as where `id`'s node is.
        private mutating func setPosition(_ position: Int?, of id: ControllerID) {
            let stored = position.map { Int32(clamping: $0) }
            guard let names else {
                positions[id] = stored
                return
            }
            if !positions.isEmpty { positions[id] = nil }
            guard let name = names.internedName(id)?.position else {
                if let stored { positions[id] = stored }
                return
            }
            if name >= positionsByName.count {
                guard stored != nil else { return }
                positionsByName.append(contentsOf: repeatElement(-1, count: name + 1 - positionsByName.count))
            }
            positionsByName[name] = stored ?? -1
        }

        /// The node of `id`, nil when there is none; setting nil removes it. A node is kept
        /// under its own id (the structure sets nothing else).
        public subscript(id: ControllerID) -> Node? {
            get { position(of: id).map { storage[$0] } }
            set {
                guard let position = position(of: id) else {
                    guard let newValue else { return }
                    setPosition(storage.count, of: id)
                    storage.append(newValue)
                    return
                }
                guard let newValue else {
                    remove(at: position, id: id)
                    return
                }
                storage[position] = newValue
            }
        }

        /// How many nodes there are.
        public var count: Int { storage.count }

        /// Every node, in no particular order.
        public var values: [Node] { storage }

        /// Removes the node at `position` by moving the last node into its place.
        private mutating func remove(at position: Int, id: ControllerID) {
            setPosition(nil, of: id)
            let last = storage.removeLast()
            guard position < storage.count else { return }
            storage[position] = last
            setPosition(position, of: last.id)
        }

        /// Tables are equal when they hold the same nodes under the same ids, whatever the order
        /// and wherever their positions are kept.
        public static func == (lhs: NodeTable, rhs: NodeTable) -> Bool {
            lhs.count == rhs.count && lhs.storage.allSatisfy { rhs[$0.id] == $0 }
        }
    }
}
