import Foundation
import Testing
import TrellisScenario
import TrellisDistributed
import TrellisTransport
import TrellisWire
import ZeroMQ
import TrellisTestSupport

/// A peer that makes up names — connecting to a node's inbox again and again under fresh routing
/// ids (issue 16) — costs the node a bounded memory, a bounded number of sockets and a bounded
/// shutdown, however many names it makes up.
@Suite(.tags(.multiProcess), .selected(.multiProcess))
struct StrangerStateTests {
    static func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-strangers-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Before its SETUP, with no conductor named, any peer may become a worker's conductor; yet
    /// it keeps the HELLO capabilities of `WorkerNode.capabilityPeersKept` strangers at most.
    /// 192 connections one after the other, each a handshake and an answer: alone it takes
    /// 0.4 s, but in the whole transport run pinned to one CPU 43–68 s over libzmq and more than
    /// 120 s over ZMTP (whose node thread makes each handshake's steps itself, each waiting its
    /// turn on the CPU beside every other test's threads). The limit, and the worker's wait for
    /// a SETUP that never comes (4 minutes: at 60 s it ended the worker mid-test), are hang
    /// guards, not timings (docs/decisions.md "zmtp3").
    @Test(.distributedHangGuard)
    func aWorkerKeepsTheCapabilitiesOfAFewStrangersOnly() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try ZMQContext()
        defer { context.terminate() }
        // Where the peer it greets ("main") listens: a raw ROUTER that reads nothing.
        let mainInbox = try context.socket(.router)
        defer { mainInbox.close() }
        try mainInbox.set(ZMQOption.linger, 0)
        try mainInbox.bind("ipc://\(directory.path)/main.sock")
        let worker = WorkerNode(name: "w")
        let inbox = "ipc://\(directory.path)/w.sock"
        let running = Task {
            await worker.run(
                bind: inbox, peers: [(name: "main", endpoint: "ipc://\(directory.path)/main.sock", serverKey: nil)],
                curve: nil, conductor: nil, setupTimeout: .seconds(240))
        }
        let strangers = 3 * WorkerNode.capabilityPeersKept
        for index in 0..<strangers {
            let name = "stranger-\(index)"
            let stranger = try rawDealer(in: context, routingID: name, connectedTo: inbox)
            defer { stranger.close() }
            let hello = WireMessage(.hello(node: name, runID: "", capabilities: WireCapabilities.compactTrace.rawValue, endpoint: ""))
            // Queued at once (a DEALER has its pipe as soon as it connects): nothing here blocks
            // a thread of the pool, which the worker's actors need.
            let sent = try stranger.send(hello.encode(), dontWait: true)
                && stranger.send(WireMessage(.traceRequest, correlationID: UInt64(index + 1)).encode(), dontWait: true)
            #expect(sent)
            // The refusal of its TRACE-REQUEST comes once its HELLO was handled (one control
            // queue, in order).
            let deadline = ContinuousClock.now.advanced(by: .seconds(90))
            var answered = false
            while !answered, ContinuousClock.now < deadline {
                answered = try stranger.receive(dontWait: true) != nil
                if !answered { try await Task.sleep(for: .milliseconds(1)) }
            }
            guard answered else {
                Issue.record("\(name)'s TRACE-REQUEST was not refused within 90 s")
                break
            }
        }
        let kept = await worker.capabilityPeers
        #expect(kept == WorkerNode.capabilityPeersKept)
        // The peer it greeted ends it (a GOODBYE before a SETUP).
        let main = try rawDealer(in: context, routingID: "main", connectedTo: inbox)
        defer { main.close() }
        #expect(try main.send(WireMessage(.goodbye, correlationID: 1).encode(), dontWait: true))
        #expect(await running.value == 0)
    }

    /// A stray peer's SETUP naming a behaviour the node lacks is refused (ERROR 8); it does not
    /// mark the node as another program than its conductor's: the conductor's goodbye ends it
    /// with 0, not 2.
    @Test(.distributedHangGuard)
    func aStrayPeersRefusedSetupDoesNotMarkTheRun() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try ZMQContext()
        defer { context.terminate() }
        let mainInbox = try context.socket(.router)
        defer { mainInbox.close() }
        try mainInbox.set(ZMQOption.linger, 0)
        try mainInbox.bind("ipc://\(directory.path)/main.sock")
        let worker = WorkerNode(name: "w")
        let inbox = "ipc://\(directory.path)/w.sock"
        let running = Task {
            await worker.run(
                bind: inbox, peers: [(name: "main", endpoint: "ipc://\(directory.path)/main.sock", serverKey: nil)],
                curve: nil, conductor: nil, setupTimeout: .seconds(60))
        }
        let stray = try rawDealer(in: context, routingID: "stray", connectedTo: inbox)
        defer { stray.close() }
        let text = #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "behavior": "Lacked" } } }"#
        let setup = WireMessage(.setup(
            runID: "r", node: "w", scenarioJSON: text, heartbeatIntervalMilliseconds: 1000, peerGoneTimeoutMilliseconds: 60_000,
            behaviors: [WireBehavior(.viewController, "Lacked")]), correlationID: 1)
        // Its TRACE-REQUEST is refused once its SETUP was handled (one control queue, in order).
        #expect(try stray.send(WireMessage(.hello(node: "stray", runID: "", capabilities: 0, endpoint: "")).encode(), dontWait: true)
            && stray.send(setup.encode(), dontWait: true) && stray.send(WireMessage(.traceRequest, correlationID: 2).encode(), dontWait: true))
        let deadline = ContinuousClock.now.advanced(by: .seconds(90))
        var handled = false
        while !handled, ContinuousClock.now < deadline {
            if let frames = try stray.receive(dontWait: true) {
                handled = (try? WireMessage.decode(frames))?.header.correlationID == 2
            } else {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        #expect(handled, "the stray's TRACE-REQUEST was not refused within 90 s")
        let main = try rawDealer(in: context, routingID: "main", connectedTo: inbox)
        defer { main.close() }
        #expect(try main.send(WireMessage(.goodbye, correlationID: 1).encode(), dontWait: true))
        #expect(await running.value == 0)
    }

    /// Strangers greeting the conductor during set-up: the first is a mistake, named; the conductor
    /// greets back (opening a stream to each) and tells goodbye `DistributedRun.strangersKept` of
    /// them only, the others counted, and waits 5 s in all for their acknowledgements, not 5 s each.
    @Test(.distributedHangGuard)
    func theConductorGreetsBackAFewStrangersOnly() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = #"{ "scenario": "strangers", "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "b" } }"#
        let scenario = try ScenarioDecoder.decode(text, file: "strangers.json")
        // Strangers that stay silent are not declared gone (and skipped) before the goodbyes.
        var options = try options(peerTimeoutMilliseconds: 60_000)
        options.conductorEndpoint = "ipc://\(directory.path)/main.sock"
        options.startedNodes = ["b": "ipc://\(directory.path)/b.sock"]  // b never greets
        options.startupTimeout = .seconds(60)
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
        let starting = Task { () -> DistributedRunError? in
            do throws(DistributedRunError) {
                try await run.start()
                return nil
            } catch {
                return error
            }
        }
        let context = try ZMQContext()
        defer { context.terminate() }
        let strangers = 100
        var sockets: [ZMQSocket] = []
        defer { for socket in sockets { socket.close() } }
        for index in 0..<strangers {
            let name = "stranger-\(index)"
            let socket = try rawDealer(in: context, routingID: name, connectedTo: "ipc://\(directory.path)/main.sock")
            sockets.append(socket)
            let hello = WireMessage(.hello(node: name, runID: "", capabilities: 0, endpoint: "ipc://\(directory.path)/\(name).sock"))
            #expect(try socket.send(hello.encode(), dontWait: true))
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while await run.strangersGreeted < strangers, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await run.strangersGreeted == strangers)
        #expect(await run.strangersNotKept == strangers - DistributedRun.strangersKept)
        guard case let .mistake(said)? = await starting.value else {
            Issue.record("expected a set-up mistake")
            await run.shutdown()
            return
        }
        #expect(said.hasPrefix("node stranger-"), "\(said)")
        let began = ContinuousClock.now
        await run.shutdown()
        // 64 goodbyes nobody acknowledges, 5 s in all (and the sockets' linger), not 5 s each.
        #expect(began.duration(to: .now) < .seconds(30))
    }
}
