/// Why a scenario file was rejected: the file, the JSON path, the line and column, the reason.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named (a path, or a label for text read from elsewhere).
    public var file: String
    /// A JSON path such as `$.controllers.C2.overrides.viewWillTransition`.
    public var path: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int
    /// What is wrong, in words.
    public var message: String

    /// An error at `path`, at `line` and `column` of `file`.
    public init(file: String, path: String, line: Int, column: Int, message: String) {
        self.file = file
        self.path = path
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        let position = line > 0 ? "\(file):\(line):\(column)" : file
        return path.isEmpty ? "\(position): \(message)" : "\(position): \(path): \(message)"
    }
}
