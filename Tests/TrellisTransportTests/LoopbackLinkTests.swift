import Foundation
import Synchronization
import Testing
import TrellisDistributed
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
@testable import TrellisTransport
import TrellisWire

/// The loopback link (`LoopbackLink`, `LoopbackNetwork`): nodes of one process talk in memory,
/// every message encoded and decoded, in order per sender — what ZeroMQ gives a run, without
/// sockets, threads or processes.
@Suite(.distributedHangGuard)
struct LoopbackLinkTests {
    static let target = WireAddress(node: "b", controller: "C", incarnation: 1)

    /// A link bound at `endpoint` on `network` whose inbound frames and events are kept.
    final class Received: Sendable {
        let frames = Mutex<[(peer: String, frames: [[UInt8]])]>([])
        let events = Mutex<[NodeIOEvent]>([])
    }

    static func bind(_ name: String, at endpoint: String, on network: LoopbackNetwork, into received: Received,
                     arrived: @escaping @Sendable () -> Void = {}) throws -> LoopbackLink {
        try network.bind(
            NodeIOConfiguration(nodeName: name, bindEndpoint: endpoint),
            onMessage: { peer, frames in
                received.frames.withLock { $0.append((peer, frames)) }
                arrived()
            },
            onEvent: { event in received.events.withLock { $0.append(event) } })
    }

