import Foundation
import Testing
import TrellisTestSupport
import TrellisDistributed

/// Issue 16, item 7: CURVE with nodes started by hand — key files from `trellis keys make`,
/// `--keys` on `trellis node` and `trellis run`, and a handshake that fails because of keys
/// named on both sides within seconds (exit 2), leaving no node behind.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct HandStartedCurveTests {
    /// A folder for one test: the scenario (three nodes: main, b, c), sockets, keys.
    final class Stage {
        let directory: URL
        let scenario: String
        let binary: URL

        init() throws {
            binary = try #require(TrellisBinary.url)
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-handcurve-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let (text, _) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
            scenario = directory.appendingPathComponent("scenario.json").path
            try text.write(toFile: scenario, atomically: true, encoding: .utf8)
        }

        deinit {
            try? FileManager.default.removeItem(at: directory)
        }

        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// `trellis keys make NAMES --dir FOLDER`.
        func makeKeys(_ names: [String], in folder: String) async throws {
            let made = try #require(try await runBounded(binary, ["keys", "make"] + names + ["--dir", path(folder)], timeout: .seconds(30)))
            #expect(made.status == 0, "\(made.stderr)")
        }

        /// Node b started by hand with the keys of `folder` (none: without CURVE), its standard
        /// error into a file.
        func startNodeB(keys folder: String?) throws -> Process {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["node", "--name", "b", "--bind", "ipc://\(path("b.sock"))", "--peer", "main=ipc://\(path("main.sock"))",
                                 "--conductor", "main"] + (folder.map { ["--keys", path($0)] } ?? [])
            _ = FileManager.default.createFile(atPath: path("b.err"), contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path("b.err")))
            try process.run()
            return process
        }

        /// A node named `name` started by hand with the keys of `folder`, its standard error
        /// into NAME.err.
        func startNode(_ name: String, keys folder: String) throws -> Process {
            let process = Process()
            process.executableURL = binary
            process.arguments = ["node", "--name", name, "--bind", "ipc://\(path("\(name).sock"))", "--peer", "main=ipc://\(path("main.sock"))",
                                 "--conductor", "main", "--keys", path(folder)]
            _ = FileManager.default.createFile(atPath: path("\(name).err"), contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path("\(name).err")))
            try process.run()
            return process
        }

        /// `trellis run` conducting, with node b started by hand and the keys of `folder`.
        func conduct(keys folder: String) async throws -> ProcessOutcome {
            try #require(try await runBounded(binary, ["run", scenario, "--transport", "zmq", "--listen", "ipc://\(path("main.sock"))",
                                                       "--node", "b=ipc://\(path("b.sock"))", "--keys", path(folder)], timeout: .seconds(90)))
        }

        func nodeBSaid() -> String { (try? String(contentsOfFile: path("b.err"), encoding: .utf8)) ?? "" }
    }

    @Test func handStartedNodesWithKeyFilesRunTheScenario() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c"], in: "keys")
        let b = try stage.startNodeB(keys: "keys")
        defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
        let distributed = try await stage.conduct(keys: "keys")
        let inProcess = try #require(try await runBounded(stage.binary, ["run", stage.scenario], timeout: .seconds(30)))
        #expect(distributed.status == 0, "\(distributed.stderr)")
        #expect(distributed.stdout == inProcess.stdout)
        try #require(await processExits(b, within: .seconds(60)))
        #expect(b.terminationStatus == 0)
    }

    @Test("with CURVE, a node the placement does not have is named, and refused: it exits 2, not outliving the run")
    func aStrangerWithKeysIsToldGoodbye() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c", "x"], in: "keys")
        let x = try stage.startNode("x", keys: "keys")
        defer { if x.isRunning { kill(x.processIdentifier, SIGKILL) } }
        let outcome = try await stage.conduct(keys: "keys")
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("node x greeted the conductor, but the scenario's placement has no node x"), "\(outcome.stderr)")
        try #require(await processExits(x, within: .seconds(60)), "node x outlived the run")
        #expect(x.terminationStatus == 2)  // refused: the node at fault
        #expect(try String(contentsOfFile: stage.path("x.err"), encoding: .utf8).contains("its conductor main refused this node: node x greeted the conductor"))
    }

    @Test func aNodeWhoseKeyTheConductorDoesNotHaveIsNamedOnBothSides() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c"], in: "keys")
        // Node b's own folder holds another key pair for b: the conductor's b.pub is not its key.
        try await stage.makeKeys(["b"], in: "b-keys")
        for name in ["main.pub", "c.pub"] {
            try FileManager.default.copyItem(atPath: stage.path("keys/\(name)"), toPath: stage.path("b-keys/\(name)"))
        }
        let b = try stage.startNodeB(keys: "b-keys")
        defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
        let started = ContinuousClock.now
        let outcome = try await stage.conduct(keys: "keys")
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("which is not among the keys given to the conductor main"), "\(outcome.stderr)")
        // Named, not the 30 s greeting deadline: the conductor says one or the other, and the
        // text above is the naming. The clock is a hang guard only, as in SetupFailureTests (a
        // bound of 25 s failed when the suites' processes kept two cores busy).
        #expect(started.duration(to: .now) < .seconds(90))
        try #require(await processExits(b, within: .seconds(60)))
        #expect(b.terminationStatus == 2)
        #expect(stage.nodeBSaid().contains("main refused this node's CURVE key"), "\(stage.nodeBSaid())")
    }

    @Test func aNodeWithAnotherConductorKeyIsNamedOnBothSides() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c"], in: "keys")
        // Node b's folder has a main.pub that is not the conductor's.
        try await stage.makeKeys(["main"], in: "stale")
        try FileManager.default.createDirectory(atPath: stage.path("b-keys"), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for name in ["b.key", "b.pub", "c.pub"] {
            try FileManager.default.copyItem(atPath: stage.path("keys/\(name)"), toPath: stage.path("b-keys/\(name)"))
        }
        try FileManager.default.copyItem(atPath: stage.path("stale/main.pub"), toPath: stage.path("b-keys/main.pub"))
        let b = try stage.startNodeB(keys: "b-keys")
        defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
        let outcome = try await stage.conduct(keys: "keys")
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("that node was given another main.pub"), "\(outcome.stderr)")
        try #require(await processExits(b, within: .seconds(60)))
        #expect(b.terminationStatus == 2)
        #expect(stage.nodeBSaid().contains("the public key this node has for main is most likely not main's"), "\(stage.nodeBSaid())")
    }

    @Test func aNodeWithoutCurveIsNamedOnBothSides() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c"], in: "keys")
        let b = try stage.startNodeB(keys: nil)
        defer { if b.isRunning { kill(b.processIdentifier, SIGKILL) } }
        let outcome = try await stage.conduct(keys: "keys")
        #expect(outcome.status == 2, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("a node connected to the conductor main without CURVE, which this run uses"), "\(outcome.stderr)")
        try #require(await processExits(b, within: .seconds(60)))
        #expect(b.terminationStatus == 2)
        // It hears a mismatch, or (the conductor having hung up at once) a handshake cut short.
        #expect(stage.nodeBSaid().contains("uses CURVE, and this node does not"), "\(stage.nodeBSaid())")
    }

    @Test func keyMistakesOnTheCommandLineExit2() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "c"], in: "keys")
        // No b.pub: named, before anything starts.
        let missing = try await stage.conduct(keys: "keys")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("\(stage.path("keys/b.pub")): no such file"), "\(missing.stderr)")
        // Fresh keys cannot be given to a node started by hand.
        let fresh = try #require(try await runBounded(
            stage.binary, ["run", stage.scenario, "--transport", "zmq", "--curve", "--node", "b=ipc://\(stage.path("b.sock"))"], timeout: .seconds(30)))
        #expect(fresh.status == 2)
        #expect(fresh.stderr.contains("need --keys FOLDER"), "\(fresh.stderr)")
        // A node whose secret key others can read does not start.
        try await stage.makeKeys(["b"], in: "keys")
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: stage.path("keys/b.key"))
        let node = try #require(try await runBounded(
            stage.binary, ["node", "--name", "b", "--bind", "ipc://\(stage.path("b.sock"))", "--peer", "main=ipc://\(stage.path("main.sock"))",
                           "--keys", stage.path("keys")], timeout: .seconds(30)))
        #expect(node.status == 2)
        #expect(node.stderr.contains("a secret key must be its owner's alone, but its mode is 0640"), "\(node.stderr)")
    }

    /// `--peer-key` and `--curve-allow` must agree: a peer is pinned and let in with one key,
    /// under one name (TWP §10) — else every message from it would be dropped as another node's.
    @Test func aPinnedKeyTheAllowFileFilesElsewhereExits2() async throws {
        let stage = try Stage()
        try await stage.makeKeys(["main", "b", "c"], in: "keys")
        let main = try String(contentsOfFile: stage.path("keys/main.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let c = try String(contentsOfFile: stage.path("keys/c.pub"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let allow = stage.path("b.allow")
        try "main=\(c)\nc=\(main)\n".write(toFile: allow, atomically: true, encoding: .utf8)
        func node(peerKey: String) async throws -> ProcessOutcome {
            try #require(try await runBounded(
                stage.binary, ["node", "--name", "b", "--bind", "ipc://\(stage.path("b.sock"))", "--peer", "main=ipc://\(stage.path("main.sock"))",
                               "--curve-secret-key", stage.path("keys/b.key"), "--curve-allow", allow, "--peer-key", peerKey], timeout: .seconds(30)))
        }
        let swapped = try await node(peerKey: "main=\(main)")
        #expect(swapped.status == 2)
        #expect(swapped.stderr.contains("--peer-key main=\(main): \(allow) lists that key as c"), "\(swapped.stderr)")
        let unlisted = try await node(peerKey: "d=\(String(repeating: "=", count: 40))")
        #expect(unlisted.status == 2)
        #expect(unlisted.stderr.contains("does not list that key"), "\(unlisted.stderr)")
        let malformed = try await node(peerKey: "main =\(main)")
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("has spaces around it"), "\(malformed.stderr)")
    }
}
