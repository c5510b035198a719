import Foundation
import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles
import TrellisDistributed
import TrellisTransport
import TrellisWire
import ZeroMQ

/// TWP/1 §7.8 rule 6: what a hostile worker sends as its trace is a fault of the run naming the
/// worker and what is wrong — events of another run, a capture that is not one — never a crash
/// or a hang of the conductor, which still collects, merges and shuts down.
@Suite(.tags(.multiProcess), .selected(.multiProcess), .distributedHangGuard)
struct HostileTraceDataTests {
    /// A worker "b" on raw sockets: it greets, gets ready, answers every call with an empty
    /// RETURN, and answers the TRACE-REQUEST with `parts`, until the conductor's GOODBYE (or 40 s).
    static func rawWorker(directory: URL, parts: [WireBody], drip: Duration = .zero) {
        guard let context = try? ZMQContext(), let inbox = try? context.socket(.router),
              let outbox = try? context.socket(.dealer) else { return }
        defer {
            inbox.close()
            outbox.close()
            context.terminate()
        }
        do {
            try inbox.set(ZMQOption.linger, 0)
            try inbox.bind("ipc://\(directory.path)/b.sock")
            try outbox.set(ZMQOption.linger, 0)
            try outbox.set(ZMQOption.routingID, text: "b")
            try outbox.connect("ipc://\(directory.path)/main.sock")
            _ = try outbox.send(WireMessage(.hello(node: "b", runID: "", capabilities: 0, endpoint: "ipc://\(directory.path)/b.sock")).encode(), dontWait: false)
            let deadline = ContinuousClock.now.advanced(by: .seconds(40))
            var lastHeartbeat = ContinuousClock.now
            var finished = false
            // The answer to a TRACE-REQUEST, sent one part per `drip` (all at once with none).
            var dripping: [WireMessage] = []
            var lastDrip = ContinuousClock.now
            while !finished, ContinuousClock.now < deadline {
                var items = [ZMQPollItem(.socket(inbox))]
                if try ZMQPoll.poll(&items, timeoutMilliseconds: 20) == 1, var frames = try inbox.receive() {
                    frames.removeFirst()
                    var replies: [WireMessage] = []
                    WireBatch.decodeEach(frames) { result in
                        guard case let .success(message) = result else { return }
                        let correlation = message.header.correlationID
                        switch message.body {
                        case .setup: replies.append(WireMessage(.ready(node: "b"), correlationID: correlation))
                        case .call: replies.append(WireMessage(.return(.ok([])), correlationID: correlation))
                        case .traceRequest where drip > .zero: dripping += parts.map { WireMessage($0, correlationID: correlation) }
                        case .traceRequest: replies += parts.map { WireMessage($0, correlationID: correlation) }
                        case .goodbye:
                            replies.append(WireMessage(.goodbyeAck, correlationID: correlation))
                            finished = true
                        default: break
                        }
                    }
                    for reply in replies { _ = try outbox.send(reply.encode(), dontWait: false) }
                }
                if !dripping.isEmpty, lastDrip.duration(to: .now) >= drip {
                    _ = try outbox.send(dripping.removeFirst().encode(), dontWait: false)
                    lastDrip = .now
                }
                if lastHeartbeat.duration(to: .now) > .milliseconds(100) {
                    _ = try outbox.send(WireMessage(.heartbeat).encode(), dontWait: false)
                    lastHeartbeat = .now
                }
            }
        } catch {
            Issue.record("the raw worker failed: \(error)")
        }
    }

