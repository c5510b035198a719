import Foundation
import Synchronization
import Testing
import TrellisTestSupport

/// Issue 16 item 12, SPEC §7: faults across hosts. Three hosts are three network namespaces on
/// one bridge (veth pairs), talking tcp: `trellis node` b and c in two of them, `trellis run
/// --transport zmq` (the conductor, main) in the third, with CURVE when this build has key
/// folders (`trellis keys make`, `--keys`). Mid-run, node b is killed (SIGKILL), stopped
/// (SIGSTOP) or cut off (its link set down).
///
/// The contract asserted (TWP/1 §9.5): the conductor reports the node gone — by name, exit
/// status 3 — and ends the run; a node that stops is declared gone within the 2 s timeout of
/// its last message, and the run ends within a second of that. Time is asserted only as that
/// protocol promise, with slack for a loaded machine: the conductor must have exited within
/// `endBound` (2 s + 1 s + 3 s of slack) of the fault, where it took 7–8 s before (and one cut
/// was never detected at all). The times measured are printed. A cut that heals before the
/// timeout is harmless: the run ends 0 with the in-process trace, line for line.
///
/// Needs root and `ip netns`; skipped otherwise, saying so.
@Suite(
    .tags(.multiProcess, .networkNamespace, .slow), .selected(.multiProcess, .networkNamespace, .slow),
    .enabled(if: NetworkLab.available, "needs root and `ip netns` (network namespaces joined by veth): skipped"),
    .serialized, .distributedHangGuard)
struct NetworkFaultTests {
    enum Fault: String, CaseIterable, Sendable {
        case kill, stop, cut
    }

    /// How long after the fault the conductor must have exited: detection within the 2 s
    /// timeout, the end of the run within 1 s of it, and 3 s of slack for a loaded (or single)
    /// core.
    static let endBound = Duration.seconds(6)

    @Test(arguments: Fault.allCases)
    func aLostNodeIsReportedAndEndsTheRunWithinTheTimeout(fault: Fault) async throws {
        let lab = try await NetworkLab()
        defer { lab.tearDown() }
        let run = try await lab.startRun(steps: 4_000)
        try await lab.waitUntilTheStepsRun()
        let injected = ContinuousClock.now
        switch fault {
        case .kill: kill(run.b.processIdentifier, SIGKILL)
        case .stop: kill(run.b.processIdentifier, SIGSTOP)
        case .cut: try await lab.setLink(of: "b", up: false)
        }
        let ended = await processExits(run.conductor, within: .seconds(30))
        let took = injected.duration(to: .now)
        print("NetworkFaultTests: \(fault.rawValue) of node b: the conductor exited \(took) after the fault (curve: \(lab.curve))")
        #expect(ended, "the conductor did not end within 30 s of the fault")
        #expect(run.conductor.terminationStatus == 3)
        let stderr = run.conductorStderr()
        #expect(stderr.contains("node b is gone"), "stderr: \(stderr)")
        #expect(took <= Self.endBound, "detected and ended \(took) after the fault; stderr: \(stderr)")
        // Node c was told goodbye; node b, cut off, declared its conductor gone.
        #expect(await processExits(run.c, within: .seconds(10)))
        #expect(run.c.terminationStatus == 0)
        if fault == .cut {
            #expect(await processExits(run.b, within: .seconds(10)))
            #expect(run.b.terminationStatus == 3)
        }
    }

    @Test func aCutThatHealsBeforeTheTimeoutIsHarmless() async throws {
        let lab = try await NetworkLab()
        defer { lab.tearDown() }
        let run = try await lab.startRun(steps: 1_200)
        try await lab.waitUntilTheStepsRun()
        // The run cannot end during the cut (every step needs node c): the conductor is still
        // there when the link comes back up.
        #expect(try await lab.cutLink(of: "c", milliseconds: 500, checking: run.conductor.processIdentifier),
                "the conductor ended during a cut shorter than the timeout; stderr: \(run.conductorStderr())")
        #expect(await processExits(run.conductor, within: .seconds(60)))
        #expect(run.conductor.terminationStatus == 0, "stderr: \(run.conductorStderr())")
        let executable = try #require(TrellisBinary.url)
        let inProcess = try #require(try await runBounded(executable, ["run", lab.scenarioFile.path], timeout: .seconds(60)))
        #expect(inProcess.status == 0)
        #expect(run.conductorStdout() == inProcess.stdout)
    }
}

