import ArgumentParser
import Foundation
import Synchronization
import TrellisDistributed
import TrellisRuntime
import TrellisTrace

/// The whole `trellis` command line for a program of your own (SPEC §4.1, §8): a runner
/// registers its Swift behaviours by name and hands them to every command.
///
/// ```swift
/// import TrellisCLI
/// import TrellisRuntime
///
/// @main struct MyTrellis {
///     static func main() async {
///         await TrellisCLI.main(registry: BehaviorRegistry()
///             .presentationController("Overlay", OverlayPresentation()))
///     }
/// }
/// ```
///
/// The plain `trellis` is this entry point with an empty registry.
public enum TrellisCLI {
    /// Runs the command line of this process's arguments and exits with SPEC §8's status: 0
    /// success, 1 a failed `expect`, 2 bad input, 3 a failed distributed run.
    public static func main(registry: BehaviorRegistry) async -> Never {
        let status = await run(arguments: Array(CommandLine.arguments.dropFirst()), registry: registry)
        exit(status)
    }

    /// Parses `arguments` (without the program's name) and runs the command with `registry`,
    /// returning the exit status instead of exiting. Output goes to this process's standard
    /// output and error.
    public static func run(arguments: [String], registry: BehaviorRegistry) async -> Int32 {
        // A runner built with a registry it did not mean (`BehaviorRegistry.mistakes`) says so
        // before anything runs with it.
        guard registry.mistakes.isEmpty else {
            StandardError.write("error: this runner's behaviour registry has mistakes (fix its BehaviorRegistry):\n"
                + registry.mistakes.map { "  - \($0)" }.joined(separator: "\n"))
            return 2
        }
        do {
            var command = try Trellis.parseAsRoot(arguments)
            if let behaviorCommand = command as? any BehaviorCommand {
                try await behaviorCommand.run(registry: registry)
            } else if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            // Usage errors are 2, not ArgumentParser's default 64.
            if Trellis.exitCode(for: error) == .success {
                print(Trellis.fullMessage(for: error))
                return 0
            }
            // A CI that asked for JSON gets its one document even when the arguments are wrong.
            if UsageErrorReport.asksForJSON(arguments) {
                UsageErrorReport.emit(arguments: arguments, message: Trellis.message(for: error))
            } else {
                StandardError.write(unknownCommandMessage(arguments) ?? Trellis.fullMessage(for: error))
            }
            return 2
        }
    }
}

extension TrellisCLI {
    /// A first argument that is no command (`trellis runn x.json`), named, with the command it is
    /// closest to: ArgumentParser says only "2 unexpected arguments".
    static func unknownCommandMessage(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let commands = Set(Trellis.configuration.subcommands.map { $0._commandName } + ["help"])
        guard !commands.contains(first) else { return nil }
        let hint = NearestName.of(first, among: commands).map { " (did you mean '\($0)'?)" } ?? ""
        return "Error: unknown command '\(first)'\(hint); the commands are \(commands.sorted().joined(separator: ", "))\n"
            + "Usage: \(Trellis.configuration.commandName ?? "trellis") <subcommand>\n  See '\(Trellis.configuration.commandName ?? "trellis") --help' for more information."
    }
}

/// A command that builds controllers, and so needs the runner's behaviours: `TrellisCLI.run`
/// calls `run(registry:)` in place of `run()`.
protocol BehaviorCommand: AsyncParsableCommand {
    func run(registry: BehaviorRegistry) async throws
}

extension BehaviorCommand {
    /// Only reached when a command is run without `TrellisCLI.run` (never by the tool itself):
    /// then no behaviours are registered, as in the plain `trellis`.
    func run() async throws {
        try await run(registry: BehaviorRegistry())
    }
}

/// The `trellis` command: run and validate scenarios (SPEC §8).
struct Trellis: AsyncParsableCommand {
    /// Named after the program that runs it: the plain `trellis`, or a runner's own name.
    static let configuration = CommandConfiguration(
        commandName: ProgramName.current,
        abstract: "Simulate UIKit's content-container messages through a hierarchy of controller actors.",
        discussion: """
            Exit status: 0 success, 1 an `expect` step failed (with a diff on standard error), \
            2 bad input (scenario file, arguments, a distributed run set up wrongly: an unknown \
            node, a bad endpoint, a wrong conductor name or CURVE key), 3 a distributed run \
            failed (a node could not start, or was lost: the trace shows the faults). Scenario files are JSON, or YAML \
            when named *.yaml or *.yml; any file argument may be a pipe (<(...) or /dev/stdin).

            Scenario files may name Swift behaviours ("behavior": "Name"): run them with the \
            runner that registers them (a program calling TrellisCLI.main(registry:)); \
            `behaviors` lists what this program registers.

            EXAMPLES:
              \(ProgramName.current) validate Examples/iphone-rotation.json
              \(ProgramName.current) run Examples/iphone-rotation.json --trace run.jsonl
              \(ProgramName.current) trace show run.jsonl --tree --step 1
            """,
        version: TrellisVersion.current,
        subcommands: [
            RunCommand.self, ValidateCommand.self, ImportCommand.self, NodeCommand.self, KeysCommand.self, TraceCommand.self, BenchCommand.self,
            BehaviorsCommand.self,
        ]
    )
}

/// `trellis behaviors`: the Swift behaviours this program registers (none for the plain tool).
struct BehaviorsCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "behaviors",
        abstract: "List the Swift behaviours this program registers, by kind (scenario files name them with \"behavior\").",
        discussion: """
            One line per name: KIND NAME, KIND one of viewController, presentationController, \
            adaptiveDelegate. The plain trellis registers none and prints nothing.
            """)

    func run(registry: BehaviorRegistry) async throws {
        var output = OutputBuffer()
        for entry in registry.names {
            output.line("\(entry.kind.rawValue) \(entry.name)")
        }
        output.flush()
    }
}

/// Writes diagnostics to standard error.
enum StandardError {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}

/// Writes results to standard output in large chunks.
struct OutputBuffer {
    private var buffer = ""

    mutating func line(_ text: String) {
        buffer += text
        buffer += "\n"
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        defer { buffer = "" }
        // Once the reader is gone (`| head` has what it wanted: EPIPE, and with `run` SIGPIPE
        // is handled as an interruption) nothing more is written: each write would fail again.
        guard !Self.closed.load(ordering: .relaxed) else { return }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data(buffer.utf8))
        } catch {
            Self.closed.store(true, ordering: .relaxed)
            // Foundation wraps the system's error: EPIPE is the reader gone, anything else
            // (ENOSPC, EIO) a failure to say.
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let code = underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil }
            InterruptHandling.outputFailed(code == EPIPE ? nil : code.map { String(cString: strerror($0)) } ?? "\(error)")
        }
    }

    /// Whether standard output could not be written (its reader closed it).
    static let closed = Atomic<Bool>(false)
}
