import Foundation
import TrellisTransport
import ZeroMQ

/// A folder of CURVE key files, one pair per node, as `trellis keys make` writes them:
/// `NAME.key` (the node's secret key, Z85, mode 0600) and `NAME.pub` (its public key), in a
/// folder only its owner can enter (0700). A node started with `--keys DIR` reads its own secret
/// key there, pins each peer's public key from `PEER.pub`, and lets in exactly the keys of the
/// folder's other `.pub` files. Each host needs its own node's `.key` and everyone's `.pub`.
package struct CurveKeyFolder: Sendable, Equatable {
    package let path: String

    package init(path: String) {
        self.path = path
    }

    package func secretKeyFile(of node: String) -> String { (path as NSString).appendingPathComponent("\(node).key") }
    package func publicKeyFile(of node: String) -> String { (path as NSString).appendingPathComponent("\(node).pub") }

    /// Whether a node name can name key files: not empty, no `/`, not starting with a dot.
    package static func isKeyName(_ node: String) -> Bool {
        !node.isEmpty && !node.contains("/") && !node.hasPrefix(".") && !node.contains("\0")
    }

    /// Makes a key pair for each node into `path`, created private (0700) when missing; an
    /// existing folder must be private already. Never overwrites a key. Returns the files written.
    package static func make(nodes: [String], in path: String) throws(CurveKeyFiles.KeyFileError) -> [String] {
        guard !nodes.isEmpty else { throw .init(description: "no node names: name each node to make a key pair for") }
        for node in nodes where !isKeyName(node) {
            throw .init(description: "\"\(node)\" cannot name key files (empty, a \"/\", or a leading dot)")
        }
        if let duplicate = Dictionary(grouping: nodes, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw .init(description: "\(duplicate) is named twice")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .init(description: "\(path) is not a folder") }
            var status = stat()
            guard stat(path, &status) == 0 else { throw .init(description: "\(path): cannot be read") }
            let mode = status.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw .init(description: "\(path): secret keys go in a folder only its owner can enter, but its mode is 0\(String(mode, radix: 8)) (chmod 700 \(path), or name a new folder)")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .init(description: "\(path): cannot create the folder (\(error.localizedDescription))")
            }
        }
        let folder = CurveKeyFolder(path: path)
        for node in nodes {
            for file in [folder.secretKeyFile(of: node), folder.publicKeyFile(of: node)] where FileManager.default.fileExists(atPath: file) {
                throw .init(description: "\(file) exists: keys are never overwritten (remove it first, or name another folder)")
            }
        }
        var written: [String] = []
        for node in nodes {
            let pair: (publicKey: String, secretKey: String)
            do {
                pair = try ZMQContext.curveKeyPair()
            } catch {
                throw .init(description: "cannot make a CURVE key pair: \(error)")
            }
            let secretFile = folder.secretKeyFile(of: node), publicFile = folder.publicKeyFile(of: node)
            try CurveKeyFiles.writeSecret(pair.secretKey + "\n", to: URL(fileURLWithPath: secretFile))
            do {
                try (pair.publicKey + "\n").write(toFile: publicFile, atomically: true, encoding: .utf8)
            } catch {
                throw .init(description: "\(publicFile): cannot write (\(error.localizedDescription))")
            }
            written += [secretFile, publicFile]
        }
        return written
    }

    /// The public key of `node` (`NODE.pub`).
    package func publicKey(of node: String) throws(CurveKeyFiles.KeyFileError) -> String {
        try CurveKeyFiles.readPublic(publicKeyFile(of: node))
    }

    /// Every public key of the folder, by node name (`*.pub`).
    package func publicKeys() throws(CurveKeyFiles.KeyFileError) -> [String: String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .init(description: "\(path): cannot list the folder (\(error.localizedDescription))")
        }
        var keys: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".pub") && name.count > 4 {
            let node = String(name.dropLast(4))
            keys[node] = try publicKey(of: node)
        }
        return keys
    }

    /// What node `node` runs with: its secret key (`NODE.key`, refused when others can read it),
    /// and as the keys allowed in, every other public key of the folder.
    package func configuration(for node: String) throws(CurveKeyFiles.KeyFileError) -> CurveConfiguration {
        let (configuration, shared) = try configurationWithoutShared(for: node)
        if let shared { throw shared }
        return configuration
    }

    /// The same, the keys two other nodes share left out of the keys allowed in and their
    /// mistake returned, not thrown: a conductor names it once it listens, so that it can tell
    /// the nodes started by hand why the run did not start (`DistributedRun.keysFromFolder`).
    package func configurationWithoutShared(for node: String) throws(CurveKeyFiles.KeyFileError) -> (CurveConfiguration, shared: CurveKeyFiles.KeyFileError?) {
        let (secret, publicKey) = try CurveKeyFiles.readSecret(secretKeyFile(of: node))
        var others = try publicKeys()
        if let own = others.removeValue(forKey: node), own != publicKey {
            throw .init(description: "\(publicKeyFile(of: node)) is not the public key of \(secretKeyFile(of: node)): the two files are not one pair")
        }
        let (allowed, shared) = CurveKeyFiles.allowListWithoutShared(others, from: path)
        return (CurveConfiguration(publicKey: publicKey, secretKey: secret, allowedPeers: allowed), shared)
    }
}
