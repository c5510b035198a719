import TrellisTransport
import Foundation
import ZeroMQ

/// Reading CURVE key files: a secret key file holds one Z85 secret key; an allow-list file holds
/// Z85 public keys, one per line; a line starting with `#` is a comment (`#` is also a Z85
/// character, so comments cannot follow a key).
public enum CurveKeyFiles {
    public struct KeyFileError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func configuration(secretKeyFile: String?, allowFile: String?) throws(KeyFileError) -> CurveConfiguration? {
        guard let secretKeyFile, let allowFile else { return nil }
        let (secret, publicKey) = try readSecret(secretKeyFile)
        var allowed = Set<String>()
        for (index, line) in try read(allowFile).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let key = line.trimmingCharacters(in: .whitespaces)
            if key.isEmpty || key.hasPrefix("#") { continue }
            guard key.count == 40 else { throw KeyFileError(description: "\(allowFile):\(index + 1): expected a 40-character Z85 public key") }
            allowed.insert(key)
        }
        return CurveConfiguration(publicKey: publicKey, secretKey: secret, allowedPeerKeys: allowed)
    }

    /// Reads a secret key file: one Z85 secret key, in a file no one but its owner can read
    /// (a secret key readable by others is refused, as ssh refuses such a private key). Returns
    /// the key and the public key that belongs to it.
    public static func readSecret(_ path: String) throws(KeyFileError) -> (secretKey: String, publicKey: String) {
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
    public static func readPublic(_ path: String) throws(KeyFileError) -> String {
        let key = try read(path).trimmingCharacters(in: .whitespacesAndNewlines)
        guard key.count == 40, Z85.decodable(key) else { throw KeyFileError(description: "\(path): expected a 40-character Z85 public key") }
        return key
    }

    /// Writes a secret key readable and writable by its owner only (0600), created so from the
    /// start: never, even for a moment, readable by everyone.
    public static func writeSecret(_ key: String, to file: URL) throws(KeyFileError) {
        try? FileManager.default.removeItem(at: file)
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw KeyFileError(description: "\(file.path): cannot create the secret key file (errno \(errno))") }
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
