import Foundation
import Testing
import TrellisTrace
@testable import TrellisTransport
import TrellisWire
import TrellisTestSupport

/// The calls a node makes without its transport's actor: each ends, with its RETURN or with a
/// fault, whatever happens to the peer or the transport meanwhile.
@Suite(.distributedHangGuard)
struct OutboundCallsTests {
    /// A node connected to a peer that never answers (nothing listens at its endpoint).
    static func nodeWithSilentPeer(in directory: URL) async throws -> NodeTransport {
        let node = NodeTransport(nodeName: "a", recorder: TraceRecorder(node: "a", storage: .discard))
        _ = try await node.start(IOThreadExecutorTests.configuration("a", in: directory))
        await node.setHandlers(call: { _, _ in .ok([]) }, control: { _, _ in }, peerGone: { _, _ in })
        await node.connect(peer: "silent", endpoint: "ipc://\(directory.path)/silent.sock")
        return node
    }

    static let target = WireAddress(node: "silent", controller: "C", incarnation: 1)

    @Test("a call waiting on a peer ends with a fault when the peer is declared gone, and later calls fail at once")
    func peerDeclaredGone() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = try await Self.nodeWithSilentPeer(in: directory)
        let waiting = Task { await node.call(peer: "silent", target: Self.target, code: .snapshot, arguments: []) }
        // Declared gone before or after the call started waiting: the call ends the same way.
        await node.peerGone("silent", reason: "no message for 2000 ms")
        #expect(await waiting.value == .fault("node silent is gone: no message for 2000 ms"))
        #expect(node.isGone("silent"))
        #expect(await node.call(peer: "silent", target: Self.target, code: .snapshot, arguments: [])
            == .fault("node silent is gone: no message for 2000 ms"))
        #expect(await node.call(peer: "stranger", target: Self.target, code: .snapshot, arguments: [])
            == .fault("no connection to node stranger"))
        await node.stop()
    }

    @Test("a call waiting when the transport stops ends with a fault, and so does one made after")
    func transportStops() async throws {
        let directory = try BatchingTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let node = try await Self.nodeWithSilentPeer(in: directory)
        let waiting = Task { await node.call(peer: "silent", target: Self.target, code: .snapshot, arguments: []) }
        await node.stop()
        // Stopped before the call began (no connection left) or while it waited.
        let faults: Set<WireResult> = [.fault("the transport stopped"), .fault("no connection to node silent")]
        #expect(faults.contains(await waiting.value))
        #expect(await node.call(peer: "silent", target: Self.target, code: .snapshot, arguments: [])
            == .fault("no connection to node silent"))
    }

    // What is kept about peers declared gone: every node of the run for the run (TWP/1 §9.5
    // rule 3), strangers — which a peer can make up by the thousand — only the last few.

    @Test func strangersDeclaredGoneAreForgottenBeyondTheLastFew() {
        let calls = OutboundCalls()
        let strangers = 10_000
        for index in 0..<strangers {
            #expect(calls.declareGone("stranger-\(index)", fault: "node stranger-\(index) is gone: no message for 2000 ms") != nil)
        }
        #expect(calls.goneCount == NodeIOTuning.goneStrangersRemembered, "\(calls.goneCount) kept")
        #expect(calls.goneFault("stranger-\(strangers - 1)") == "node stranger-\(strangers - 1) is gone: no message for 2000 ms")
        #expect(calls.goneFault("stranger-0") == nil)
    }

    @Test func aNodeOfTheRunStaysGoneWhateverStrangersCome() {
        let calls = OutboundCalls()
        _ = calls.connect("b")
        _ = calls.declareGone("b", fault: "node b is gone: no message for 2000 ms")
        // Declared gone before this node connected to it (its greeting handled late): kept too.
        _ = calls.declareGone("c", fault: "node c is gone: no message for 2000 ms")
        _ = calls.connect("c")
        for index in 0..<(2 * NodeIOTuning.goneStrangersRemembered) {
            _ = calls.declareGone("stranger-\(index)", fault: "node stranger-\(index) is gone: no message for 2000 ms")
        }
        #expect(calls.goneCount == 2 + NodeIOTuning.goneStrangersRemembered)
        for node in ["b", "c"] {
            guard case let .failure(refused) = calls.begin(to: node) else {
                Issue.record("a call to the gone node \(node) was begun")
                continue
            }
            #expect(refused.reason == "node \(node) is gone: no message for 2000 ms")
        }
        // Each is declared gone once.
        #expect(calls.declareGone("b", fault: "node b stopped: again") == nil)
    }

    @Test("a call made to a node gone by its own goodbye fails with the words of the calls that were waiting on it")
    func oneWordingForAStoppedNode() {
        let calls = OutboundCalls()
        _ = calls.connect("d")
        _ = calls.declareGone("d", fault: "node d stopped: it said goodbye")
        guard case let .failure(refused) = calls.begin(to: "d") else {
            Issue.record("a call to the stopped node d was begun")
            return
        }
        // It read "node d is gone: it said goodbye" beside the waiting calls' "node d stopped: …".
        #expect(refused.reason == "node d stopped: it said goodbye")
    }
}
