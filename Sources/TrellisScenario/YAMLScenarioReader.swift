import CYaml
import TrellisJSON

/// Reads a YAML scenario file into the same positioned JSON values the JSON reader gives, so
/// that one decoder validates both (SPEC §5: JSON canonical, YAML accepted).
///
/// YAML 1.2 with its core schema (`YAMLCoreSchema`): `yes`, `no`, `on` and `off` are strings,
/// `0o17` is 15. The events of libyaml (Yams's C parser) are composed here, on an explicit stack
/// rather than by recursion, so that every error is one line with the position and JSON path of
/// what is wrong — a duplicate key at its second occurrence — and YAML's extras that JSON has no
/// word for are refused: complex keys, unknown tags, several documents. Aliases are expanded,
/// within `maximumNodes`.
enum YAMLScenarioReader {
    /// More nodes than this are refused: anchors and aliases could otherwise expand a small
    /// file into an enormous one.
    static let maximumNodes = 2_000_000

    /// A sequence or mapping being read.
    private struct Frame {
        var path: String
        var line: Int
        var column: Int
        var anchor: String?
        var isMapping: Bool
        var items: [JSONNode] = []
        var members: [(key: String, value: JSONNode)] = []
        /// Each key read so far, with its position, to refuse a second occurrence.
        var keys: [String: (line: Int, column: Int)] = [:]
        /// The key whose value comes next (mappings).
        var pendingKey: String?
        /// Nodes in this subtree, itself included, for aliases' share of the budget.
        var size = 1

        /// Where the next value goes.
        var childPath: String {
            guard isMapping else { return "\(path)[\(items.count)]" }
            return pendingKey.map { path + "." + $0 } ?? path
        }
    }

