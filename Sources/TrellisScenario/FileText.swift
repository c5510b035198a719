import TrellisJSON
import TrellisTraceFiles

/// Reading a whole text file with an error that says which file and why. Streamed
/// (`FileBytes`), so a pipe or process substitution reads like a file.
enum FileText {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Text, where a compact capture (named where a scenario is wanted, `run t.trellis`) is
    /// said to be a trace as soon as its magic is read, as a JSON Lines trace is.
    private static func scenarioText(_ path: String) -> FileBytes.Content {
        .textRefusingAStart(CompactCaptureFormat.magic,
                            saying: "this is a compact trace capture, not a scenario: a trace is shown with `trace show \(path)`")
    }

    static func read(_ path: String) throws(ReadError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, content: scenarioText(path))
        } catch {
            throw ReadError(description: error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ReadError(description: "is not UTF-8 text") }
        return text
    }

    /// The file's bytes, refused as `read` refuses them (not UTF-8 included), for a reader that
    /// parses bytes: the file is then held once, not as bytes and a `String` both.
    static func bytes(_ path: String) throws(ReadError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, content: scenarioText(path))
        } catch {
            throw ReadError(description: error.description)
        }
        // The check's `String` is dropped at once: only the bytes are alive here.
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ReadError(description: "is not UTF-8 text") }
        return bytes
    }
}
