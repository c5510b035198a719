import Foundation
import Synchronization
import Testing
import TrellisTestSupport
import TrellisTrace
@testable import TrellisTransport
import TrellisWire
import ZeroMQ

/// TWP/1 §7.9 in the transport: what a node queues for a peer leaves in batches, arrives in
/// order, and a damaged batch costs only its damaged part while the node keeps serving.
@Suite(.distributedHangGuard)
struct BatchingTests {
    static let target = WireAddress(node: "node", controller: "C", incarnation: 1)

    static func call(_ correlation: UInt64) -> WireMessage {
        WireMessage(.call(target: target, code: .snapshot, arguments: []), correlationID: correlation)
    }

    /// A node named "receiver" in `directory` whose inbound messages go to `received`.
    static func startReceiver(in directory: URL, into received: Received) async throws -> NodeIO {
        try await NodeIO.start(
            NodeIOConfiguration(nodeName: "receiver", bindEndpoint: "ipc://\(directory.path)/receiver.sock"), heartbeat: [],
            onMessage: { _, frames in received.take(frames) }, onEvent: { _ in })
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("trellis-batch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("an outbox packs what is queued into one BATCH, in order; a batch of one leaves plain")
    func outboxPacksInOrder() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        for index in 1...50 { outbox.append(Self.call(UInt64(index))) }
        outbox.append(WireMessage(.heartbeat).encode())
        #expect(outbox.chunks.count == 1)
        let frames = outbox.chunks[0].takeFrames()
        #expect(frames[0] == WireBatch.header)
        let messages = try WireBatch.decode(frames)
        #expect(messages.map(\.header.correlationID) == Array(1...50) + [0])
        #expect(messages.last?.body == .heartbeat)

        var alone = NodeOutbox(peer: "b", batching: true)
        alone.append(Self.call(9))
        #expect(alone.chunks.count == 1)
        #expect(alone.chunks[0].takeFrames() == Self.call(9).encode())
    }

    @Test("a BATCH handed to an outbox leaves as it is, and SETUP and TRACE-DATA always leave alone (§7.9)")
    func batchesAreNeverNested() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        outbox.append(Self.call(1))
        let packed = WireBatch.encode(messages: [Self.call(2), Self.call(3)])
        outbox.append(packed)
        outbox.append(WireMessage(.traceData(last: true, jsonLines: "{}"), correlationID: 4))
        outbox.append(Self.call(5))
        #expect(outbox.chunks.count == 4)
        #expect(try WireMessage.decode(outbox.chunks[0].takeFrames()) == Self.call(1))
        #expect(outbox.chunks[1].takeFrames() == packed)
        #expect(try WireMessage.decode(outbox.chunks[2].takeFrames()).header.correlationID == 4)
        #expect(try WireMessage.decode(outbox.chunks[3].takeFrames()) == Self.call(5))
    }

    @Test("a message after one that leaves alone, or after a full batch, leaves plain until another joins it: no BATCH of one")
    func noBatchOfOne() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        outbox.append(WireMessage(.traceData(last: true, jsonLines: "{}"), correlationID: 1))
        outbox.append(Self.call(2))
        #expect(outbox.chunks.count == 2)
        #expect(outbox.chunks[1].single == Self.call(2).encode())
        outbox.append(Self.call(3))
        #expect(outbox.chunks.count == 2)
        #expect(outbox.chunks[1].count == 2)

