import Foundation
import Testing
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport
import ZeroMQ

/// Issue 16, item 7: CURVE across hosts — key files made beforehand, secret keys that are their
/// owner's alone, and handshakes that fail because of keys named on both sides.
@Suite(.distributedHangGuard)
struct CurveKeyFolderTests {
    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-keyfolder-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aKeyFolderIsPrivateItsSecretKeysTheirOwnersAndNothingIsOverwritten() throws {
        let parent = try Self.folder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let path = parent.appendingPathComponent("keys").path
        let written = try CurveKeyFolder.make(nodes: ["main", "b", "c"], in: path)
        #expect(written.map { ($0 as NSString).lastPathComponent } == ["main.key", "main.pub", "b.key", "b.pub", "c.key", "c.pub"])
        #expect(try Self.mode(path) == 0o700)
        #expect(try Self.mode("\(path)/b.key") == 0o600)
        #expect(try Self.mode("\(path)/b.pub") == 0o644)
        let folder = CurveKeyFolder(path: path)
        // A node's configuration: its own secret key, the folder's other public keys let in.
        let b = try folder.configuration(for: "b")
        #expect(b.publicKey == (try folder.publicKey(of: "b")))
        #expect(b.allowedPeers == [try folder.publicKey(of: "main"): "main", try folder.publicKey(of: "c"): "c"])
        // Never overwritten; a folder others can enter is refused.
        #expect(throws: CurveKeyFiles.KeyFileError.self) { try CurveKeyFolder.make(nodes: ["b"], in: path) }
        let open = parent.appendingPathComponent("open").path
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        do {
            _ = try CurveKeyFolder.make(nodes: ["b"], in: open)
            Issue.record("a folder others can enter took a secret key")
        } catch {
            #expect(error.description.contains("mode is 0755 (chmod 700"), "\(error)")
        }
        #expect(throws: CurveKeyFiles.KeyFileError.self) { try CurveKeyFolder.make(nodes: ["../x"], in: path) }
    }

    @Test func aSecretKeyOthersCanReadIsRefusedAndAMissingKeyNamed() throws {
        let parent = try Self.folder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let path = parent.appendingPathComponent("keys").path
        _ = try CurveKeyFolder.make(nodes: ["main", "b"], in: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: "\(path)/b.key")
        do {
            _ = try CurveKeyFolder(path: path).configuration(for: "b")
            Issue.record("a secret key readable by others was taken")
        } catch {
            #expect(error.description == "\(path)/b.key: a secret key must be its owner's alone, but its mode is 0644 (chmod 600 \(path)/b.key)")
        }
        do {
            _ = try CurveKeyFolder(path: path).publicKey(of: "c")
            Issue.record("a missing public key was found")
        } catch {
            #expect(error.description == "\(path)/c.pub: no such file")
        }
    }
}
