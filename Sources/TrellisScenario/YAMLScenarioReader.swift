import TrellisJSON
import Yams

/// Reads a YAML scenario file into the same positioned JSON values the JSON reader gives, so
/// that one decoder validates both (SPEC §5: JSON canonical, YAML accepted). YAML's extras
/// that JSON has no word for are refused: aliases, non-string keys, duplicate keys.
enum YAMLScenarioReader {
    /// More nodes than this are refused: anchors and aliases could otherwise expand a small
    /// file into an enormous one.
    static let maximumNodes = 2_000_000

    static func read(_ text: String, file: String) throws(ScenarioError) -> JSONNode {
        let root: Yams.Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ScenarioError(file: file, path: "", line: 0, column: 0, message: "not valid YAML: \(error)")
        }
        guard let root else {
            throw ScenarioError(file: file, path: "", line: 0, column: 0, message: "the YAML document is empty")
        }
        var budget = maximumNodes
        return try convert(root, path: "$", file: file, budget: &budget, depth: 0)
    }

    private static func position(_ node: Yams.Node) -> (line: Int, column: Int) {
        guard let mark = node.mark else { return (0, 0) }
        return (mark.line, mark.column)
    }

    private static func convert(_ node: Yams.Node, path: String, file: String, budget: inout Int, depth: Int) throws(ScenarioError) -> JSONNode {
        let (line, column) = position(node)
        func fail(_ message: String) -> ScenarioError {
            ScenarioError(file: file, path: path, line: line, column: column, message: message)
        }
        budget -= 1
        guard budget >= 0 else { throw fail("more than \(maximumNodes) YAML nodes") }
        guard depth < JSONParser.maximumDepth else { throw fail("nesting deeper than \(JSONParser.maximumDepth) levels") }
        switch node {
        case let .scalar(scalar):
            // The tag YAML's core schema resolved: a quoted "true" stays a string.
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: return JSONNode(.null, line: line, column: column)
            case Tag.Name.bool.rawValue: return JSONNode(node.bool.map(JSONValue.bool) ?? .string(scalar.string), line: line, column: column)
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue:
                guard let number = node.float, number.isFinite else { throw fail("number out of range: \(scalar.string)") }
                return JSONNode(.number(number), line: line, column: column)
            default:
                return JSONNode(.string(scalar.string), line: line, column: column)
            }
        case let .sequence(sequence):
            var items: [JSONNode] = []
            for (index, item) in sequence.enumerated() {
                items.append(try convert(item, path: "\(path)[\(index)]", file: file, budget: &budget, depth: depth + 1))
            }
            return JSONNode(.array(items), line: line, column: column)
        case let .mapping(mapping):
            var members: [(key: String, value: JSONNode)] = []
            var seen = Set<String>()
            for (key, value) in mapping {
                guard case let .scalar(keyScalar) = key else { throw fail("mapping keys must be plain strings") }
                let name = keyScalar.string
                guard seen.insert(name).inserted else { throw fail("duplicate key \"\(name)\"") }
                members.append((name, try convert(value, path: path + "." + name, file: file, budget: &budget, depth: depth + 1)))
            }
            return JSONNode(.object(members), line: line, column: column)
        case .alias:
            throw fail("YAML aliases are not accepted in scenario files")
        }
    }
}
