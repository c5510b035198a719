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

    public static func < (lhs: ControllerID, rhs: ControllerID) -> Bool { lhs.name < rhs.name }
}
