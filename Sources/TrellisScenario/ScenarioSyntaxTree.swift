import TrellisJSON

extension ScenarioDecoder {
    /// A scenario file's text as a tree that keeps each value's line and column (JSON, or YAML
    /// for a file named *.yaml or *.yml), or nil when it is neither: for reports that point at
    /// where in the file a step stands (`trellis run --format json` puts a failed `expect` at
    /// its line), which the decoded `Scenario` no longer knows.
    public static func syntaxTree(_ text: String, file: String) -> JSONNode? {
        if file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
            return try? YAMLScenarioReader.read(text, file: file)
        }
        return try? JSONParser.parse(text)
    }
}
