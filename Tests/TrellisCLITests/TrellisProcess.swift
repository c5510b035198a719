import Foundation
import Testing
import TrellisTestSupport

/// Runs `trellis` with `arguments` from the package root and waits for it to exit; a run that
/// takes longer than `timeout` is killed and reported as timed out.
func runTrellis(
    _ arguments: [String], timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
) async throws -> ProcessOutcome {
    let binary = try #require(TrellisBinary.url, Comment(rawValue: TrellisBinary.missingMessage), sourceLocation: sourceLocation)
    return try await runProcess(binary, arguments, timeout: timeout, sourceLocation: sourceLocation)
}

/// Runs `binary` with `arguments`, bounded by `timeout` (see `runBounded`).
func runProcess(
    _ binary: URL, _ arguments: [String], timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> ProcessOutcome {
    try #require(try await runBounded(binary, arguments, timeout: timeout), "could not launch \(binary.path)", sourceLocation: sourceLocation)
}