    static func read(_ text: String, file: String) throws(ScenarioError) -> JSONNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw ScenarioError(file: file, path: "", line: 0, column: 0, message: "not valid YAML: out of memory")
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        let result: Result<JSONNode, ScenarioError> = bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var composer = Composer(file: file)
            return Result { () throws(ScenarioError) -> JSONNode in try composer.compose(&parser) }
        }
        return try result.get()
    }

    /// Turns libyaml's events into one `JSONNode`.
    private struct Composer {
        let file: String
        var stack: [Frame] = []
        var root: JSONNode?
        var anchors: [String: (node: JSONNode, size: Int)] = [:]
        var budget = YAMLScenarioReader.maximumNodes
        var documents = 0

        init(file: String) {
            self.file = file
        }

        func fail(_ line: Int, _ column: Int, _ path: String, _ message: String) -> ScenarioError {
            ScenarioError(file: file, path: path, line: line, column: column, message: message)
        }

        /// The path of what the next event makes.
        var currentPath: String { stack.last?.childPath ?? "$" }

        mutating func compose(_ parser: inout yaml_parser_t) throws(ScenarioError) -> JSONNode {
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                let column = Int(event.start_mark.column) + 1
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    guard let root else { throw fail(0, 0, "", "the YAML document is empty") }
                    return root
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    guard documents == 1 else { throw fail(line, column, "", "not valid YAML: more than one document") }
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let value = Self.string(scalar.value, length: scalar.length)
                    if let frame = stack.last, frame.isMapping, frame.pendingKey == nil {
                        try key(value, line: line, column: column)
                        continue
                    }
                    let node = try self.scalar(
                        value, tag: Self.string(scalar.tag), plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, line: line, column: column)
                    try add(node, size: 1, anchor: Self.string(scalar.anchor), line: line, column: column)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let isMapping = event.type == YAML_MAPPING_START_EVENT
                    let path = currentPath
                    if let frame = stack.last, frame.isMapping, frame.pendingKey == nil {
                        throw fail(line, column, path, "mapping keys must be plain strings")
                    }
                    let tag = isMapping ? Self.string(event.data.mapping_start.tag) : Self.string(event.data.sequence_start.tag)
                    if let tag, tag != (isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq") {
                        throw fail(line, column, path, "unsupported YAML tag \(tag)")
                    }
                    guard stack.count < JSONParser.maximumDepth else {
                        throw fail(line, column, path, "nesting deeper than \(JSONParser.maximumDepth) levels")
                    }
                    try spend(1, line: line, column: column, path: path)
                    let anchor = isMapping ? Self.string(event.data.mapping_start.anchor) : Self.string(event.data.sequence_start.anchor)
                    stack.append(Frame(path: path, line: line, column: column, anchor: anchor, isMapping: isMapping))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let frame = stack.popLast() else { continue }
                    let value: JSONValue = frame.isMapping ? .object(frame.members) : .array(frame.items)
                    try add(JSONNode(value, line: frame.line, column: frame.column), size: frame.size, anchor: frame.anchor,
                            line: frame.line, column: frame.column, counted: true)
                case YAML_ALIAS_EVENT:
                    let name = Self.string(event.data.alias.anchor) ?? ""
                    let path = currentPath
                    if let frame = stack.last, frame.isMapping, frame.pendingKey == nil {
                        throw fail(line, column, path, "mapping keys must be plain strings")
                    }
                    guard let target = anchors[name] else { throw fail(line, column, path, "unknown YAML alias *\(name)") }
                    try spend(target.size, line: line, column: column, path: path)
                    try add(target.node, size: target.size, anchor: nil, line: line, column: column, counted: true)
                default:
                    continue
                }
            }
        }

        /// A mapping key: a scalar, unique in its mapping.
        mutating func key(_ name: String, line: Int, column: Int) throws(ScenarioError) {
            guard var frame = stack.popLast() else { return }
            let path = frame.path + "." + name
            if let first = frame.keys[name] {
                throw fail(line, column, path, "duplicate key \"\(name)\" (first at line \(first.line), column \(first.column))")
            }
            frame.keys[name] = (line, column)
            frame.pendingKey = name
            stack.append(frame)
        }

        mutating func spend(_ nodes: Int, line: Int, column: Int, path: String) throws(ScenarioError) {
            budget -= nodes
            guard budget >= 0 else { throw fail(line, column, path, "more than \(YAMLScenarioReader.maximumNodes) YAML nodes") }
        }

        /// Puts a finished node into its parent (or makes it the root); `counted` when its nodes
        /// were already taken from the budget.
        mutating func add(_ node: JSONNode, size: Int, anchor: String?, line: Int, column: Int, counted: Bool = false) throws(ScenarioError) {
            if !counted { try spend(size, line: line, column: column, path: currentPath) }
            if let anchor { anchors[anchor] = (node, size) }
            guard var parent = stack.popLast() else {
                root = node
                return
            }
            parent.size += size
            if parent.isMapping, let key = parent.pendingKey {
                parent.members.append((key, node))
                parent.pendingKey = nil
            } else {
                parent.items.append(node)
            }
            stack.append(parent)
        }

        /// A scalar typed by its tag, or by the core schema when it is plain and untagged.
        func scalar(_ text: String, tag: String?, plain: Bool, line: Int, column: Int) throws(ScenarioError) -> JSONNode {
            let path = currentPath
            func number(_ value: Double??) throws(ScenarioError) -> JSONNode {
                guard let value, let finite = value else { throw fail(line, column, path, "number out of range: \(text)") }
                return JSONNode(.number(finite), line: line, column: column)
            }
            let core = "tag:yaml.org,2002:"
            switch tag {
            case nil where plain:
                switch YAMLCoreSchema.resolve(text) {
                case .null: return JSONNode(.null, line: line, column: column)
                case let .bool(flag): return JSONNode(.bool(flag), line: line, column: column)
                case let .number(value): return try number(value)
                case .string: return JSONNode(.string(text), line: line, column: column)
                }
            case nil, "!", core + "str":
                return JSONNode(.string(text), line: line, column: column)
            case core + "null":
                guard YAMLCoreSchema.resolve(text) == .null else { throw fail(line, column, path, "not a YAML null: \(text)") }
                return JSONNode(.null, line: line, column: column)
            case core + "bool":
                guard case let .bool(flag) = YAMLCoreSchema.resolve(text) else { throw fail(line, column, path, "not a YAML boolean: \(text)") }
                return JSONNode(.bool(flag), line: line, column: column)
            case core + "int", core + "float":
                guard case let .number(value) = YAMLCoreSchema.resolve(text) else { throw fail(line, column, path, "not a YAML number: \(text)") }
                return try number(value)
            case let .some(other):
                throw fail(line, column, path, "unsupported YAML tag \(other)")
            }
        }

        /// libyaml's error as one line: where it was detected, the path being read, the reason.
        func syntaxError(_ parser: yaml_parser_t) -> ScenarioError {
            let problem = parser.problem.map { String(cString: $0) } ?? "cannot be parsed"
            var reason = problem
            if let context = parser.context.map({ String(cString: $0) }) {
                reason += " (\(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
            }
            if parser.error == YAML_READER_ERROR {
                return fail(0, 0, "", "not valid YAML: \(reason) at byte \(parser.problem_offset)")
            }
            return fail(Int(parser.problem_mark.line) + 1, Int(parser.problem_mark.column) + 1, currentPath == "$" && stack.isEmpty ? "" : currentPath,
                        "not valid YAML: \(reason)")
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
            guard let pointer else { return "" }
            return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
        }

        static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let pointer else { return nil }
            return String(cString: pointer)
        }
    }
}