        // A batch filled to its bound: the message after it opens nothing yet.
        var full = NodeOutbox(peer: "b", batching: true)
        let text = String(repeating: "z", count: 8_000)
        var index: UInt64 = 0
        while full.chunks.count < 2 {
            index += 1
            full.append(WireMessage(.call(target: Self.target, code: .layout, arguments: [.string(text)]), correlationID: index))
        }
        #expect(full.chunks[0].count >= 2)
        #expect(full.chunks[1].single != nil)
        for chunk in full.chunks.indices where full.chunks[chunk].single == nil {
            #expect(full.chunks[chunk].count >= 2)
        }
        var correlations: [UInt64] = []
        for chunk in full.chunks.indices {
            let single = full.chunks[chunk].single != nil
            let frames = full.chunks[chunk].takeFrames()
            correlations += try (single ? [WireMessage.decode(frames)] : WireBatch.decode(frames)).map(\.header.correlationID)
        }
        #expect(correlations == Array(1...index))
    }

    @Test("large messages and an outbox without batching leave alone, keeping the order")
    func largeMessagesLeaveAlone() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        outbox.append(Self.call(1))
        outbox.append(Self.call(2))
        let trace = WireMessage(.traceData(last: true, jsonLines: String(repeating: "x", count: 100_000)), correlationID: 3)
        outbox.append(trace)
        outbox.append(Self.call(4))
        #expect(outbox.chunks.count == 3)
        #expect(try WireBatch.decode(outbox.chunks[0].takeFrames()).map(\.header.correlationID) == [1, 2])
        #expect(try WireMessage.decode(outbox.chunks[1].takeFrames()) == trace)
        #expect(try WireMessage.decode(outbox.chunks[2].takeFrames()) == Self.call(4))

        var unbatched = NodeOutbox(peer: "b", batching: false)
        for index in 1...3 { unbatched.append(Self.call(UInt64(index))) }
        #expect(unbatched.chunks.count == 3)
        for index in 0..<3 {
            #expect(try WireMessage.decode(unbatched.chunks[index].takeFrames()) == Self.call(UInt64(index + 1)))
        }
    }

    @Test("a full batch is closed and the next message opens another")
    func batchesAreBounded() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        let text = String(repeating: "y", count: 8_000)
        let count = 2 * NodeOutbox.batchBytes / 8_000 + 3
        for index in 1...count {
            outbox.append(WireMessage(.call(target: Self.target, code: .layout, arguments: [.string(text)]), correlationID: UInt64(index)))
        }
        #expect(outbox.chunks.count >= 3)
        var correlations: [UInt64] = []
        for index in outbox.chunks.indices {
            let frames = outbox.chunks[index].takeFrames()
            #expect(frames[1].count <= NodeOutbox.batchBytes + 9_000)
            correlations += try WireBatch.decode(frames).map(\.header.correlationID)
        }
        #expect(correlations == Array(1...UInt64(count)))
    }

    @Test("draining an outbox hands its chunks over in order and empties it; a copy keeps its own")
    func drainingIsInOrderAndLeavesCopiesAlone() throws {
        var outbox = NodeOutbox(peer: "b", batching: true)
        for index in 1...20 { outbox.append(Self.call(UInt64(index))) }
        // Large enough to leave alone: the batch before it is closed, a new one follows.
        let lines = String(repeating: "{}\n", count: 10_000)
        outbox.append(WireMessage(.traceData(last: true, jsonLines: lines), correlationID: 21))
        outbox.append(Self.call(22))
        let copy = outbox
        var sent: [[[UInt8]]] = []
        outbox.drain { sent.append($0) }
        #expect(outbox.chunks.isEmpty)
        #expect(sent.count == 3)
        var correlations: [UInt64] = []
        for frames in sent {
            WireBatch.decodeEach(frames) { result in
                if case let .success(message) = result { correlations.append(message.header.correlationID) }
            }
        }
        #expect(correlations == Array(1...22))
        // The copy's batch was not finished by the drain: it drains to the same bytes.
        var again = copy
        var resent: [[[UInt8]]] = []
        again.drain { resent.append($0) }
        #expect(resent == sent)
    }

    /// What a receiving node's I/O thread saw, and a wait for a number of messages.
    final class Received: Sendable {
        private struct State {
            var correlations: [UInt64] = []
            var failures = 0
            var target = Int.max
            var waiter: CheckedContinuation<Void, Never>?
        }

        private let state = Mutex(State())

        func take(_ frames: [[UInt8]]) {
            let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
                WireBatch.decodeEach(frames) { result in
                    switch result {
                    case let .success(message): state.correlations.append(message.header.correlationID)
                    case .failure: state.failures += 1
                    }
                }
                guard state.correlations.count >= state.target else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func wait(for count: Int) async -> (correlations: [UInt64], failures: Int) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    guard state.correlations.count < count else { return true }
                    state.target = count
                    state.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
            return state.withLock { ($0.correlations, $0.failures) }
        }
    }

    @Test("thousands of messages sent in a burst between two nodes arrive complete and in order")
    func burstArrivesInOrder() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = Received()
        let receiver = try await Self.startReceiver(in: directory, into: received)
        let sender = try await NodeIO.start(
            NodeIOConfiguration(nodeName: "sender", bindEndpoint: "ipc://\(directory.path)/sender.sock"), heartbeat: [],
            onMessage: { _, _ in }, onEvent: { _ in })
        await Self.expectBurst(of: 20_000, from: sender, to: receiver, into: received)
    }

    /// Connects `sender` to `receiver`, sends `count` calls in a burst and expects every one,
    /// in order and none failing, in `received`; then stops both.
    static func expectBurst(
        of count: Int, from sender: NodeIO, to receiver: NodeIO, into received: Received,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        sender.connect(peer: "receiver", endpoint: receiver.boundEndpoint)
        for index in 1...count { sender.send(to: "receiver", call(UInt64(index))) }
        let (correlations, failures) = await received.wait(for: count)
        #expect(correlations == Array(1...UInt64(count)), sourceLocation: sourceLocation)
        #expect(failures == 0, sourceLocation: sourceLocation)
        await sender.stop()
        await receiver.stop()
    }

    @Test("a message sent right after its peer's connect is delivered, however the I/O thread interleaves them")
    func sendRightAfterConnectIsDelivered() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let received = Received()
        let receiver = try await Self.startReceiver(in: directory, into: received)
        let senders = 20
        for index in 1...senders {
            let sender = try await NodeIO.start(
                NodeIOConfiguration(nodeName: "sender\(index)", bindEndpoint: "ipc://\(directory.path)/sender\(index).sock"),
                heartbeat: [], onMessage: { _, _ in }, onEvent: { _ in })
            sender.connect(peer: "receiver", endpoint: receiver.boundEndpoint)
            sender.send(to: "receiver", Self.call(UInt64(index)))
            _ = await received.wait(for: index)
            await sender.stop()
        }
        let (correlations, _) = await received.wait(for: senders)
        #expect(correlations == Array(1...UInt64(senders)))
        await receiver.stop()
    }

    @Test("a damaged batch is answered with ERROR for its damaged part, its good messages are served, and so is what follows")
    func damagedBatchWhileServing() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = NodeTransport(nodeName: "node", recorder: TraceRecorder(node: "node", storage: .discard))
        var configuration = NodeIOConfiguration(nodeName: "node", bindEndpoint: "ipc://\(directory.path)/node.sock")
        // The raw peer sends no heartbeats: on a loaded machine the default 2 s would declare it
        // gone — and a gone peer is sent nothing more — before the test is done with it.
        configuration.peerTimeoutMilliseconds = 120_000
        let bound = try await node.start(configuration)
        await node.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })

        // The test plays node "raw": a DEALER into the node's inbox, a ROUTER for its answers.
        let context = try ZMQContext()
        let inbox = try context.socket(.router)
        try inbox.set(ZMQOption.linger, 0)
        try inbox.bind("ipc://\(directory.path)/raw.sock")
        let outbound = try rawDealer(in: context, routingID: "raw", connectedTo: bound)
        defer {
            outbound.close()
            inbox.close()
            context.terminate()
        }
        await node.connect(peer: "raw", endpoint: "ipc://\(directory.path)/raw.sock")

        /// The node's answers until every correlation id in `expected` has one (bounded wait).
        func answers(_ expected: Set<UInt64>) async throws -> [UInt64: WireBody] {
            var seen: [UInt64: WireBody] = [:]
            while !expected.isSubset(of: Set(seen.keys)) {
                var items = [ZMQPollItem(.socket(inbox))]
                try #require(try await pollGivingWay(&items, timeout: .seconds(60)) == 1, "no answer from the node")
                guard var frames = try inbox.receive() else { continue }
                frames.removeFirst()  // the node's routing id
                WireBatch.decodeEach(frames) { result in
                    if case let .success(message) = result, message.body != .heartbeat {
                        seen[message.header.correlationID] = message.body
                    }
                }
            }
            return seen
        }

        var damaged = Self.call(2).encode()
        damaged[1][0] = 0x40  // the target node's length claims more than the body holds
        try outbound.send(WireBatch.encode([Self.call(1).encode(), damaged, Self.call(3).encode()][...]), dontWait: false)
        let first = try await answers([1, 2, 3])
        #expect(first[1] == .return(.ok([])))
        #expect(first[3] == .return(.ok([])))
        guard case let .error(code, text) = first[2] else {
            Issue.record("expected ERROR for the damaged entry, got \(String(describing: first[2]))")
            return
        }
        #expect(code == WireErrorCode.malformedBody.rawValue)
        #expect(text.hasPrefix("body: batch entry 2: target: node: string"))
        #expect(await node.malformedCount == 1)

        // A batch whose framing breaks: the entry before the break is served, the rest rejected once.
        var broken = WireBatch.encode([Self.call(4).encode(), Self.call(5).encode()][...])
        broken[1].removeLast(3)
        try outbound.send(broken, dontWait: false)
        let second = try await answers([4, 0])
        #expect(second[4] == .return(.ok([])))
        if case let .error(code, _) = second[0] { #expect(code == WireErrorCode.malformedBody.rawValue) } else {
            Issue.record("expected ERROR for the broken batch")
        }
        #expect(second[5] == nil)
        #expect(await node.malformedCount == 2)

        // The node keeps serving.
        try outbound.send(Self.call(6).encode(), dontWait: false)
        #expect(try await answers([6])[6] == .return(.ok([])))
        await node.stop()
    }
    @Test("a bad BATCH entry's ERROR comes after the RETURNs of the CALLs before it, however long they take (§7.9)")
    func errorComesAfterEarlierReturns() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = NodeTransport(nodeName: "node", recorder: TraceRecorder(node: "node", storage: .discard))
        var configuration = NodeIOConfiguration(nodeName: "node", bindEndpoint: "ipc://\(directory.path)/node.sock")
        // The raw peer sends no heartbeats: on a loaded machine the default 2 s would declare it
        // gone — and a gone peer is sent nothing more — before the test is done with it.
        configuration.peerTimeoutMilliseconds = 120_000
        let bound = try await node.start(configuration)
        // Serving a call takes a while: an ERROR sent as soon as its entry is read would overtake it.
        await node.setHandlers(call: { _, _ in
            try? await Task.sleep(for: .milliseconds(100))
            return .ok([])
        }, control: { _, _ in }, peerGone: { _, _ in })
        let context = try ZMQContext()
        let inbox = try context.socket(.router)
        try inbox.set(ZMQOption.linger, 0)
        try inbox.bind("ipc://\(directory.path)/raw.sock")
        let outbound = try rawDealer(in: context, routingID: "raw", connectedTo: bound)
        defer {
            outbound.close()
            inbox.close()
            context.terminate()
        }
        await node.connect(peer: "raw", endpoint: "ipc://\(directory.path)/raw.sock")
        var damaged = Self.call(3).encode()
        damaged[1][0] = 0x40
        var unknown = Self.call(4).encode()
        unknown[0][4] = 0x77
        try outbound.send(WireBatch.encode([Self.call(1).encode(), Self.call(2).encode(), damaged, unknown][...]), dontWait: false)
        // The answers in the order they arrive. A hang guard, not a timing check: the handlers'
        // sleeps need a thread of the pool, which the whole suite's tests share.
        var order: [UInt64] = []
        let deadline = ContinuousClock.now.advanced(by: .seconds(90))
        while order.count < 4, ContinuousClock.now < deadline {
            var items = [ZMQPollItem(.socket(inbox))]
            guard try await pollGivingWay(&items, timeout: .milliseconds(100)) == 1, var frames = try inbox.receive() else { continue }
            frames.removeFirst()
            WireBatch.decodeEach(frames) { result in
                if case let .success(message) = result, message.body != .heartbeat { order.append(message.header.correlationID) }
            }
        }
        #expect(order.count == 4)
        // The two RETURNs (in either order: the calls run concurrently), then the ERRORs in entry order.
        #expect(Set(order.prefix(2)) == [1, 2])
        #expect(Array(order.dropFirst(2)) == [3, 4])
        await node.stop()
    }

    @Test("the Python node serves a batch's entries in order and rejects a damaged entry or a broken batch",
          .tags(.multiProcess), .selected(.multiProcess), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func pythonNodeAcceptsBatches() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try ZMQContext()
        // The test plays the conductor "main": a ROUTER inbox, a DEALER to the Python node.
        let inbox = try context.socket(.router)
        try inbox.set(ZMQOption.linger, 0)
        try inbox.bind("ipc://\(directory.path)/main.sock")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [packageRoot.appendingPathComponent("Tests/Interop/trellis_node.py").path, "--name", "py",
                            "--bind", "ipc://\(directory.path)/py.sock", "--peer", "main=ipc://\(directory.path)/main.sock",
                            "--connect-timeout", "30"]
        python.standardInput = FileHandle.nullDevice
        python.standardError = FileHandle.nullDevice
        try python.run()
        let outbound = try context.socket(.dealer)
        try outbound.set(ZMQOption.linger, 0)
        try outbound.set(ZMQOption.routingID, text: "main")
        try outbound.connect("ipc://\(directory.path)/py.sock")
        defer {
            if python.isRunning { kill(python.processIdentifier, SIGKILL) }
            python.waitUntilExit()
            outbound.close()
            inbox.close()
            context.terminate()
        }

        /// The Python node's next `count` messages other than HEARTBEAT (bounded wait).
        func next(_ count: Int) async throws -> [WireMessage] {
            var messages: [WireMessage] = []
            while messages.count < count {
                var items = [ZMQPollItem(.socket(inbox))]
                // A hang guard: with the distributed suites' processes on two cores, a Python node took
                // over 20 s to start and greet.
                try #require(try await pollGivingWay(&items, timeout: .seconds(60)) == 1, "no message from the Python node")
                guard var frames = try inbox.receive() else { continue }
                frames.removeFirst()
                let message = try WireMessage.decode(frames)
                if message.body != .heartbeat { messages.append(message) }
            }
            return messages
        }

        // Both batches are queued at once (the DEALER holds them until the node binds): the node
        // serves them in order on its one thread, and a test task starved by the suite's other
        // processes can never leave it silent past its connect timeout or its 2 s peer timeout
        // (before SETUP, §9.5's defaults), after which it would leave with exit 3.
        var unknown = WireMessage(.heartbeat, correlationID: 5).encode()
        unknown[0][4] = 0x77
        try outbound.send(WireBatch.encode([
            WireMessage(.hello(node: "main", runID: "", capabilities: 0)).encode(), WireMessage(.heartbeat).encode(), unknown,
            WireMessage(.goodbye, correlationID: 7).encode(),
        ][...]), dontWait: false)
        var broken = WireBatch.encode(messages: [WireMessage(.goodbye, correlationID: 8), WireMessage(.goodbye, correlationID: 9)])
        broken[1].removeLast(10)
        try outbound.send(broken, dontWait: false)

        let hello = try await next(1)  // sent as the node starts, before it reads its inbox
        #expect(hello.first?.body.command == .hello)
        let answers = try await next(2)
        #expect(answers.map(\.header.correlationID) == [5, 7])
        #expect(answers.first?.body == .error(code: WireErrorCode.unknownCommand.rawValue, text: "header: major 1, command 0x77"))
        #expect(answers.last?.body == .goodbyeAck)

        let afterBreak = try await next(2)
        #expect(afterBreak.first?.body == .goodbyeAck)
        #expect(afterBreak.first?.header.correlationID == 8)
        guard case let .error(code, _) = afterBreak.last?.body else {
            Issue.record("expected ERROR for the broken batch, got \(String(describing: afterBreak.last))")
            return
        }
        #expect(code == WireErrorCode.malformedBody.rawValue)
        #expect(afterBreak.last?.header.correlationID == 0)
    }
}
