import Foundation
import TrellisScenario
import TrellisTrace
import TrellisTransport
import TrellisWire

/// How a distributed run is laid out.
package struct DistributedOptions: Sendable {
    /// The kind of endpoint spawned nodes listen on.
    package enum EndpointKind: String, Sendable, CaseIterable {
        case ipc, tcp
    }

    package var endpointKind: EndpointKind = .ipc
    /// The `trellis` executable that spawned nodes run (`trellis node …`).
    package var nodeExecutable: String
    /// Nodes started by hand (`trellis node`), by name: where they listen. They must greet this
    /// conductor (`--peer <conductor>=<endpoint>`); the others are spawned on this machine.
    package var startedNodes: [String: String] = [:]
    /// Where the conductor listens; nil: a fresh ipc path, or loopback tcp with a free port.
    package var conductorEndpoint: String?
    package var heartbeatIntervalMilliseconds = 250
    package var peerTimeoutMilliseconds = 2_000
    /// How long nodes have to greet and to set up before the run fails.
    package var startupTimeout: Duration = .seconds(30)
    /// How long the shutdown waits, all nodes together, for their GOODBYE-ACKs and for the
    /// spawned processes to exit; what is still running then is killed.
    package var goodbyeTimeout: Duration = .seconds(5)
    /// CURVE for the conductor; with `secureSpawnedNodes`, generated for it when nil.
    package var curve: CurveConfiguration?
    /// Run every spawned node with a fresh CURVE key pair, each allowing exactly the run's
    /// other nodes; nodes started by hand must then bring their keys (`startedNodeKeys`).
    package var secureSpawnedNodes = false
    /// The public keys of nodes started by hand, by name (with CURVE).
    package var startedNodeKeys: [String: String] = [:]
    /// What the conductor's HELLO announces (§7.1): by default that it reads TRACE-DATA in the
    /// compact form; without `.compactTrace` its workers send JSON Lines, as to a 1.1 conductor.
    package var capabilities: WireCapabilities = [.compactTrace]
    /// CURVE with keys made beforehand (`trellis keys make`): every node of the run has its
    /// public key there, the conductor and each node it spawns its secret key too. Takes the
    /// place of `curve`, `secureSpawnedNodes` and `startedNodeKeys`.
    package var keyFolder: CurveKeyFolder?
    /// How much trace one worker's answer to a TRACE-REQUEST may bring (TWP/1 §9.7); past it the
    /// rest of that worker's trace is refused, a fault of the run.
    package var traceLimit = TraceDataLimit.standard
    /// Whether the conductor asks every worker for its trace as each step ends (TWP/1 §9.7),
    /// without waiting for the answer, so that a worker lost later takes none of the events of
    /// the steps before its loss with it (SPEC §10: nothing already delivered is lost). Off,
    /// only at `expect` steps and at the end, as before issue 27: for measuring what it costs.
    package var shipsEachStep = true
    /// For tests: runs at the end of each step that ran (0: the initial layout), after the
    /// workers were asked for its trace and before the next step starts — where a test kills a
    /// worker mid-run at a known point.
    package var afterEachStep: (@Sendable (_ run: DistributedRun, _ step: Int) async -> Void)?
    /// Handed each step's events, merged as the run's trace is, as soon as every node's have
    /// arrived (`trellis run` prints them as the run goes). Nil: nothing is handed on. Once a
    /// step's answers do not all arrive whole in time, or a node is lost or refused, nothing
    /// more is handed on: the rest is in the run's trace when it ends.
    package var stepTraced: (@Sendable (_ events: [TraceEvent]) -> Void)?
    /// Told why nothing more is handed on to `stepTraced` (not for an interruption).
    package var stepTracingStopped: (@Sendable (_ reason: String) -> Void)?
    /// How the workers not started by hand are started.
    package var launcher = NodeLauncher.processes

    package init(nodeExecutable: String) {
        self.nodeExecutable = nodeExecutable
    }

    /// The mistake of a node started by hand given twice (`--node NAME=…` repeated), or nil:
    /// one name is one process, and the dictionary `startedNodes` would keep only the last
    /// endpoint — the run then waited for a greeting from the other one, and exited 3 after
    /// its 30 s. Named with every endpoint given for it, the first such name in the order given.
    package static func repeatedNode(_ entries: [(name: String, endpoint: String)]) -> String? {
        var seen = Set<String>()
        guard let name = entries.first(where: { !seen.insert($0.name).inserted })?.name else { return nil }
        let endpoints = entries.filter { $0.name == name }.map(\.endpoint)
        return "--node \(name) is given \(endpoints.count) times (\(endpoints.joined(separator: ", "))): each node started by hand is given once, NAME=ENDPOINT"
    }
}

/// Why a distributed run failed.
package enum DistributedRunError: Error, Sendable, CustomStringConvertible {
    /// The run could not start: a node that cannot be spawned, or does not greet or get ready in
    /// time (a fault of the run: `trellis run` exits 3).
    case setup(String)
    /// The run was set up wrongly, and would never start as given: a node started by hand that
    /// the placement does not have, a node that greets under a name the placement does not have
    /// or takes its SETUP from another conductor, a conductor that cannot listen where it was
    /// told, a CURVE key that is not among the keys given. Bad input: `trellis run` exits 2.
    case mistake(String)
    case run(ScenarioRunError)
    /// The run went through, but messages were lost to faults (a node gone, undeliverable calls).
    case faults([String], ScenarioRun)

    package var description: String {
        switch self {
        case let .setup(text): return "distributed run could not start: \(text)"
        case let .mistake(text): return "distributed run is set up wrongly: \(text)"
        case let .run(error): return "\(error)"
        case let .faults(faults, _):
            return "distributed run failed: " + faults.prefix(5).joined(separator: "; ") + (faults.count > 5 ? " (and \(faults.count - 5) more)" : "")
        }
    }
}
