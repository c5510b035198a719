/// The name this program was started under — `trellis`, or a runner's own (SPEC §4.1: a
/// program of the user's that calls `TrellisCLI.main(registry:)`) — for its help and usage
/// lines and for what its nodes write: a user who started `myapp-trellis` reads
/// `myapp-trellis node b: …`, not the name of another program.
package enum ProgramName {
    /// This process's name: the last component of its first argument (as a shell shows it).
    package static let current = name(fromFirstArgument: CommandLine.arguments.first)

    /// The last path component of `argument`; `trellis` when there is none (a program started
    /// without a first argument, or with an empty one or a bare `/`).
    package static func name(fromFirstArgument argument: String?) -> String {
        let last = argument?.split(separator: "/").last.map(String.init) ?? ""
        return last.isEmpty ? "trellis" : last
    }
}