/// Three hosts — network namespaces main, b and c, each with a veth into a fourth that holds the
/// bridge — and the processes of one run across them. Everything is torn down by `tearDown`.
final class NetworkLab: Sendable {
    /// `ip`, when there is one.
    static let ipTool: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: FileManager.default.isExecutableFile(atPath:))

    /// Root, `ip`, and a namespace can be made (and removed) here.
    static let available: Bool = {
        guard geteuid() == 0, let ip = ipTool else { return false }
        let probe = "trellis-probe-\(getpid())"
        guard NetworkLab.runSync(ip, ["netns", "add", probe]) == 0 else { return false }
        defer { _ = NetworkLab.runSync(ip, ["netns", "del", probe]) }
        // A veth pair inside it too: some sandboxes allow namespaces but not veth.
        return NetworkLab.runSync(ip, ["-n", probe, "link", "add", "p0", "type", "veth", "peer", "name", "p1"]) == 0
    }()

    static let counter = Atomic<Int>(0)
    let ip: String
    let prefix: String
    let directory: URL
    let scenarioFile: URL
    let hosts = ["main": "10.231.0.1", "b": "10.231.0.2", "c": "10.231.0.3"]
    let ports = ["main": 5555, "b": 5556, "c": 5557]
    /// The key folder when this build can secure hand-started nodes with CURVE (`--keys`).
    let keys: URL?
    var curve: Bool { keys != nil }
    private let started = Mutex<[Process]>([])

    init() async throws {
        ip = try #require(Self.ipTool)
        Self.removeLeftovers(ip)
        prefix = "trellis-\(getpid())-\(Self.counter.add(1, ordering: .relaxed).newValue)"
        directory = try scratchDirectory()
        scenarioFile = directory.appendingPathComponent("long.json")
        let executable = try #require(TrellisBinary.url)
        let keyFolder = directory.appendingPathComponent("keys")
        let keysMade = try await runBounded(executable, ["keys", "make", "main", "b", "c", "--dir", keyFolder.path], timeout: .seconds(20))
        keys = keysMade?.status == 0 ? keyFolder : nil
        do {
            try await makeHosts()
        } catch {
            tearDown()
            throw error
        }
    }

    private func makeHosts() async throws {
        try await sh(["netns", "add", "\(prefix)-sw"])
        try await sh(["-n", "\(prefix)-sw", "link", "add", "br0", "type", "bridge"])
        try await sh(["-n", "\(prefix)-sw", "link", "set", "br0", "up"])
        for (name, address) in hosts.sorted(by: { $0.key < $1.key }) {
            let namespace = "\(prefix)-\(name)"
            try await sh(["netns", "add", namespace])
            try await sh(["-n", namespace, "link", "set", "lo", "up"])
            try await sh(["-n", namespace, "link", "add", "eth0", "type", "veth", "peer", "name", "to-\(name)", "netns", "\(prefix)-sw"])
            try await sh(["-n", "\(prefix)-sw", "link", "set", "to-\(name)", "master", "br0"])
            try await sh(["-n", "\(prefix)-sw", "link", "set", "to-\(name)", "up"])
            try await sh(["-n", namespace, "addr", "add", "\(address)/24", "dev", "eth0"])
            try await sh(["-n", namespace, "link", "set", "eth0", "up"])
        }
    }

    /// Removes the namespaces of test processes that no longer run (one killed before its
    /// tear-down): `trellis-PID-N-HOST`.
    static func removeLeftovers(_ ip: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/run/netns")) ?? []
        for name in names where name.hasPrefix("trellis-") {
            let parts = name.split(separator: "-")
            guard parts.count == 4, let pid = Int32(parts[1]), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = runSync(ip, ["netns", "del", name])
        }
    }

    /// Kills every process started here and removes the namespaces and files, whatever state the
    /// test left them in.
    func tearDown() {
        for process in started.withLock({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        for host in ["main", "b", "c", "sw"] { _ = Self.runSync(ip, ["netns", "del", "\(prefix)-\(host)"]) }
        try? FileManager.default.removeItem(at: directory)
    }

    func endpoint(_ node: String) -> String { "tcp://\(hosts[node] ?? ""):\(ports[node] ?? 0)" }

    /// The processes of one run and where their output goes.
    struct Run {
        let conductor: Process, b: Process, c: Process
        let directory: URL

        func conductorStdout() -> String { (try? String(contentsOf: directory.appendingPathComponent("main.out"), encoding: .utf8)) ?? "" }
        func conductorStderr() -> String { (try? String(contentsOf: directory.appendingPathComponent("main.err"), encoding: .utf8)) ?? "" }
    }

    /// Writes a scenario of `steps` rotations over R, A, A1, A2 and B (A on b; A2 and B on c:
    /// every step needs both nodes), starts nodes b and c, then the conductor.
    func startRun(steps: Int) async throws -> Run {
        let controllers: [String: Any] = [
            "R": ["kind": "view", "children": ["A", "B"]], "A": ["kind": "view", "children": ["A1", "A2"]],
            "A1": ["kind": "view"], "A2": ["kind": "view"], "B": ["kind": "view"],
        ]
        let scenario: [String: Any] = [
            "scenario": "faults across hosts", "window": ["size": [320, 568]], "root": "R", "controllers": controllers,
            "placement": ["A": "b", "A2": "c", "B": "c"],
            "steps": (0..<steps).map { ["transition": ["size": $0 % 2 == 0 ? [568, 320] : [320, 568]]] },
        ]
        try JSONSerialization.data(withJSONObject: scenario, options: [.sortedKeys]).write(to: scenarioFile)
        let keyArguments = keys.map { ["--keys", $0.path] } ?? []
        var nodes: [Process] = []
        for node in ["b", "c"] {
            nodes.append(try start(in: node, output: node, [
                "node", "--name", node, "--bind", endpoint(node), "--peer", "main=\(endpoint("main"))", "--conductor", "main",
                "--setup-timeout", "60",
            ] + keyArguments))
        }
        let conductor = try start(in: "main", output: "main", [
            "run", scenarioFile.path, "--transport", "zmq", "--listen", endpoint("main"),
            "--node", "b=\(endpoint("b"))", "--node", "c=\(endpoint("c"))",
        ] + keyArguments)
        return Run(conductor: conductor, b: nodes[0], c: nodes[1], directory: directory)
    }

    /// `trellis ARGUMENTS` in `host`'s namespace (`ip netns exec` execs it: same process id).
    private func start(in host: String, output: String, _ arguments: [String]) throws -> Process {
        let executable = try #require(TrellisBinary.url)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ip)
        process.arguments = ["netns", "exec", "\(prefix)-\(host)", executable.path] + arguments
        process.standardInput = FileHandle.nullDevice
        let out = directory.appendingPathComponent("\(output).out"), err = directory.appendingPathComponent("\(output).err")
        try Data().write(to: out)
        try Data().write(to: err)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        started.withLock { $0.append(process) }
        return process
    }

    /// Waits (at most 30 s) until node c has its four tcp connections — to and from the
    /// conductor, to and from node b — which it has once set up, the last node to be: the
    /// conductor then runs the steps. A little later they are under way.
    func waitUntilTheStepsRun() async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while ContinuousClock.now < deadline {
            let table = try await runBounded(URL(fileURLWithPath: ip), ["netns", "exec", "\(prefix)-c", "cat", "/proc/net/tcp"], timeout: .seconds(10))
            // Column 4 is the state: 01 is ESTABLISHED.
            let established = table?.stdoutLines.dropFirst().filter { $0.split(separator: " ").dropFirst(3).first == "01" }.count ?? 0
            if established >= 4 {
                try await Task.sleep(for: .milliseconds(300))
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the run's nodes did not connect within 30 s")
    }

    func setLink(of host: String, up: Bool) async throws {
        try await sh(["-n", "\(prefix)-\(host)", "link", "set", "eth0", up ? "up" : "down"])
    }

    /// Takes `host`'s link down for `milliseconds` and up again in one shell, so that how long
    /// the cut lasts does not depend on when this test's task next runs (on a busy machine that
    /// can be seconds, past the 2 s timeout the cut must stay under). True when the process
    /// `pid` was still running at the end of the cut, checked before the link comes back.
    func cutLink(of host: String, milliseconds: Int, checking pid: Int32) async throws -> Bool {
        let link = "\(ip) -n \(prefix)-\(host) link set eth0"
        let script = "\(link) down || exit 3; sleep \(Double(milliseconds) / 1000); kill -0 \(pid); alive=$?; \(link) up || exit 3; exit $alive"
        let outcome = try #require(try await runBounded(URL(fileURLWithPath: "/bin/sh"), ["-c", script], timeout: .seconds(20)))
        try #require(outcome.status != 3, "the cut of \(host)'s link: \(outcome.stderr)")
        return outcome.status == 0
    }

    private func sh(_ arguments: [String]) async throws {
        let outcome = try #require(try await runBounded(URL(fileURLWithPath: ip), arguments, timeout: .seconds(20)))
        try #require(outcome.status == 0, "ip \(arguments.joined(separator: " ")): \(outcome.stderr)")
    }

    /// Runs a short command to its end (for the availability probe and tear-down).
    static func runSync(_ executable: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
