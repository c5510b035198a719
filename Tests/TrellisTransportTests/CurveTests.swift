import Foundation
import Testing
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport
import ZeroMQ

/// SPEC §7 security: with CURVE, a peer whose public key is not on the allow-list gets nothing
/// in; an allowed one talks as usual.
@Suite(.timeLimit(.minutes(1)))
struct CurveTests {
    enum Seen: Sendable, Equatable {
        case message(peer: String, frames: [[UInt8]])
        case refused(String)
    }

    @Test func onlyAllowedKeysGetThrough() async throws {
        let server = try ZMQContext.curveKeyPair()
        let allowed = try ZMQContext.curveKeyPair()
        let stranger = try ZMQContext.curveKeyPair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-curve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let (seen, sink) = AsyncStream<Seen>.makeStream()
        var serverConfiguration = NodeIOConfiguration(nodeName: "server", bindEndpoint: "ipc://\(directory.path)/server.sock")
        serverConfiguration.curve = CurveConfiguration(publicKey: server.publicKey, secretKey: server.secretKey, allowedPeerKeys: [allowed.publicKey])
        let serverIO = try await NodeIO.start(
            serverConfiguration, heartbeat: [],
            onMessage: { peer, frames in sink.yield(.message(peer: peer, frames: frames)) },
            onEvent: { event in if case let .peerRefused(key) = event { sink.yield(.refused(key)) } })

        func client(_ name: String, _ keys: (publicKey: String, secretKey: String)) async throws -> NodeIO {
            var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: "ipc://\(directory.path)/\(name).sock")
            configuration.curve = CurveConfiguration(publicKey: keys.publicKey, secretKey: keys.secretKey, allowedPeerKeys: [server.publicKey])
            let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
            io.connect(peer: "server", endpoint: serverIO.boundEndpoint, serverKey: server.publicKey)
            return io
        }

        // The stranger speaks first: its handshake is refused, its message never arrives.
        let strangerIO = try await client("stranger", stranger)
        strangerIO.send(to: "server", [Array("let me in".utf8)])
        var iterator = seen.makeAsyncIterator()
        #expect(await iterator.next() == .refused(stranger.publicKey))

        // The allowed client's message arrives, and it is the first message the server sees.
        let friendIO = try await client("friend", allowed)
        friendIO.send(to: "server", [Array("hello".utf8)])
        var next = await iterator.next()
        while case .refused = next { next = await iterator.next() }  // the stranger retries its handshake
        #expect(next == .message(peer: "friend", frames: [Array("hello".utf8)]))

        await strangerIO.stop()
        await friendIO.stop()
        await serverIO.stop()
        sink.finish()
    }

    @Test func keyFilesAreReadAndChecked() throws {
        let pair = try ZMQContext.curveKeyPair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-keys-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("node.secret"), allow = directory.appendingPathComponent("allow")
        try (pair.secretKey + "\n").write(to: secret, atomically: true, encoding: .utf8)
        try "# peers\n\(pair.publicKey)  \n\n".write(to: allow, atomically: true, encoding: .utf8)
        let configuration = try #require(try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path))
        #expect(configuration.publicKey == pair.publicKey)
        #expect(configuration.allowedPeerKeys == [pair.publicKey])
        try "short".write(to: allow, atomically: true, encoding: .utf8)
        #expect(throws: CurveKeyFiles.KeyFileError.self) { try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path) }
    }

    /// SPEC §7 (issue 16): a secret key file is its owner's alone (0600), and reads back.
    @Test func secretKeysAreWrittenForTheirOwnerOnly() throws {
        let pair = try ZMQContext.curveKeyPair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-secret-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("b.secret"), allow = directory.appendingPathComponent("allow")
        try "stale".write(to: secret, atomically: true, encoding: .utf8)
        try CurveKeyFiles.writeSecret(pair.secretKey, to: secret)
        let permissions = try FileManager.default.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        try pair.publicKey.write(to: allow, atomically: true, encoding: .utf8)
        let configuration = try #require(try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path))
        #expect(configuration.publicKey == pair.publicKey)
    }
}
