import ArgumentParser
import Foundation
import Synchronization
import TrellisDistributed
import TrellisRuntime
import TrellisTransport

/// `trellis node`: one node of a distributed run, started by hand (on any host) or by
/// `trellis run --transport zmq`.
struct NodeCommand: BehaviorCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Host part of a distributed run: wait for a conductor's setup, then serve it.",
        discussion: """
            The node listens at --bind, greets every --peer (the conductor among them: it then \
            sends the scenario and the list of nodes), hosts the controllers the scenario's \
            placement puts on it, and exits after the conductor's goodbye (0). It exits with \
            status 3 when its conductor is gone — silent for the peer-gone timeout, counted \
            from the first message it heard (before a setup: the --conductor, or any --peer \
            when none is named) — or when no setup came within --setup-timeout. It is set up \
            once, by its conductor (--conductor, else the first peer whose setup it accepts): \
            a second setup, or one from any other peer, is refused with ERROR 6 and changes \
            nothing. Started with a conductor name that is not the run's conductor's (--conductor, \
            or the --peer name it greets the conductor under), with a name the run's placement \
            does not have, or with CURVE keys its conductor does not accept (or that do not \
            accept it), it says so and exits 2. When its conductor's set-up of the run fails for another node's mistake, it \
            prints the conductor's account (which names that node) and exits 0 at its goodbye; \
            a conductor that hung up during its handshake and is not heard again within 10 s \
            leaves it with status 3. A node is the conductor's own program: a setup naming Swift behaviours this \
            program does not register is refused with ERROR 8 naming them, and the node exits 2 \
            at its conductor's goodbye (start it with the runner the conductor runs). Stopped by \
            SIGTERM or SIGINT, it finishes the calls it serves, says goodbye to its conductor \
            (which then reports it stopped, not lost) and exits 128 + the signal (143, 130) \
            within a second; a second signal ends it at once.

            With --keys FOLDER (from `\(ProgramName.current) keys make`) the node uses CURVE: its secret key is \
            FOLDER/NAME.key, each --peer's public key FOLDER/PEER.pub, and it lets in exactly the \
            public keys of the folder's other .pub files.

            ENVIRONMENT: without CURVE, nodes speak ZeroMQ's wire protocol (ZMTP 3.1) through \
            Trellis's own sockets; TRELLIS_SOCKET_LAYER=libzmq puts them on libzmq's (the nodes \
            `\(ProgramName.current) run` spawns inherit it). Either talks to the other and to any ZeroMQ peer.

            EXAMPLES:
              \(ProgramName.current) node --name b --bind tcp://*:5556 --peer main=tcp://10.0.0.1:5555
              \(ProgramName.current) run scenario.json --transport zmq --node b=tcp://10.0.0.2:5556
              \(ProgramName.current) node --name b --bind tcp://*:5556 --peer main=tcp://a:5555 --keys k
            """
    )

    @Option(help: "This node's name, as the scenario's placement uses it.")
    var name: String

    @Option(help: "Where to listen: ipc://PATH or tcp://ADDRESS:PORT (port * picks a free one).")
    var bind: String

    @Option(help: "A node to greet, NAME=ENDPOINT (repeatable; the conductor must be one).")
    var peer: [String] = []

    @Option(help: "The only peer that may set this node up (default: the first whose setup it accepts).")
    var conductor: String?

    @Option(help: "Seconds to wait for a conductor's setup before giving up (exit 3).")
    var setupTimeout: Int = 600

    @Option(help: "CURVE: the folder of key files (\(ProgramName.current) keys make) with NAME.key and every peer's NAME.pub.", completion: .directory)
    var keys: String?

    @Option(help: "CURVE: a peer's public key, NAME=Z85KEY (repeatable), to greet it securely.")
    var peerKey: [String] = []

    @Option(help: "CURVE: file with this node's secret key (Z85, 40 characters).", completion: .file())
    var curveSecretKey: String?

    @Option(help: "CURVE: file listing the peers allowed to connect, a line NAME=KEY each (node name, Z85 public key); a key is heard under its name only.", completion: .file())
    var curveAllow: String?

    func validate() throws {
        guard !name.isEmpty else { throw ValidationError("--name must not be empty") }
        if let mistake = NodeSocketLayer.environmentMistake { throw ValidationError(mistake) }
        if let problem = EndpointSyntax.problem(with: bind, for: .bind) {
            throw ValidationError("--bind must be an ipc:// or tcp:// endpoint to listen on, got \"\(bind)\": \(problem)")
        }
        for entry in peer { try Self.checkPeer(entry, option: "--peer") }
        guard (curveSecretKey == nil) == (curveAllow == nil) else {
            throw ValidationError("--curve-secret-key and --curve-allow go together")
        }
        if keys != nil, curveSecretKey != nil || !peerKey.isEmpty {
            throw ValidationError("--keys takes the place of --curve-secret-key, --curve-allow and --peer-key: give one or the other")
        }
    }

    /// A NAME=ENDPOINT argument of `option` (`--peer`, `run --node`), its endpoint one to
    /// connect to (`EndpointSyntax`), or the error that names what is wrong with it.
    static func checkPeer(_ entry: String, option: String) throws {
        guard let (name, endpoint) = split(entry) else {
            throw ValidationError("\(option) must be NAME=ENDPOINT (ENDPOINT ipc://PATH or tcp://HOST:PORT), got \"\(entry)\"")
        }
        if let problem = EndpointSyntax.problem(with: endpoint, for: .connect) {
            throw ValidationError("\(option) \(name)=\(endpoint): \"\(endpoint)\" is not an endpoint to connect to: \(problem)")
        }
    }

    static func split(_ entry: String) -> (name: String, endpoint: String)? {
        guard let equals = entry.firstIndex(of: "=") else { return nil }
        let name = String(entry[..<equals]), endpoint = String(entry[entry.index(after: equals)...])
        guard !name.isEmpty, endpoint.hasPrefix("ipc://") || endpoint.hasPrefix("tcp://") else { return nil }
        return (name, endpoint)
    }

    /// `registry`: the behaviours of the runner this node is (SPEC §4.1: a node is started
    /// from the conductor's own executable), for the scenario its SETUP brings.
    func run(registry: BehaviorRegistry) async throws {
        var curve: CurveConfiguration?
        var keys: [String: String] = [:]
        do {
            curve = try CurveKeyFiles.configuration(secretKeyFile: curveSecretKey, allowFile: curveAllow)
            if let folder = self.keys.map(CurveKeyFolder.init(path:)) {
                curve = try folder.configuration(for: name)
                for entry in peer {
                    guard let (peerName, _) = Self.split(entry) else { continue }
                    keys[peerName] = try folder.publicKey(of: peerName)
                }
            }
        } catch {
            StandardError.write("error: \(error)")
            throw ExitCode(2)
        }
        for entry in peerKey {
            let (peerName, key): (String, String)
            do {
                (peerName, key) = try CurveKeyFiles.nameAndKey(entry)
            } catch {
                StandardError.write("error: --peer-key \"\(entry)\": \(error)")
                throw ExitCode(2)
            }
            // The key pinned for a peer must be the one its messages are let in with, under that
            // name: otherwise every message from it would be dropped as another node's.
            if let curve, curve.allowedPeers[key] != peerName {
                let listed = curve.allowedPeers[key].map { "lists that key as \($0)" } ?? "does not list that key"
                StandardError.write("error: --peer-key \(peerName)=\(key): \(curveAllow ?? "the allow file") \(listed); a peer is pinned and let in with one key, under one name")
                throw ExitCode(2)
            }
            keys[peerName] = key
        }
        let node = WorkerNode(name: name, registry: registry)
        let signals = await NodeSignals.install(leaving: node)
        defer { signals.forEach { $0.cancel() } }
        let peers = peer.compactMap(Self.split).map { (name: $0.name, endpoint: $0.endpoint, serverKey: keys[$0.name]) }
        let code = await node.run(bind: bind, peers: peers, curve: curve, conductor: conductor, setupTimeout: .seconds(max(1, setupTimeout)))
        if code != 0 { throw ExitCode(code) }
    }
}

/// `trellis node`'s SIGTERM and SIGINT: the first makes the node say goodbye and leave
/// (`WorkerNode.leave(signal:)`), so that its conductor reports it stopped rather than lost; a
/// second one, of either, ends the process at once.
enum NodeSignals {
    /// Whether a signal came already (shared by both handlers).
    private final class Signalled: Sendable {
        let flag = Atomic<Bool>(false)
    }

    static func install(leaving node: WorkerNode) async -> [DispatchSourceSignal] {
        let signalled = Signalled()
        return await SignalSources.make([SIGTERM, SIGINT]) { number in
            guard !signalled.flag.exchange(true, ordering: .relaxed) else { exit(128 + number) }
            Task { await node.leave(signal: number) }
        }
    }
}
