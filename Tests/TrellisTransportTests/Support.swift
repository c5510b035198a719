import Foundation
import Testing
import TrellisModel
import TrellisScenario
import TrellisTrace
import TrellisDistributed
import TrellisTransport
import TrellisTestSupport
import ZeroMQ

/// The built `trellis` executable that spawned nodes run.
let trellisExecutable: String? = TrellisBinary.url?.path

/// An example scenario with its non-root controllers spread round-robin over nodes b and c
/// (three processes with the conductor), as JSON text and decoded.
func spreadOverThreeNodes(_ file: URL) throws -> (text: String, scenario: Scenario) {
    // A scenario naming a "storyboard" has its controllers in it once it is read (SPEC §11).
    let data = Data(try ScenarioDecoder.jsonText(try String(contentsOf: file, encoding: .utf8), file: file.path).utf8)
    guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
          let controllers = object["controllers"] as? [String: Any], let root = object["root"] as? String else {
        throw CocoaError(.fileReadCorruptFile)
    }
    var placement: [String: String] = [:]
    for (index, id) in controllers.keys.sorted().filter({ $0 != root }).enumerated() {
        placement[id] = index % 2 == 0 ? "b" : "c"
    }
    object["placement"] = placement
    let text = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    return (text, try ScenarioDecoder.decode(text, file: file.lastPathComponent))
}

func exampleFiles() -> [URL] {
    let directory = packageRoot.appendingPathComponent("Examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
}

/// Whether an example file gives a `placement` of its own.
@Sendable func hasPlacement(_ file: URL) -> Bool {
    guard let data = try? Data(contentsOf: file),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
    return object["placement"] != nil
}

func options(peerTimeoutMilliseconds: Int = 2_000) throws -> DistributedOptions {
    let executable = try #require(trellisExecutable, "build the trellis executable first (swift build --build-tests)")
    var options = DistributedOptions(nodeExecutable: executable)
    options.peerTimeoutMilliseconds = peerTimeoutMilliseconds
    options.startupTimeout = .seconds(30)
    return options
}

/// Options for a run whose nodes all live in this process, over a loopback network of their own
/// (`NodeLauncher.inProcess`): every message encoded and decoded, no socket, thread or process.
func loopbackOptions() -> DistributedOptions {
    var options = DistributedOptions(nodeExecutable: "")
    options.launcher = .inProcess(LoopbackNetwork())
    return options
}

/// How a distributed run of a test goes: over ZeroMQ between spawned processes, or in this
/// process over a loopback network.
enum Medium: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case zeroMQ, loopback

    var testDescription: String { rawValue }

    func options() throws -> DistributedOptions {
        switch self {
        case .zeroMQ: return try TrellisTransportTests.options()
        case .loopback: return loopbackOptions()
        }
    }
}

/// Whether a process with this id still exists.
func processExists(_ id: Int32) -> Bool {
    kill(id, 0) == 0
}

/// A raw DEALER that talks to a node as peer `routingID` would, connected to `endpoint`: for
/// tests that send a node what no Trellis node would.
func rawDealer(in context: ZMQContext, routingID: String, connectedTo endpoint: String) throws -> ZMQSocket {
    let socket = try context.socket(.dealer)
    try socket.set(ZMQOption.linger, 0)
    try socket.set(ZMQOption.routingID, text: routingID)
    try socket.connect(endpoint)
    return socket
}

/// Options for a run whose spawned nodes run the test runner (`trellis-test-runner`, SPEC §4.1):
/// the conductor's program in a runner's run, with the differential tester's behaviours.
func runnerOptions() throws -> DistributedOptions {
    var options = try options()
    options.nodeExecutable = try #require(TrellisBinary.testRunnerURL?.path, "build the test runner first (swift build --build-tests)")
    return options
}

/// Waits at most `timeout` until one of `items` is ready; returns how many are (0: none in time).
///
/// Polls in slices of a few milliseconds and hands the thread back between them. An async test
/// runs on one of the cooperative pool's threads — two on a two-core machine — and the node it
/// waits for needs one of them to answer: a single synchronous poll of 20 s, in two tests at
/// once, left nothing to serve any node of the whole suite and failed a CI run (a handler's
/// `Task.sleep` of 100 ms did not end within 20 s).
func pollGivingWay(_ items: inout [ZMQPollItem], timeout: Duration) async throws -> Int {
    let deadline = ContinuousClock.now + timeout
    while true {
        let ready = try ZMQPoll.poll(&items, timeoutMilliseconds: 5)
        if ready > 0 || ContinuousClock.now >= deadline { return ready }
        await Task.yield()
    }
}

/// Whether a hand-started node has bound its ipc endpoint (the file at `path`) within `limit`:
/// a node binds before it greets, so once the file is there its HELLO is on its way. A bounded
/// wait for a process to start, for tests whose run would otherwise count that start-up against
/// a short set-up timeout.
func endpointBound(at path: String, within limit: Duration) async -> Bool {
    await holds(within: limit) { FileManager.default.fileExists(atPath: path) }
}

/// Whether `condition` holds within `limit`, looked at in 10 ms slices between which the thread
/// is free.
func holds(within limit: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// Waits at most `limit` for `process` to exit; true when it did. Looks in short slices between
/// which the thread is free: `waitUntilExit()` would hold a thread of the cooperative pool for as
/// long as the process runs (see `pollGivingWay`).
func processExits(_ process: Process, within limit: Duration) async -> Bool {
    await holds(within: limit) { !process.isRunning }
}

/// Starts `run`; false, with an issue recorded and the run shut down (nothing left running),
/// when it did not start.
func started(_ run: DistributedRun, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
    do {
        try await run.start()
        return true
    } catch {
        await run.shutdown()
        Issue.record("the run did not start: \(error)", sourceLocation: sourceLocation)
        return false
    }
}
