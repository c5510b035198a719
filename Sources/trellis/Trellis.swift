import ArgumentParser
import Foundation

/// The `trellis` command: run and validate scenarios (SPEC §8).
@main
struct Trellis: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis",
        abstract: "Simulate UIKit's content-container messages through a hierarchy of controller actors.",
        discussion: """
            Exit status: 0 success, 1 an `expect` step failed (with a diff on standard error), \
            2 bad input (scenario file, arguments, a distributed run set up wrongly: an unknown \
            node, a bad endpoint, a wrong conductor name or CURVE key), 3 a distributed run \
            failed (a node could not start, or was lost: the trace shows the faults). Scenario files are JSON, or YAML \
            when named *.yaml or *.yml; any file argument may be a pipe (<(...) or /dev/stdin).

            EXAMPLES:
              trellis validate Examples/iphone-rotation.json
              trellis run Examples/iphone-rotation.json --trace run.jsonl
              trellis trace show run.jsonl --tree --step 1
            """,
        version: TrellisVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, NodeCommand.self, KeysCommand.self, TraceCommand.self, BenchCommand.self]
    )

    /// Parses and runs, mapping every failure to SPEC §8's exit statuses: usage errors are 2,
    /// not ArgumentParser's default 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            StandardError.write(fullMessage(for: error))
            Foundation.exit(2)
        }
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
        FileHandle.standardOutput.write(Data(buffer.utf8))
        buffer = ""
    }
}