    /// Runs the scenario "hostile" (A on the raw worker b) with `parts` as b's answer to every
    /// TRACE-REQUEST; the faults of the run and its merged trace (canonical lines). A run that
    /// succeeds is an issue unless `mayPass`.
    static func runAgainstRawWorker(
        parts: [WireBody], traceLimit: TraceDataLimit = .standard, drip: Duration = .zero, mayPass: Bool = false
    ) async throws -> (faults: [String], merged: [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{ "scenario": "hostile", "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
        let scenario = try ScenarioDecoder.decode(text, file: "hostile.json")
        // The raw worker's heartbeats come from a thread that a loaded machine (or `taskset -c 0`)
        // may starve for a while: the default 2 s would declare it gone before its trace is asked.
        var options = try options(peerTimeoutMilliseconds: 30_000)
        options.conductorEndpoint = "ipc://\(directory.path)/main.sock"
        options.startedNodes = ["b": "ipc://\(directory.path)/b.sock"]
        options.startupTimeout = .seconds(20)
        options.traceLimit = traceLimit
        // The raw worker blocks in its polls: a thread of its own, not one of the pool's.
        let worker = Task {
            await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
                Thread {
                    Self.rawWorker(directory: directory, parts: parts, drip: drip)
                    finished.resume()
                }.start()
            }
        }
        var faults: [String] = []
        var merged: [String] = []
        do {
            let run = try await DistributedRun.run(scenario, scenarioText: text, options: options)
            merged = run.canonicalLines
            if !mayPass { Issue.record("a run whose worker sent a hostile trace succeeded") }
        } catch {
            if case let .faults(list, partial) = error {
                faults = list
                merged = partial.canonicalLines
            } else {
                Issue.record("expected faults of the run, got \(error)")
            }
        }
        // The conductor said goodbye, which ends the raw worker's loop.
        await worker.value
        return (faults, merged)
    }

    /// A worker that never marks a part last would keep the conductor collecting for ever, its
    /// memory growing: past `TraceDataLimit.bytes` the rest of the answer is refused, a fault
    /// naming the worker and the bound (not the 10 s wait for a part that never comes).
    @Test func aTraceThatNeverEndsIsRefusedPastTheByteLimit() async throws {
        // 1000 parts of 37 bytes each (an empty JSON Lines part), none of them last.
        let parts = [WireBody](repeating: .traceData(last: false, jsonLines: ""), count: 1000)
        let (faults, merged) = try await Self.runAgainstRawWorker(parts: parts, traceLimit: TraceDataLimit(bytes: 4096, parts: 4096))
        let refusal = "node b sent more than 4096 bytes of TRACE-DATA in answer to one TRACE-REQUEST, the most the conductor takes (TWP/1 §9.7): the rest was refused; the merged trace has 0 of its events, and lacks the rest"
        #expect(faults.contains(refusal), "\(faults)")
        #expect(merged.contains { $0.contains(refusal) }, "the refusal is a fault line of the merged trace: \(merged)")
        // Said once, although the trace is collected again at the end of the run, and b not asked again.
        #expect(faults.filter { $0.contains("TRACE-DATA") }.count == 1, "\(faults)")
        #expect(!faults.contains { $0.contains("did not send its trace") }, "\(faults)")
    }

    /// Many tiny parts: past `TraceDataLimit.parts` the rest of the answer is refused too.
    @Test func aTraceOfEndlessTinyPartsIsRefusedPastThePartLimit() async throws {
        let parts = [WireBody](repeating: .traceData(last: false, jsonLines: ""), count: 300)
        let (faults, _) = try await Self.runAgainstRawWorker(parts: parts, traceLimit: TraceDataLimit(bytes: 1 << 30, parts: 100))
        #expect(faults.contains(
            "node b sent more than 100 TRACE-DATA parts in answer to one TRACE-REQUEST, the most the conductor takes (TWP/1 §9.7): the rest was refused; the merged trace has 0 of its events, and lacks the rest"),
            "\(faults)")
    }

    /// A part every 100 ms, none ever last: each comes well within the 10 s a part may take, but
    /// the whole answer is refused once it has taken `TraceDataLimit.time`.
    @Test func aTraceThatDripsForeverIsRefusedPastTheTimeLimit() async throws {
        let parts = [WireBody](repeating: .traceData(last: false, jsonLines: ""), count: 300)
        let started = ContinuousClock.now
        let (faults, _) = try await Self.runAgainstRawWorker(
            parts: parts, traceLimit: TraceDataLimit(bytes: 1 << 30, parts: 4096, time: .seconds(2)), drip: .milliseconds(100))
        #expect(faults.contains(
            "node b took more than 2.0 seconds to answer one TRACE-REQUEST, the most the conductor waits (TWP/1 §9.7): the rest was refused; the merged trace has 0 of its events, and lacks the rest"),
            "\(faults)")
        // The fault's text proves the answer was refused at the time limit; how long the run took
        // is no test of it (300 parts at 100 ms are 30 s, and the whole run took 30 s at
        // `taskset -c 0` with the suite sharing the CPU): a hang guard only.
        #expect(started.duration(to: .now) < .seconds(90))
    }

    /// A worker's answer that stays within the limits is taken whole.
    @Test func aTraceWithinTheLimitsIsTaken() async throws {
        let parts = [WireBody](repeating: .traceData(last: false, jsonLines: ""), count: 99) + [.traceData(last: true, jsonLines: "")]
        let (faults, merged) = try await Self.runAgainstRawWorker(
            parts: parts, traceLimit: TraceDataLimit(bytes: 100 * 37, parts: 100), mayPass: true)
        #expect(faults.isEmpty, "\(faults)")
        #expect(!merged.isEmpty)
    }

    @Test func aWorkersForeignAndGarbageTraceAreFaultsNamingIt() async throws {
        let foreign = TraceEvent(
            id: EventRef(node: "b", sequence: 1), lamport: 1, cause: nil, controller: "A", transition: nil, step: 0,
            message: .note("from an old run"), time: 0)
        let parts: [WireBody] = [
            .compactTraceData(last: false, capture: CaptureFileEncoding.bytes(of: [foreign], runs: [], defaultRunID: "old", format: .compact)),
            .compactTraceData(last: true, capture: Array("{\"v\":\"1.0\"}\n".utf8)),
        ]
        let (faults, merged) = try await Self.runAgainstRawWorker(parts: parts)
        #expect(faults.contains("node b sent trace events of run \"old\", not \"hostile\""), "\(faults)")
        #expect(faults.contains(
            "node b sent an unreadable compact trace part: byte 0: not a compact trellis capture (the first bytes are not 89 54 52 4C 0D 0A 1A 0A) (events kept from before it: 0)"),
            "\(faults)")
        #expect(merged.contains("A note from an old run"), "the foreign event is kept for the merge to show: \(merged)")
    }
}
