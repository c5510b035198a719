import Foundation
import Testing
import TrellisDistributed
import TrellisScenario
import TrellisTestSupport

/// Issue 16 review: the conductor's shutdown tells every node goodbye first, then waits for all
/// of them against one deadline — nodes that never answer cost it that deadline once, not once
/// each — and leaves none of them running.
@Suite(.tags(.multiProcess, .slow), .selected(.multiProcess, .slow), .distributedHangGuard)
struct ShutdownDeadlineTests {
    /// Controllers on the conductor and on three workers, b, c and d.
    static let threeWorkers = #"""
        { "window": { "size": [320, 568] }, "root": "R",
          "controllers": { "R": { "children": ["A", "B", "C"] }, "A": {}, "B": {}, "C": {} },
          "placement": { "A": "b", "B": "c", "C": "d" },
          "steps": [ { "resizeWindow": [568, 320] } ] }
        """#

    /// The run of `threeWorkers`, its shutdown's deadline `goodbyeTimeout`.
    static func run(goodbyeTimeout: Duration, peerTimeoutMilliseconds: Int = 2_000) throws -> DistributedRun {
        let scenario = try ScenarioDecoder.decode(threeWorkers, file: "three.json")
        var options = try options(peerTimeoutMilliseconds: peerTimeoutMilliseconds)
        options.goodbyeTimeout = goodbyeTimeout
        return DistributedRun(scenario: scenario, scenarioText: threeWorkers, options: options)
    }

    @Test("three workers that never acknowledge GOODBYE hold the shutdown up for one deadline, not three; none is left running")
    func silentWorkersShareOneDeadline() async throws {
        // Nobody is declared gone while stopped (a gone node is not told goodbye, nor waited for).
        // Long enough that what a loaded machine (or `taskset -c 0` beside the other suites)
        // adds stays far below what the sequential waits would add: shared, about 60 s and the
        // stop's grace (SIGTERM, then SIGKILL: `NodeProcess.stopGrace`); one after the other,
        // 180 s. Pinned beside the other suites, an 8 s deadline's shutdown took 19.7–23.4 s on
        // one VM, and a 15 s deadline's 54.7 s on a slower one: the load adds some 40 s, which
        // the 2.5 deadlines below leave room for only when the deadline is this long.
        let deadline = Duration.seconds(60)
        let run = try Self.run(goodbyeTimeout: deadline, peerTimeoutMilliseconds: 60_000)
        guard await started(run) else { return }
        let processes = await run.processIDs
        #expect(processes.keys.sorted() == ["b", "c", "d"])
        // A pid of 0 or less would stop this process's group, or every process it may signal.
        guard processes.values.allSatisfy({ $0 > 0 }) else {
            await run.shutdown()
            Issue.record("a worker has no process id: \(processes)")
            return
        }
        // Stopped, the workers hear the goodbye but cannot answer it; the shutdown kills them.
        for id in processes.values { kill(id, SIGSTOP) }
        let began = ContinuousClock.now
        await run.shutdown()
        let took = began.duration(to: .now)
        // Waited for the silent workers: never less than the deadline. One after the other, they
        // would take three deadlines; together, one and what killing them costs.
        #expect(took >= deadline, "the shutdown took \(took)")
        #expect(took < deadline * 2.5, "the shutdown took \(took) with three silent workers: the deadline was not shared")
        for (node, id) in processes {
            #expect(!processExists(id), "node \(node) (pid \(id)) outlived the shutdown")
        }
        // Killed, not exited by themselves.
        #expect(await run.exitStatuses.isEmpty)
    }

    @Test("workers that acknowledge GOODBYE are not held to the deadline: the shutdown ends well before it, each exits 0")
    func answeringWorkersEndTheShutdownEarly() async throws {
        // Far longer than an answer takes, even pinned beside the other suites, so that waiting
        // for it would show.
        let deadline = Duration.seconds(60)
        let run = try Self.run(goodbyeTimeout: deadline)
        do {
            try await run.start()
            _ = try await run.run()
        } catch {
            Issue.record("the run failed: \(error)")
        }
        // Only the shutdown is timed: a loaded machine may take long to start four processes.
        let began = ContinuousClock.now
        await run.shutdown()
        let took = began.duration(to: .now)
        #expect(took < deadline, "the shutdown took \(took): it waited out the deadline")
        #expect(await run.exitStatuses == ["b": 0, "c": 0, "d": 0])
    }

    @Test("a spawned worker declared gone (stopped by SIGSTOP) is stopped at once: the shutdown does not wait for its goodbye deadline")
    func aGoneWorkerIsNotWaitedFor() async throws {
        // Far longer than declaring d gone (2 s of silence) and stopping it take, even pinned:
        // waiting for it as for a node told goodbye would show. It used to hold the conductor's
        // exit, and its error, until this deadline.
        let deadline = Duration.seconds(60)
        let run = try Self.run(goodbyeTimeout: deadline)
        guard await started(run) else { return }
        let processes = await run.processIDs
        guard let d = processes["d"], d > 0 else {
            await run.shutdown()
            Issue.record("worker d has no process id: \(processes)")
            return
        }
        kill(d, SIGSTOP)
        do {
            _ = try await run.run()
            Issue.record("the run went on without node d")
        } catch {
            #expect("\(error)".contains("node d is gone"), "\(error)")
        }
        let began = ContinuousClock.now
        await run.shutdown()
        let took = began.duration(to: .now)
        #expect(took < deadline / 2, "the shutdown took \(took): it waited for the gone node's goodbye deadline")
        #expect(!processExists(d), "node d (pid \(d)) outlived the shutdown")
        #expect(await run.exitStatuses == ["b": 0, "c": 0])
    }

    @Test("a whole run conducted in one call gives the in-process trace and leaves its workers exited 0")
    func conductRunsStartToShutdown() async throws {
        let scenario = try ScenarioDecoder.decode(Self.threeWorkers, file: "three.json")
        let run = DistributedRun(scenario: scenario, scenarioText: Self.threeWorkers, options: try options())
        let distributed = try await run.conduct()
        #expect(distributed.canonicalLines == (try await ScenarioRunner.run(scenario)).canonicalLines)
        #expect(await run.exitStatuses == ["b": 0, "c": 0, "d": 0])
        #expect(await run.workFolder.map { FileManager.default.fileExists(atPath: $0.path) } == false)
    }
}
