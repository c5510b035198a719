/// Why a storyboard was refused (SPEC §11 "Bad input"): where (`FILE:LINE:COLUMN`), the element
/// and what is wrong, so an engineer can open the file at the spot Interface Builder wrote.
public struct StoryboardError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// From 1; 0 when the fault has no place in the file (it cannot be read, say).
    public var line: Int
    public var column: Int
    /// The element's name as written (`segue`, `splitViewController`); empty for the whole file.
    public var element: String
    public var message: String

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

    public var description: String {
        let position = line > 0 ? "\(file):\(line):\(column)" : file
        return element.isEmpty ? "\(position): \(message)" : "\(position): <\(element)>: \(message)"
    }
}
