import Foundation
import Synchronization
import Testing
import TrellisTestSupport
import TrellisDistributed
import TrellisTransport
import ZeroMQ

/// SPEC §7 security: with CURVE, a peer whose public key is not on the allow-list gets nothing
/// in; an allowed one talks as usual.
@Suite(.distributedHangGuard)
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
        serverConfiguration.curve = CurveConfiguration(publicKey: server.publicKey, secretKey: server.secretKey, allowedPeers: [allowed.publicKey: "friend"])
        let serverIO = try await NodeIO.start(
            serverConfiguration, heartbeat: [],
            onMessage: { peer, frames in sink.yield(.message(peer: peer, frames: frames)) },
            onEvent: { event in if case let .peerRefused(key) = event { sink.yield(.refused(key)) } })

        func client(_ name: String, _ keys: (publicKey: String, secretKey: String)) async throws -> NodeIO {
            var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: "ipc://\(directory.path)/\(name).sock")
            configuration.curve = CurveConfiguration(publicKey: keys.publicKey, secretKey: keys.secretKey, allowedPeers: [server.publicKey: "server"])
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

    /// TWP §10 rule 5: an allowed key speaks as its own node only. A peer holding friend's key
    /// but calling itself mallory gets nothing in, and the node says so; friend gets through.
    @Test func aKeySpeaksForItsOwnNodeOnly() async throws {
        let server = try ZMQContext.curveKeyPair(), friend = try ZMQContext.curveKeyPair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-curve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        enum Heard: Sendable, Equatable {
            case message(peer: String, frames: [[UInt8]])
            case event(NodeIOEvent)
        }
        let (heard, sink) = AsyncStream<Heard>.makeStream()
        var serverConfiguration = NodeIOConfiguration(nodeName: "server", bindEndpoint: "ipc://\(directory.path)/server.sock")
        serverConfiguration.curve = CurveConfiguration(publicKey: server.publicKey, secretKey: server.secretKey, allowedPeers: [friend.publicKey: "friend"])
        let serverIO = try await NodeIO.start(
            serverConfiguration, heartbeat: [],
            onMessage: { peer, frames in sink.yield(.message(peer: peer, frames: frames)) },
            onEvent: { event in sink.yield(.event(event)) })
        func client(_ name: String) async throws -> NodeIO {
            var configuration = NodeIOConfiguration(nodeName: name, bindEndpoint: "ipc://\(directory.path)/\(name).sock")
            configuration.curve = CurveConfiguration(publicKey: friend.publicKey, secretKey: friend.secretKey, allowedPeers: [server.publicKey: "server"])
            let io = try await NodeIO.start(configuration, heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
            io.connect(peer: "server", endpoint: serverIO.boundEndpoint, serverKey: server.publicKey)
            return io
        }
        let mallory = try await client("mallory")
        mallory.send(to: "server", [Array("I am friend".utf8)])
        var iterator = heard.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == .event(.impersonation(routingID: "mallory", userID: "friend", count: 1)), "\(String(describing: first))")
        await mallory.stop()
        let real = try await client("friend")
        real.send(to: "server", [Array("hello".utf8)])
        #expect(await iterator.next() == .message(peer: "friend", frames: [Array("hello".utf8)]))
        await real.stop()
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
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let other = try ZMQContext.curveKeyPair()
        try "# peers\nb=\(pair.publicKey)  \n\nc=\(other.publicKey)\n".write(to: allow, atomically: true, encoding: .utf8)
        let configuration = try #require(try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path))
        #expect(configuration.publicKey == pair.publicKey)
        #expect(configuration.allowedPeers == [pair.publicKey: "b", other.publicKey: "c"])
        // The key is the line's last 40 characters, "=" among them or not.
        let equalsKey = String(repeating: "=", count: 40)
        try "b=\(equalsKey)\n".write(to: allow, atomically: true, encoding: .utf8)
        #expect(try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path)?.allowedPeers == [equalsKey: "b"])
        // Each wrong line is named with its file and line.
        let wrong: [(String, String)] = [
            ("b=short", "allow:1: expected NAME=KEY"),
            ("# a key without its node\n\(pair.publicKey)", "allow:2: expected NAME=KEY"),
            // "=" is a Z85 character: a bare key holding one is still no NAME=KEY line.
            ("# a key without its node\n\(String(repeating: "=", count: 40))", "allow:2: expected NAME=KEY"),
            ("b=\(pair.publicKey)\nb=\(other.publicKey)", "allow:2: b is named twice"),
            ("b=\(pair.publicKey)\nc=\(pair.publicKey)", "b and c have the same public key"),
            ("b=\(String(pair.publicKey.dropLast()))~", "allow:1: expected a 40-character Z85 public key"),
        ]
        for (text, message) in wrong {
            try text.write(to: allow, atomically: true, encoding: .utf8)
            do {
                _ = try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path)
                Issue.record("\(text.debugDescription) was accepted")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
            }
        }
    }

    /// For a conductor: the keys two nodes share are left out (neither is let in), and the
    /// mistake of the first pair is returned for it to name once it listens.
    @Test func sharedKeysAreLeftOutOfAConductorsAllowList() {
        let (allowed, shared) = CurveKeyFiles.allowListWithoutShared(["b": "KEY-B", "c": "KEY-B", "d": "KEY-D", "e": "KEY-B"], from: "keys")
        #expect(allowed == ["KEY-D": "d"])
        #expect(shared?.description == "keys: b and c have the same public key; each node needs a key pair of its own")
        let (all, none) = CurveKeyFiles.allowListWithoutShared(["b": "KEY-B", "d": "KEY-D"], from: "keys")
        #expect(all == ["KEY-B": "b", "KEY-D": "d"])
        #expect(none == nil)
        // The nodes at fault, which the conductor tells so.
        #expect(CurveKeyFiles.nodesSharingKeys(["b": "KEY-B", "c": "KEY-B", "d": "KEY-D", "e": "KEY-B"]) == ["b", "c", "e"])
        #expect(CurveKeyFiles.nodesSharingKeys(["b": "KEY-B", "d": "KEY-D"]).isEmpty)
    }

    /// SPEC §7 (issue 16): a secret key file is its owner's alone (0600), and reads back.
    @Test func secretKeysAreWrittenForTheirOwnerOnly() throws {
        let pair = try ZMQContext.curveKeyPair()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-secret-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("b.secret"), allow = directory.appendingPathComponent("allow")
        try CurveKeyFiles.writeSecret(pair.secretKey, to: secret)
        let permissions = try FileManager.default.attributesOfItem(atPath: secret.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        // A key is never overwritten, nor written through a link planted where it goes.
        #expect(throws: CurveKeyFiles.KeyFileError.self) { try CurveKeyFiles.writeSecret(pair.secretKey, to: secret) }
        let planted = directory.appendingPathComponent("planted")
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("c.secret"), withDestinationURL: planted)
        #expect(throws: CurveKeyFiles.KeyFileError.self) { try CurveKeyFiles.writeSecret(pair.secretKey, to: directory.appendingPathComponent("c.secret")) }
        #expect(!FileManager.default.fileExists(atPath: planted.path))
        try "main=\(pair.publicKey)".write(to: allow, atomically: true, encoding: .utf8)
        let configuration = try #require(try CurveKeyFiles.configuration(secretKeyFile: secret.path, allowFile: allow.path))
        #expect(configuration.publicKey == pair.publicKey)
    }

    /// What a NodeIO reported, from its I/O thread.
    final class Events: Sendable {
        private let seen = Mutex<[NodeIOEvent]>([])
        @Sendable func add(_ event: NodeIOEvent) { seen.withLock { $0.append(event) } }
        func contains(_ event: NodeIOEvent) -> Bool { seen.withLock { $0.contains(event) } }
    }

    /// libzmq's socket monitor tells each side why a CURVE handshake failed.
    @Test func handshakesThatFailBecauseOfKeysAreReportedOnBothSides() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-handshake-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try ZMQContext.curveKeyPair(), client = try ZMQContext.curveKeyPair(), other = try ZMQContext.curveKeyPair()
        let serverEvents = Events(), clientEvents = Events()
        var serverConfiguration = NodeIOConfiguration(nodeName: "server", bindEndpoint: "ipc://\(directory.path)/server.sock")
        // The server lets in nobody.
        serverConfiguration.curve = CurveConfiguration(publicKey: server.publicKey, secretKey: server.secretKey, allowedPeers: [:])
        let serverIO = try await NodeIO.start(serverConfiguration, heartbeat: [], onMessage: { _, _ in },
                                              onEvent: serverEvents.add)
        var clientConfiguration = NodeIOConfiguration(nodeName: "client", bindEndpoint: "ipc://\(directory.path)/client.sock")
        clientConfiguration.curve = CurveConfiguration(publicKey: client.publicKey, secretKey: client.secretKey, allowedPeers: [server.publicKey: "server"])
        let clientIO = try await NodeIO.start(clientConfiguration, heartbeat: [], onMessage: { _, _ in },
                                              onEvent: clientEvents.add)
        /// Waits (bounded, in short slices) until `events` holds `event`.
        func sees(_ events: Events, _ event: NodeIOEvent) async -> Bool {
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while ContinuousClock.now < deadline {
                if events.contains(event) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }
        // The client's key is refused: the server's ZAP handler says whose, the client hears it.
        clientIO.connect(peer: "server", endpoint: serverIO.boundEndpoint, serverKey: server.publicKey)
        clientIO.send(to: "server", [Array("let me in".utf8)])
        #expect(await sees(serverEvents, .peerRefused(publicKey: client.publicKey)))
        #expect(await sees(clientEvents, .handshakeFailed(peer: "server", failure: .keyRefused(status: 400))))
        // A client with the wrong key for the server: the server's boxes do not open.
        clientIO.connect(peer: "wrong", endpoint: serverIO.boundEndpoint, serverKey: other.publicKey)
        clientIO.send(to: "wrong", [Array("hello".utf8)])
        #expect(await sees(serverEvents, .handshakeFailed(peer: nil, failure: .wrongKey)))
        await clientIO.stop()
        await serverIO.stop()
    }
}
