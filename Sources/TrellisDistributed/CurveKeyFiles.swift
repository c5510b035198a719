import TrellisTransport
import Foundation
import ZeroMQ

/// Reading CURVE key files: a secret key file holds one Z85 secret key; an allow-list file holds
/// a line `NAME=KEY` for each peer allowed in — the node name and the Z85 public key it speaks
/// with (TWP §10) — and a line starting with `#` is a comment.
package enum CurveKeyFiles {
    /// What is wrong with a key file or folder, naming the file (and line).
    package struct KeyFileError: Error, CustomStringConvertible {
        package var description: String
    }

    package static func configuration(secretKeyFile: String?, allowFile: String?) throws(KeyFileError) -> CurveConfiguration? {
        guard let secretKeyFile, let allowFile else { return nil }
        let (secret, publicKey) = try readSecret(secretKeyFile)
        var keysByNode: [String: String] = [:]
        for (index, line) in try read(allowFile).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty || entry.hasPrefix("#") { continue }
            let place = "\(allowFile):\(index + 1)"
            let (node, key): (String, String)
            do {
                (node, key) = try nameAndKey(entry)
            } catch {
                throw KeyFileError(description: "\(place): \(error)")
            }
            guard keysByNode.updateValue(key, forKey: node) == nil else { throw KeyFileError(description: "\(place): \(node) is named twice") }
        }
        return CurveConfiguration(publicKey: publicKey, secretKey: secret, allowedPeers: try allowList(keysByNode, from: allowFile))
    }

    /// Reads `NAME=KEY`: a node name and its Z85 public key (a line of an allow file, a
    /// `--peer-key`). The key is the last 40 characters — Z85 has "=" in its alphabet, so the
    /// separator is the character before them, not the first "=" — and the name is what comes
    /// before, non-empty and without spaces around it.
    package static func nameAndKey(_ entry: String) throws(KeyFileError) -> (node: String, key: String) {
        let characters = Array(entry)
        guard characters.count > 41, characters[characters.count - 41] == "=" else {
            throw KeyFileError(description: "expected NAME=KEY, a node name and its 40-character Z85 public key")
        }
        let node = String(characters[..<(characters.count - 41)]), key = String(characters.suffix(40))
        guard node.trimmingCharacters(in: .whitespaces) == node, !node.contains("\u{0}") else {
            throw KeyFileError(description: "the node name \"\(node)\" has spaces around it, or a NUL")
        }
        guard Z85.decodable(key) else { throw KeyFileError(description: "expected a 40-character Z85 public key after \(node)=") }
        return (node, key)
    }

    /// The allow-list of `keysByNode` (node name → public key), turned round: public key → node
    /// name. Two nodes with one key are refused — the key's holder could speak as either.
    package static func allowList(_ keysByNode: [String: String], from source: String) throws(KeyFileError) -> [String: String] {
        let (allowed, shared) = allowListWithoutShared(keysByNode, from: source)
        if let shared { throw shared }
        return allowed
    }

    /// The same without the keys two nodes share, and the mistake of the first such pair (by
    /// name): for a conductor, which names it once it listens, so that it can tell the nodes
    /// started by hand why the run did not start — neither of the two is let in meanwhile.
    package static func allowListWithoutShared(_ keysByNode: [String: String], from source: String) -> (allowed: [String: String], shared: KeyFileError?) {
        var nodesByKey: [String: String] = [:]
        var sharedKeys: Set<String> = []
        var mistake: KeyFileError?
        for node in keysByNode.keys.sorted() {
            guard let key = keysByNode[node] else { continue }
            if let other = nodesByKey.updateValue(node, forKey: key) {
                sharedKeys.insert(key)
                mistake = mistake ?? KeyFileError(description: "\(source): \(other) and \(node) have the same public key; each node needs a key pair of its own")
            }
        }
        for key in sharedKeys { nodesByKey[key] = nil }
        return (nodesByKey, mistake)
    }

    /// The nodes of `keysByNode` whose public key another of them has too.
    package static func nodesSharingKeys(_ keysByNode: [String: String]) -> Set<String> {
        Set(Dictionary(grouping: keysByNode.keys) { keysByNode[$0] ?? "" }.values.filter { $0.count > 1 }.joined())
    }

    /// Reads a secret key file: one Z85 secret key, in a file no one but its owner can read
    /// (a secret key readable by others is refused, as ssh refuses such a private key). Returns
    /// the key and the public key that belongs to it.
    package static func readSecret(_ path: String) throws(KeyFileError) -> (secretKey: String, publicKey: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { throw KeyFileError(description: "\(path): cannot be read (\(String(cString: strerror(errno))))") }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw KeyFileError(description: "\(path): a secret key must be its owner's alone, but its mode is 0\(String(mode, radix: 8)) (chmod 600 \(path))")
        }
        let secret = try read(path).trimmingCharacters(in: .whitespacesAndNewlines)
        guard secret.count == 40 else { throw KeyFileError(description: "\(path): expected a 40-character Z85 secret key") }
        do {
            return (secret, try ZMQContext.curvePublicKey(forSecretKey: secret))
        } catch {
            throw KeyFileError(description: "\(path): not a Z85 secret key (\(error))")
        }
    }

    /// Reads a public key file: one Z85 public key (40 characters).
    package static func readPublic(_ path: String) throws(KeyFileError) -> String {
        let key = try read(path).trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.count == 40, Z85.decodable(key) else { throw KeyFileError(description: "\(path): expected a 40-character Z85 public key") }
        return key
    }

    /// Writes a secret key readable and writable by its owner only (0600), created so from the
    /// start: never, even for a moment, readable by everyone. A file already there is never
    /// replaced (nor followed, if it is a link): that is an error.
    package static func writeSecret(_ key: String, to file: URL) throws(KeyFileError) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == EEXIST ? "it exists already, and a key is never overwritten" : String(cString: strerror(errno))
            throw KeyFileError(description: "\(file.path): cannot create the secret key file (\(reason))")
        }
        defer { close(descriptor) }
        let bytes = Array(key.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw KeyFileError(description: "\(file.path): cannot write the secret key file") }
    }

    static func read(_ path: String) throws(KeyFileError) -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw KeyFileError(description: "\(path): no such file") }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw KeyFileError(description: "\(path): cannot be read")
        }
        return text
    }
}
