/// The readable identity of a controller within a hierarchy (`"R"`, `"detail"`).
///
/// A presentation controller is named after the controller it presents: `pc:P`.
public struct ControllerID: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as trace lines and scenario files write it.
    public let name: String

    /// The controller named `name`.
    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral value: String) {
        self.name = value
    }

    /// The identity of the presentation controller that presents `presented`.
    public static func presentationController(of presented: ControllerID) -> ControllerID {
        ControllerID("pc:" + presented.name)
    }

    /// The identity of the navigation controller an adaptive delegate wraps `presented` in (R49).
    public static func adaptiveWrapper(of presented: ControllerID) -> ControllerID {
        ControllerID("wrap:" + presented.name)
    }

    public var description: String { name }

    /// Characters a controller's id may not contain, so that canonical lines stay unambiguous:
    /// white space separates the receiver, `(`, `)` and `,` delimit arguments, `:` marks
    /// `pc:`/`wrap:` names, `"`, `#` and `=` quote, cite events and give values.
    public static let forbiddenCharacters: Set<Character> = ["(", ")", ",", ":", "\"", "#", "="]
    /// `forbiddenCharacters` as the bytes of their UTF-8.
    static let forbiddenBytes: [UInt8] = forbiddenCharacters.flatMap(\.utf8)

    /// What is wrong with `name` as a controller's id, nil when nothing is: empty, white space,
    /// a control character or a `forbiddenCharacters` one, or a word trace lines reserve. One rule
    /// for scenario files, storyboards and hierarchies built in Swift.
    public static func problem(with name: String) -> String? {
        if name.isEmpty { return "a controller id must not be empty" }
        // Checked scalar by scalar: a combining mark must not hide a forbidden character. An
        // ASCII id is checked byte by byte (its white space and controls are at most 0x20), the
        // same test without a Character and a set look-up a scalar.
        let refused = name.utf8.allSatisfy { $0 < 0x80 }
            ? name.utf8.contains { $0 <= 0x20 || forbiddenBytes.contains($0) }
            : name.unicodeScalars.contains { $0.properties.isWhitespace || forbiddenCharacters.contains(Character($0)) || $0.value < 0x20 }
        if refused {
            return "controller id \"\(name)\" may not contain white space or any of ( ) , : \" # ="
        }
        if name == "window" || name == "none" { return "\"\(name)\" is reserved and cannot name a controller" }
        return nil
    }

    public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.name < rhs.name }
}
