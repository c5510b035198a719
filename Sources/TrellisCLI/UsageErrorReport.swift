import ArgumentParser

/// The JSON document of arguments that do not parse, when they ask for `--format json`
/// (docs/json-output.md): the command cannot say it, since it was never made.
enum UsageErrorReport {
    /// Whether `arguments` say `--format json` (or `--format=json`) anywhere.
    static func asksForJSON(_ arguments: [String]) -> Bool {
        zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == "json" } || arguments.contains("--format=json")
    }

    /// The command the arguments name as far as they can be read, walking the subcommand tree
    /// ("trace diff", "run"); "trellis" when they name none.
    static func command(of arguments: [String]) -> String {
        var words: [String] = []
        var level: [any ParsableCommand.Type] = Trellis.configuration.subcommands
        for argument in arguments {
            guard let next = level.first(where: { $0.configuration.commandName == argument }) else { break }
            words.append(argument)
            level = next.configuration.subcommands
        }
        return words.isEmpty ? "trellis" : words.joined(separator: " ")
    }

    static func emit(arguments: [String], message: String) {
        var report = JSONReport(command: command(of: arguments))
        report.set("errors", JSONFields.array([JSONFields.error(file: nil, message: message)]))
        report.emit(status: 2)
    }
}
