import Foundation
import Testing
import TrellisDistributed
import TrellisScenario
import TrellisTestSupport

/// Issue 26 item 6: a node stopped by SIGTERM says goodbye (TWP/1 §9.8 rule 6), so that its
/// conductor reports it stopped — at once, by name — rather than lost once silent; a node
/// killed by SIGKILL is still found by its silence (`DistributedRunTests`). Every wait is
/// bounded and every process is gone at the end.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct NodeStopTests {
    /// `steps` rotations of a window whose controllers sit on b and c: every step calls both.
    static func rotations(_ steps: Int) -> String {
        let sizes = (0..<steps).map { $0 % 2 == 0 ? #"{ "resizeWindow": [568, 320] }"# : #"{ "resizeWindow": [320, 568] }"# }
        return #"""
            { "scenario": "rotations", "window": { "size": [320, 568] }, "root": "R",
              "controllers": { "R": { "children": ["A", "B"] }, "A": { "children": ["A1", "A2"] }, "A1": {}, "A2": {}, "B": {} },
              "placement": { "A": "b", "A2": "c", "B": "c" },
              "steps": [
            """# + sizes.joined(separator: ",\n") + "] }"
    }

    @Test("a node sent SIGTERM mid-run says goodbye: the run stops with node b stopped, not lost, and b exits 143")
    func aNodeStoppedMidRunSaysGoodbye() async throws {
        let text = Self.rotations(2_000)
        let scenario = try ScenarioDecoder.decode(text, file: "rotations.json")
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: try options())
        guard await started(run) else { return }
        let victim = try #require(await run.processIDs["b"])
        try #require(victim > 0)
        @Sendable func runSteps() async -> Result<ScenarioRun, DistributedRunError> {
            do {
                return .success(try await run.run())
            } catch {
                return .failure(error)
            }
        }
        let steps = Task { await runSteps() }
        // Mid-run: the steps have begun, about 2000 to go (bounded: a run that does not get
        // there fails the test rather than hanging it; pinned to one loaded CPU, a step took
        // seconds).
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while run.currentStep < 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(run.currentStep >= 1, "the run did not reach step 1 within 60 s")
        let stoppedAt = run.currentStep
        kill(victim, SIGTERM)
        let outcome = await steps.value
        await run.shutdown()
        switch outcome {
        case .success:
            Issue.record("a run whose node b was stopped at step \(stoppedAt) of 2000 succeeded")
        case let .failure(.faults(faults, partial)):
            let summary = try #require(faults.first)
            #expect(summary.hasPrefix("node b stopped during step "), "faults: \(faults)")
            #expect(summary.contains("the run stopped there"))
            #expect(faults.contains("node b stopped: it said goodbye"))
            // What of its trace is missing (issue 27 item 1: finished steps survive).
            #expect(summary.contains("; the trace lacks node b's events from "), "faults: \(faults)")
            #expect(faults.contains { $0.hasPrefix("node b stopped: the merged trace has ") }, "faults: \(faults)")
            // Stopped, never lost: nothing waited for its silence.
            #expect(!faults.contains { $0.contains("lost") || $0.contains("no message for") }, "faults: \(faults)")
            #expect(partial.canonicalLines.contains { $0.hasPrefix("node:main fault node b stopped: the merged trace has ") })
        case let .failure(error):
            Issue.record("unexpected error: \(error)")
        }
        // b left on its own, as a process ends on SIGTERM (128 + 15); c was told goodbye.
        let statuses = await run.exitStatuses
        #expect(statuses["b"] == 128 + SIGTERM)
        #expect(statuses["c"] == 0)
        for (node, id) in await run.processIDs {
            #expect(!processExists(id), "node \(node) (pid \(id)) outlived the run")
        }
    }

    @Test("trellis run: a spawned node sent SIGTERM makes the conductor say node b stopped and exit 3")
    func theConductorSaysANodeStopped() async throws {
        let trellis = try #require(TrellisBinary.url, "build the trellis executable first (swift build --build-tests)")
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rotations.json")
        try Self.rotations(4_000).write(to: file, atomically: true, encoding: .utf8)
        let errors = directory.appendingPathComponent("stderr")
        try Data().write(to: errors)
        let conductor = Process()
        conductor.executableURL = trellis
        conductor.arguments = ["run", file.path, "--transport", "zmq"]
        conductor.standardInput = FileHandle.nullDevice
        conductor.standardOutput = FileHandle.nullDevice
        conductor.standardError = try FileHandle(forWritingTo: errors)
        try conductor.run()
        defer { if conductor.isRunning { kill(conductor.processIdentifier, SIGKILL) } }
        // Node b once it is set up: the conductor and c have each opened a stream to it.
        // Generous: pinned to one CPU beside other suites, three processes take long to start.
        let b = try #require(await NodeWatch.setUpChild(named: "b", of: conductor.processIdentifier, within: .seconds(60)),
                             "node b was not set up within 60 s")
        kill(b, SIGTERM)
        let ended = await processExits(conductor, within: .seconds(45))
        #expect(ended, "the conductor did not end within 45 s of node b's SIGTERM")
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(conductor.terminationStatus == 3, "stderr: \(stderr)")
        #expect(stderr.contains("node b stopped"), "stderr: \(stderr)")
        #expect(!stderr.contains("lost") && !stderr.contains("no message for"), "stderr: \(stderr)")
        #expect(!processExists(b), "node b outlived its conductor")
    }
}

/// Looks at the conductor's children through /proc (Linux): its nodes, as `trellis run` spawned
/// them. Every wait is bounded, in short sleeps: a process's state is no message to wait for.
enum NodeWatch {
    /// The pid of the child of `parent` that runs `trellis node --name NAME`, once both the
    /// conductor and the other worker have connected to its ipc socket (it is set up); nil if
    /// not within `limit`.
    static func setUpChild(named name: String, of parent: Int32, within limit: Duration) async -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while ContinuousClock.now < deadline {
            if let (pid, socket) = child(named: name, of: parent), connections(to: socket) >= 2 { return pid }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// The child of `parent` whose command line is `… node --name NAME --bind ipc://PATH …`, with PATH.
    static func child(named name: String, of parent: Int32) -> (Int32, String)? {
        // Each thread lists the children it spawned.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(parent)/task")) ?? []
        let children = threads.map { String(decoding: read("/proc/\(parent)/task/\($0)/children"), as: UTF8.self) }
        for word in children.joined(separator: " ").split(separator: " ") {
            guard let pid = Int32(word.trimmingCharacters(in: .whitespacesAndNewlines)),
                  case let data = read("/proc/\(pid)/cmdline"), !data.isEmpty else { continue }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard let nameAt = arguments.firstIndex(of: "--name"), arguments.indices.contains(nameAt + 1), arguments[nameAt + 1] == name,
                  let bindAt = arguments.firstIndex(of: "--bind"), arguments.indices.contains(bindAt + 1),
                  arguments[bindAt + 1].hasPrefix("ipc://") else { continue }
            return (pid, String(arguments[bindAt + 1].dropFirst("ipc://".count)))
        }
        return nil
    }

    /// How many connected Unix sockets carry `path` (/proc/net/unix, state 03): the streams
    /// accepted by the node listening there.
    static func connections(to path: String) -> Int {
        let table = String(decoding: read("/proc/net/unix"), as: UTF8.self)
        return table.split(separator: "\n").filter { line in
            let columns = line.split(separator: " ")
            return columns.count >= 8 && columns[5] == "03" && columns[7] == path
        }.count
    }

    /// A /proc file's bytes, read to its end (its size says 0).
    static func read(_ path: String) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.readToEnd()) ?? Data()
    }
}
