import TrellisModel

extension HierarchyStructure {
    /// Every node of a structure, by id: the nodes in one dense array and their positions in a
    /// dictionary, instead of a dictionary of nodes. A dictionary's capacity is a power of two
    /// at most three quarters full — about 2.6 buckets a controller at 100k, 2.1 at 1M — so
    /// keeping the 64-byte nodes in its buckets cost 210 bytes a controller at 100k where the
    /// array and a 20-byte bucket of positions cost about 116 (issue 27 item 7).
    public struct NodeTable: Sendable, Equatable {
        /// Where each id's node is in `storage`. Int32: 2³¹ nodes of 64 bytes would be 128 GiB.
        private var positions: [ControllerID: Int32]
        /// The nodes, in no particular order (a removal moves the last into the gap).
        private var storage: [Node]

        /// The table of `nodes`; a later node with an id replaces an earlier one.
        init(_ nodes: [Node]) {
            positions = Dictionary(minimumCapacity: nodes.count)
            storage = []
            storage.reserveCapacity(nodes.count)
            for node in nodes { self[node.id] = node }
        }

        /// The node of `id`, nil when there is none; setting nil removes it. A node is kept
        /// under its own id (the structure sets nothing else).
        public subscript(id: ControllerID) -> Node? {
            get { positions[id].map { storage[Int($0)] } }
            set {
                guard let position = positions[id].map(Int.init) else {
                    guard let newValue else { return }
                    positions[id] = Int32(clamping: storage.count)
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
            positions[id] = nil
            let last = storage.removeLast()
            guard position < storage.count else { return }
            storage[position] = last
            positions[last.id] = Int32(clamping: position)
        }

        /// Tables are equal when they hold the same nodes under the same ids, whatever the order.
        public static func == (lhs: NodeTable, rhs: NodeTable) -> Bool {
            lhs.count == rhs.count && lhs.storage.allSatisfy { rhs[$0.id] == $0 }
        }
    }
}
