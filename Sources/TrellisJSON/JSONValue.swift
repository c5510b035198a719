/// A parsed JSON value that remembers where it stood in its text, so that a reader can name
/// the line and column of a value it rejects, not only its JSON path.
///
/// Not `indirect`: arrays and objects already hold their items out of line, and boxing every
/// value cost an allocation a node (a scalar too) — a fifth of the memory of a large file.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// Members in the order they were written (keys are unique: the parser rejects duplicates).
    case object([(key: String, value: JSONNode)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a.map(\.value) == b.map(\.value)
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.value == $1.value.value }
        default: return false
        }
    }

    /// The JSON type name used in error messages ("object", "array", "string", …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON value with the line and column (both from 1) where it starts.
///
/// The position is kept in two `UInt32`s (a node is 32 bytes, not 40): a file is at most
/// `FileBytes.maximumSize` (2 GiB) bytes, so neither can exceed `UInt32.max`; a million-leaf
/// scenario holds three million nodes at once while it is decoded.
public struct JSONNode: Sendable, Equatable {
    public var value: JSONValue
    private var storedLine: UInt32
    private var storedColumn: UInt32

    /// The line (from 1; 0 when made in code, not read).
    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Self.position(newValue) }
    }

    /// The column (from 1; 0 when made in code, not read).
    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Self.position(newValue) }
    }

    public init(_ value: JSONValue, line: Int = 0, column: Int = 0) {
        self.value = value
        self.storedLine = Self.position(line)
        self.storedColumn = Self.position(column)
    }

    /// A position clamped into `UInt32` (no text the readers accept reaches the bound).
    private static func position(_ value: Int) -> UInt32 {
        UInt32(clamping: value)
    }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONNode? {
        if case let .object(members) = value {
            return members.first(where: { $0.key == key })?.value
        }
        return nil
    }
}