    @Test("CALLs between two transports on a loopback network are served, and each gets its own RETURN")
    func callsAreServedAndAnswered() async throws {
        let network = LoopbackNetwork()
        let caller = NodeTransport(nodeName: "a", recorder: TraceRecorder(node: "a", storage: .discard))
        let server = NodeTransport(nodeName: "b", recorder: TraceRecorder(node: "b", storage: .discard))
        let callerEndpoint = try await caller.start(NodeIOConfiguration(nodeName: "a", bindEndpoint: "loopback://a"), on: network)
        let serverEndpoint = try await server.start(NodeIOConfiguration(nodeName: "b", bindEndpoint: "loopback://b"), on: network)
        await server.setHandlers(
            call: { message, peer in
                guard case let .call(_, _, arguments) = message.body else { return .fault("not a call") }
                return .ok([.string(peer)] + arguments)
            },
            placement: { $0 == .snapshot ? .ioThread : .sharedPool },
            control: { _, _ in }, peerGone: { _, _ in })
        await caller.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
        await caller.connect(peer: "b", endpoint: serverEndpoint)
        await server.connect(peer: "a", endpoint: callerEndpoint)
        #expect(await caller.executor == nil)
        let results = await withTaskGroup(of: (Int, WireResult).self) { group in
            for index in 0..<200 {
                group.addTask {
                    let code: WireCallCode = index.isMultiple(of: 2) ? .snapshot : .layout
                    return (index, await caller.call(peer: "b", target: Self.target, code: code, arguments: [.string("\(index)")]))
                }
            }
            var results: [Int: WireResult] = [:]
            for await (index, result) in group { results[index] = result }
            return results
        }
        #expect(results.count == 200)
        for (index, result) in results { #expect(result == .ok([.string("a"), .string("\(index)")])) }
        #expect(await server.malformedCount == 0)
        await caller.stop()
        await server.stop()
        #expect(network.boundEndpoints.isEmpty)
    }

    @Test("the link a message goes through is one word, as the NodeIO it was: no box, no extra tag word")
    func theLinkIsOneWord() {
        #expect(MemoryLayout<NodeLink>.size == MemoryLayout<NodeIO>.size)
        #expect(MemoryLayout<NodeLink?>.size == MemoryLayout<NodeIO?>.size)
    }

    @Test("a burst from one node reaches the other complete and in order, as frames the wire codec decodes")
    func aBurstArrivesInOrder() async throws {
        let network = LoopbackNetwork()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let received = Received()
        let receiver = try Self.bind("receiver", at: "loopback://receiver", on: network, into: received) { continuation.yield() }
        let sender = try Self.bind("sender", at: "loopback://sender", on: network, into: Received())
        sender.connect(peer: "receiver", endpoint: receiver.endpoint)
        let count = 2_000
        for correlation in 1...UInt64(count) { sender.send(to: "receiver", BatchingTests.call(correlation)) }
        // Bounded: the stream ends after 20 s whatever arrived.
        let timeout = Task {
            try? await Task.sleep(for: .seconds(20))
            continuation.finish()
        }
        var correlations: [UInt64] = []
        for await _ in stream {
            correlations = []
            for entry in received.frames.withLock({ $0 }) {
                #expect(entry.peer == "sender")
                WireBatch.decodeEach(entry.frames) { decoded in
                    if case let .success(message) = decoded { correlations.append(message.header.correlationID) }
                }
            }
            if correlations.count >= count { break }
        }
        timeout.cancel()
        #expect(correlations == Array(1...UInt64(count)))
        await sender.stop()
        await receiver.stop()
    }

    @Test("a message for a peer with no stream is not sent, and that is said; one for a stopped peer goes nowhere")
    func sendsThatCannotGo() async throws {
        let network = LoopbackNetwork()
        let received = Received()
        let link = try Self.bind("a", at: "loopback://a", on: network, into: received)
        link.send(to: "nobody", BatchingTests.call(1))
        #expect(received.events.withLock { $0 } == [.failed("send to nobody: no connection to that node")])
        let other = try Self.bind("b", at: "loopback://b", on: network, into: Received())
        link.connect(peer: "b", endpoint: other.endpoint)
        await other.stop()
        link.send(to: "b", BatchingTests.call(2))
        #expect(received.events.withLock { $0 }.count == 1)
        await link.stop()
        #expect(network.boundEndpoints.isEmpty)
    }

    @Test("an endpoint in use and CURVE are refused; a wildcard gets an endpoint of its own; a stopped link frees its endpoint")
    func binding() async throws {
        let network = LoopbackNetwork()
        let first = try Self.bind("a", at: "ipc:///run/a.sock", on: network, into: Received())
        #expect(throws: LoopbackError.inUse("ipc:///run/a.sock")) {
            _ = try Self.bind("b", at: "ipc:///run/a.sock", on: network, into: Received())
        }
        var secure = NodeIOConfiguration(nodeName: "c", bindEndpoint: "loopback://c")
        secure.curve = CurveConfiguration(publicKey: "", secretKey: "", allowedPeers: [:])
        #expect(throws: LoopbackError.curve) {
            _ = try network.bind(secure, onMessage: { _, _ in }, onEvent: { _ in })
        }
        let wildcard1 = try Self.bind("d", at: "tcp://127.0.0.1:*", on: network, into: Received())
        let wildcard2 = try Self.bind("e", at: "tcp://127.0.0.1:*", on: network, into: Received())
        #expect(wildcard1.endpoint != wildcard2.endpoint)
        #expect(!wildcard1.endpoint.contains("*"))
        await first.stop()
        let again = try Self.bind("a", at: "ipc:///run/a.sock", on: network, into: Received())
        #expect(network.boundEndpoints.count == 3)
        for link in [again, wildcard1, wildcard2] { await link.stop() }
        #expect(network.boundEndpoints.isEmpty)
    }

    @Test("an in-process run spreads the work over its nodes, and each worker ends with its goodbye, leaving nothing bound")
    func anInProcessRunEndsCleanly() async throws {
        let network = LoopbackNetwork()
        var options = loopbackOptions()
        options.launcher = .inProcess(network)
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        let run = DistributedRun(scenario: scenario, scenarioText: text, options: options)
        let result = try await run.conduct()
        #expect(Set(result.events.map(\.id.node)) == ["main", "b", "c"])
        #expect(await run.exitStatuses == ["b": 0, "c": 0])
        #expect(await run.processIDs.isEmpty)
        #expect(network.boundEndpoints.isEmpty)
    }

    @Test("an in-process run with CURVE cannot start, and says why")
    func anInProcessRunHasNoCurve() async throws {
        var options = loopbackOptions()
        options.secureSpawnedNodes = true
        let (text, scenario) = try spreadOverThreeNodes(packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))
        do {
            _ = try await DistributedRun.run(scenario, scenarioText: text, options: options)
            Issue.record("an in-process run with CURVE started")
        } catch {
            #expect("\(error)" == "distributed run could not start: the conductor cannot listen: a loopback link has no CURVE: a run with CURVE goes over ZeroMQ")
        }
    }
}
