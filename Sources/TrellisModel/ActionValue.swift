import TrellisJSON

/// The value a user action carries (SPEC §4.2, the `action` step's `value`): any JSON value —
/// a keyboard height, a drag's translation, a tapped item. Kept here, in the value model, so that
/// the runtime, the scenario reader and the wire can all carry it (`ActionValue+JSON.swift`: the
/// mapping from parsed JSON and the exact text the wire carries).
public indirect enum ActionValue: Sendable, Hashable, CustomStringConvertible {
    /// JSON's `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON has one kind: a double).
    case number(Double)
    /// A string.
    case string(String)
    /// Elements in order.
    case array([ActionValue])
    /// Members in the order they were written.
    case object([ActionMember])

    /// The JSON type of this value, as a behaviour declares the type it expects.
    public var type: ActionValueType {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// The member named `key` of an object (nil for anything else).
    public subscript(key: String) -> ActionValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The number, when this is one: the common case of a keyboard height or an offset.
    public var number: Double? {
        guard case let .number(value) = self else { return nil }
        return value
    }

    /// Compact JSON, numbers as canonical trace text prints them (SPEC §6), so that a step's
    /// header and a trace line read the same in every process.
    public var description: String {
        switch self {
        case .null: return "null"
        case let .bool(value): return value ? "true" : "false"
        case let .number(value): return CanonicalNumber.format(value)
        case let .string(value): return JSONWriter.quoted(value)
        case let .array(items): return "[" + items.map(\.description).joined(separator: ",") + "]"
        case let .object(members): return "{" + members.map { JSONWriter.quoted($0.key) + ":" + $0.value.description }.joined(separator: ",") + "}"
        }
    }
}

/// One member of an `ActionValue` object.
public struct ActionMember: Sendable, Hashable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: ActionValue

    /// A member named `key`.
    public init(_ key: String, _ value: ActionValue) {
        self.key = key
        self.value = value
    }
}

/// The JSON type of an action's value, named as the scenario format's errors name JSON types.
public enum ActionValueType: String, Sendable, Hashable, CaseIterable {
    /// `null`.
    case null
    /// `true` or `false`.
    case boolean
    /// A number.
    case number
    /// A string.
    case string
    /// An array.
    case array
    /// An object.
    case object

    /// The type's name with its article, for messages: "a number", "an array".
    public var withArticle: String {
        switch self {
        case .array, .object: "an \(rawValue)"
        case .null, .boolean, .number, .string: "a \(rawValue)"
        }
    }
}
