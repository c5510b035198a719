/// Why a scenario file was rejected: the file, the JSON path, the line and column, the reason.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// A JSON path such as `$.controllers.C2.overrides.viewWillTransition`.
    public var path: String
    public var line: Int
    public var column: Int
    public var message: String

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
