import TrellisModel

/// Why the runtime refused a request. The hierarchy is unchanged when one is thrown.
public enum RuntimeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No controller of the window has this id.
    case unknownController(ControllerID)
    /// The first controller is not a child of the second.
    case notAChild(ControllerID, of: ControllerID)
    /// Two descriptions give the same id.
    case duplicateController(ControllerID)
    /// A controller is listed as a child of two containers.
    case usedTwice(ControllerID, firstParent: ControllerID, secondParent: ControllerID)
    /// The containment or presentation chain comes back to where it started.
    case cycle([ControllerID])
    /// A tab bar controller selects an index it has no child at.
    case invalidSelection(ControllerID, index: Int, childCount: Int)
    /// The window was closed: it takes no more events.
    case windowClosed
    /// A value that is not one: an event's (`WindowEvent.valueProblem`; nothing happened), or a
    /// described window's size, traits or controller id (`HierarchyDescription.validate`).
    case invalidValue(String)

    public var description: String {
        switch self {
        case let .unknownController(id): return "unknown controller \"\(id)\""
        case let .notAChild(child, parent): return "\"\(child)\" is not a child of \"\(parent)\""
        case let .duplicateController(id): return "controller \"\(id)\" is described twice"
        case let .usedTwice(id, first, second):
            return "controller \"\(id)\" is a child of both \"\(first)\" and \"\(second)\""
        case let .cycle(path): return "cycle in the hierarchy: " + path.map(\.name).joined(separator: " -> ")
        case let .invalidSelection(id, index, count):
            return "tab controller \"\(id)\" selects index \(index) but has \(count) children"
        case .windowClosed: return "the window is closed"
        case let .invalidValue(problem): return problem
        }
    }
}
