import Foundation

/// Reading a whole text file with an error that says which file and why.
enum FileText {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func read(_ path: String) throws(ReadError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReadError(description: "no such file")
        }
        guard !isDirectory.boolValue else { throw ReadError(description: "is a directory, not a file") }
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(description: "cannot be read") }
        guard let text = String(data: data, encoding: .utf8) else { throw ReadError(description: "is not UTF-8 text") }
        return text
    }
}
