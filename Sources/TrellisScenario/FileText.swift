import TrellisJSON

/// Reading a whole text file with an error that says which file and why. Streamed
/// (`FileBytes`), so a pipe or process substitution reads like a file.
enum FileText {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws(ReadError) -> String {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path)
        } catch {
            throw ReadError(description: error.description)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ReadError(description: "is not UTF-8 text") }
        return text
    }
}
