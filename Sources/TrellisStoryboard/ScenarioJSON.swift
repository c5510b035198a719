import TrellisJSON

/// The scenario document an import builds (SPEC §11): JSON values with members in the order
/// they are written, printed for `trellis import` and handed to the scenario decoder as the
/// `JSONNode`s it reads.
public indirect enum ScenarioJSON: Sendable, Equatable {
    /// A JSON string.
    case string(String)
    /// A JSON number.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A JSON array.
    case array([ScenarioJSON])
    /// A JSON object, members in order.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: ScenarioJSON

        /// A member `key: value`.
        public init(_ key: String, _ value: ScenarioJSON) {
            self.key = key
            self.value = value
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> ScenarioJSON? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// As the JSON reader's nodes, every one at line 0: a storyboard's content has no place in
    /// the scenario file, and the storyboard's own faults were reported with theirs already.
    public var node: JSONNode {
        switch self {
        case let .string(text): return JSONNode(.string(text))
        case let .number(value): return JSONNode(.number(value))
        case let .bool(flag): return JSONNode(.bool(flag))
        case let .array(items): return JSONNode(.array(items.map(\.node)))
        case let .object(members): return JSONNode(.object(members.map { (key: $0.key, value: $0.value.node) }))
        }
    }

    /// Indented JSON text: objects one member a line, arrays of numbers or strings on one line.
    public func text(indent: String = "") -> String {
        switch self {
        case .string, .number, .bool: return JSONWriter.write(node.value)
        case let .array(items):
            if items.allSatisfy({ if case .object = $0 { return false } else { return true } }) {
                return "[" + items.map { $0.text() }.joined(separator: ", ") + "]"
            }
            let inner = indent + "  "
            return "[\n" + items.map { inner + $0.text(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case let .object(members):
            guard !members.isEmpty else { return "{}" }
            let inner = indent + "  "
            let lines = members.map { inner + JSONWriter.quoted($0.key) + ": " + $0.value.text(indent: inner) }
            return "{\n" + lines.joined(separator: ",\n") + "\n" + indent + "}"
        }
    }
}

/// The notices of an import (SPEC §11): what the scenario stands in for (custom classes
/// without a behaviour, preview-device geometry, stand-in anchor rects, unwind targets found at
/// run time), each once, in the order they arose. They go to standard error, never into the JSON.
public struct StoryboardNotices: Sendable, Equatable {
    /// Each notice once, in order.
    public private(set) var lines: [String] = []
    private var seen: Set<String> = []
    /// Per kind of notice said once an element (`add(_:kind:)`): how many were said, and where
    /// the line summing up the rest is.
    private var kinds: [String: KindCount] = [:]

    /// How many notices of a kind were said, and where the line summing up the rest is.
    private struct KindCount: Sendable, Equatable {
        var said = 0
        var summary: Int?
    }

    /// At most this many notices of one kind are listed; the rest are counted on one line (a
    /// storyboard of 5,000 container views is told so in a dozen lines, not 5,000).
    public static let listedPerKind = 10

    /// No notices yet.
    public init() {}

    mutating func add(_ line: String) {
        if seen.insert(line).inserted { lines.append(line) }
    }

    /// `line`, one of many of `kind` (a plural noun phrase: "container views without a frame"):
    /// listed while fewer than `listedPerKind` of that kind were, then counted.
    mutating func add(_ line: String, kind: String) {
        guard seen.insert(line).inserted else { return }
        var entry = kinds[kind] ?? KindCount()
        entry.said += 1
        defer { kinds[kind] = entry }
        guard entry.said > Self.listedPerKind else { return lines.append(line) }
        let summary = "… and \(entry.said - Self.listedPerKind) more \(kind)"
        if let index = entry.summary {
            lines[index] = summary
        } else {
            entry.summary = lines.count
            lines.append(summary)
        }
    }
}
