import TrellisJSON

/// Where the values of a scenario file start, by JSON path, for the checks that run after
/// decoding (`ScenarioValidator` names the line and column of what it rejects).
///
/// The items of a `children` array are kept by the array's path, eight bytes an item, rather
/// than under a path string each: a root with a million children made a million strings and
/// dictionary entries that only an error ever reads (issue 27). Reading `path[i]` finds them.
struct PathPositions {
    private var entries: [String: (line: Int, column: Int)] = [:]
    private var items: [String: [Place]] = [:]

    /// A line and column in 32 bits each: a file is at most 2 GiB (`FileBytes.maximumSize`).
    private struct Place {
        var line: UInt32
        var column: UInt32
    }

    init() {}

    /// The position recorded for `path`, or that of item `i` of the array at `prefix` when
    /// `path` is `prefix[i]`.
    subscript(path: String) -> (line: Int, column: Int)? {
        get { entries[path] ?? item(path) }
        set { entries[path] = newValue }
    }

    /// Records the position of each of `nodes`, the items of the array at `path`.
    mutating func setItems(_ nodes: [JSONNode], of path: String) {
        items[path] = nodes.map { Place(line: UInt32(clamping: $0.line), column: UInt32(clamping: $0.column)) }
    }

    /// Whether any recorded path ends with `suffix` (".selected"): the checks ask this once
    /// rather than making a path string a controller for a field a million leaves do not have.
    func records(endingWith suffix: String) -> Bool {
        entries.keys.contains { $0.hasSuffix(suffix) }
    }

    private func item(_ path: String) -> (line: Int, column: Int)? {
        guard !items.isEmpty, path.utf8.last == UInt8(ascii: "]"),
              let open = path.utf8.lastIndex(of: UInt8(ascii: "[")),
              let index = Int(path[path.index(after: open)..<path.index(before: path.endIndex)]),
              let places = items[String(path[..<open])], places.indices.contains(index)
        else { return nil }
        return (Int(places[index].line), Int(places[index].column))
    }
}
