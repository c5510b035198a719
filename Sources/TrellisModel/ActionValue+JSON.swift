import TrellisJSON

// An action's value is any JSON value (SPEC §4.2): read from a scenario file, and carried between
// nodes as exact JSON text (TWP §8, 0x0A) — not the canonical trace text, whose numbers are
// rounded to 3 decimals, so that a behaviour on another node sees the very number sent.

extension ActionValue {
    /// A parsed JSON value as an action's value: the one mapping the scenario reader and the
    /// wire share.
    public init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case let .bool(flag): self = .bool(flag)
        case let .number(number): self = .number(number)
        case let .string(text): self = .string(text)
        case let .array(items): self = .array(items.map { ActionValue(json: $0.value) })
        case let .object(members): self = .object(members.map { ActionMember($0.key, ActionValue(json: $0.value.value)) })
        }
    }

    /// Whether every number in the value is finite: JSON (RFC 8259) has no infinity or NaN, so
    /// only such a value can cross to another node. A scenario's values always are (its reader
    /// rejects numbers out of range); one made in Swift is checked where it enters a run.
    public var isJSON: Bool {
        switch self {
        case .null, .bool, .string: return true
        case let .number(number): return number.isFinite
        case let .array(items): return items.allSatisfy(\.isJSON)
        case let .object(members): return members.allSatisfy(\.value.isJSON)
        }
    }

    /// Exact compact JSON text (RFC 8259), numbers in Swift's shortest text that reads back as
    /// the same `Double`: what the wire carries. Only for a value that `isJSON`.
    public var jsonText: String { JSONWriter.write(jsonValue) }

    /// The most bytes an action's value may take as `jsonText`: it travels to the node that
    /// hosts the target as one TWP/1 string (`performAction`, a 16-bit length), so a scenario
    /// with a larger value is refused where it is read (`$.steps[i].value`), in-process too,
    /// rather than run in one process and fail over ZeroMQ.
    public static let maxJSONBytes = 65_535

    private var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case let .bool(flag): return .bool(flag)
        case let .number(number): return .number(number)
        case let .string(text): return .string(text)
        case let .array(items): return .array(items.map { JSONNode($0.jsonValue) })
        case let .object(members): return .object(members.map { (key: $0.key, value: JSONNode($0.value.jsonValue)) })
        }
    }
}
