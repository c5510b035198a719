/// Why a storyboard was refused (SPEC §11 "Bad input"): where (`FILE:LINE:COLUMN`), the element
/// and what is wrong, so an engineer can open the file at the spot Interface Builder wrote.
public struct StoryboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The storyboard file the fault is in (a referenced one's own name for its faults).
    public var file: String
    /// From 1; 0 when the fault has no place in the file (it cannot be read, say).
    public var line: Int
    /// From 1, in characters; 0 with `line`.
    public var column: Int
    /// The element's name as written (`segue`, `splitViewController`); empty for the whole file.
    public var element: String
    /// What is wrong, worded to follow the element.
    public var message: String

    /// A refusal at `file:line:column`, of `element`.
    public init(file: String, line: Int, column: Int, element: String, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.element = element
        self.message = message
    }

    init(_ element: StoryboardElement, file: String, _ message: String) {
        self.init(file: file, line: element.line, column: element.column, element: element.name, message: message)
    }

    /// `FILE:LINE:COLUMN: <element>: what is wrong` (no place when there is none).
    public var description: String {
        let position = line > 0 ? "\(file):\(line):\(column)" : file
        return element.isEmpty ? "\(position): \(message)" : "\(position): <\(element)>: \(message)"
    }
}
