import Foundation
import Testing
import TrellisTestSupport

/// The shell completion scripts argument-parser generates from the command line's definition
/// (issue 26, item 5): each shell's script is produced, and the file arguments complete as
/// files of the right kind — scenario files by extension, key and capture folders as folders.
@Suite("Shell completions")
struct CompletionScriptTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func everyShellGetsAScript(_ shell: String) async throws {
        let outcome = try await runTrellis(["--generate-completion-script", shell])
        #expect(outcome.status == 0)
        for command in ["run", "validate", "trace", "node", "keys", "bench"] {
            #expect(outcome.stdout.contains(command), "\(shell) script does not mention \(command)")
        }
    }

    /// zsh's script names each argument's completion kind most plainly: `_files -g` with the
    /// patterns of a scenario file, `_files -/` for a folder.
    @Test func fileArgumentsCompleteAsFilesAndFolders() async throws {
        let outcome = try await runTrellis(["--generate-completion-script", "zsh"])
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        func line(_ prefix: String) -> String? { lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) } }
        #expect(line("':scenario:")?.contains("_files -g") == true, "a scenario argument completes as a JSON or YAML file")
        #expect(line("':scenario:")?.contains("*.yaml") == true)
        #expect(line("'--trace-dir[")?.hasSuffix(":_files -/'") == true, "--trace-dir completes as a folder")
        #expect(line("'--keys[")?.hasSuffix(":_files -/'") == true, "--keys completes as a folder")
        #expect(line("'--trace[")?.hasSuffix(":_files'") == true, "--trace completes as a file")
    }
}
