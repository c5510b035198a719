import Foundation
import Testing
import TrellisTestSupport
import TrellisTransport
import TrellisWire
import ZeroMQ

/// SPEC §7 (issue 16 item 6): a node under a flood of garbage keeps constant memory, and serves
/// afterwards. A `trellis node` child process is fed 200,000 frames of assorted kinds of garbage
/// (strangers' SETUPs among them, and one frame past the largest message)
/// from a raw socket, each answered with an ERROR that the test reads before sending more (so
/// nothing piles up in any queue: the flood is paced by the node's answers, not by sleeps). Its
/// resident memory (VmRSS) after a warm-up of 20,000 frames and at the end may differ by a few
/// MiB — an allocator's noise — not by anything that grows with the frames (a leak of even
/// 16 bytes a frame would be 2.7 MiB). Then a real run is conducted through that same node and
/// gives the in-process trace, plus the node's bounded sample of what it rejected.
@Suite(.tags(.multiProcess, .slow), .selected(.multiProcess, .slow), .distributedHangGuard)
struct GarbageMemoryTests {
    static let frames = 200_000
    static let warmUp = 20_000
    /// Sent before their answers are read: a window, so that the node is never idle.
    static let window = 500
    /// What the resident memory may grow by between the warm-up and the end.
    static let allowedGrowth = 4 << 20

    /// The garbage, each kind with the ERROR code that answers it (TWP/1 §9.6): one answer each.
    static func garbage() -> [(frames: [[UInt8]], code: WireErrorCode)] {
        var wrongVersion = WireMessage(.heartbeat).encode()
        wrongVersion[0][2] = 9
        var truncatedCall = WireMessage(.call(target: WireAddress(node: "n", controller: "A", incarnation: 1), code: .layout, arguments: [.none])).encode()
        truncatedCall[1].removeLast(2)
        var unknownCommand = WireMessage(.heartbeat).encode()
        unknownCommand[0][4] = 0x77
        var largeUnknownCommand = unknownCommand
        largeUnknownCommand[1] = [UInt8](repeating: 0xA5, count: 2_048)
        // A stranger's SETUP: the node is set up only by its conductor (TWP/1 §7.2, authority).
        let strangersSetup = WireMessage(.setup(
            runID: "stranger", node: "n", scenarioJSON: #"{ "window": { "size": [320, 568] }, "root": "R", "controllers": { "R": { "children": ["A"] }, "A": {} }, "placement": { "A": "n" } }"#,
            heartbeatIntervalMilliseconds: 250, peerGoneTimeoutMilliseconds: 2_000, peers: [])).encode()
        return [
            (strangersSetup, .unexpectedCommand),
            ([[0x00]], .malformedHeader),
            ([[1, 2, 3], [4], [5]], .malformedHeader),
            ([[UInt8](repeating: 0x54, count: 1_000), [1]], .malformedHeader),
            (wrongVersion, .unsupportedVersion),
            (truncatedCall, .malformedBody),
            (unknownCommand, .unknownCommand),
            (largeUnknownCommand, .unknownCommand),
        ]
    }

    /// The resident memory of process `pid` in bytes (VmRSS in /proc/PID/status).
    static func residentBytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") else {
            throw FloodError(description: "no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes * 1024
    }

    @Test func aNodeFloodedWithGarbageKeepsItsMemoryFlatAndServesAfterwards() async throws {
        let executable = try #require(TrellisBinary.url)
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nodeEndpoint = "ipc://\(directory.path)/n.sock", conductorEndpoint = "ipc://\(directory.path)/main.sock"
        // The node greets a conductor that is not there yet: its HELLO waits in its queue.
        let node = Process()
        node.executableURL = executable
        node.arguments = ["node", "--name", "n", "--bind", nodeEndpoint, "--peer", "main=\(conductorEndpoint)", "--conductor", "main", "--setup-timeout", "120"]
        node.standardInput = FileHandle.nullDevice
        node.standardOutput = FileHandle.nullDevice
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer { if node.isRunning { kill(node.processIdentifier, SIGKILL) } }

        // The flood runs on a thread of its own: a loop that is never idle would hold one of the
        // test process's few cooperative threads for seconds, and slow every other test.
        let pid = node.processIdentifier
        let flood = await withCheckedContinuation { (done: CheckedContinuation<Result<Flood, FloodError>, Never>) in
            let thread = Thread { done.resume(returning: Self.flood(nodeEndpoint, node: pid)) }
            thread.start()
        }
        let (afterWarmUp, atTheEnd) = try flood.get().resident
        print("GarbageMemoryTests: node VmRSS \(afterWarmUp >> 10) KiB after \(Self.warmUp) garbage frames, \(atTheEnd >> 10) KiB after \(Self.frames)")
        #expect(atTheEnd - afterWarmUp <= Self.allowedGrowth, "VmRSS grew from \(afterWarmUp) to \(atTheEnd) bytes")
        #expect(node.isRunning)

        // And the node still serves: a real run through it gives the in-process trace.
        let scenario = directory.appendingPathComponent("scenario.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: packageRoot.appendingPathComponent("Examples/iphone-rotation.json"))) as? [String: Any])
        object["placement"] = ["A": "n", "A2": "n", "B": "n"]
        try JSONSerialization.data(withJSONObject: object).write(to: scenario)
        let distributed = try #require(try await runBounded(
            executable, ["run", scenario.path, "--transport", "zmq", "--listen", conductorEndpoint, "--node", "n=\(nodeEndpoint)"], timeout: .seconds(60)))
        let inProcess = try #require(try await runBounded(executable, ["run", scenario.path], timeout: .seconds(60)))
        #expect(distributed.status == 0, "stderr: \(distributed.stderr)")
        #expect(inProcess.status == 0)
        // The node's trace keeps a bounded sample of what it rejected: the first ones, then one
        // at each power of two. Apart from those lines the trace is the in-process one.
        let rejections = distributed.stdoutLines.filter { $0.hasPrefix("node:n fault ") }
        let sampled = NodeTransport.tracedRejections + (5...30).filter { 1 << $0 > NodeTransport.tracedRejections && 1 << $0 <= Self.frames }.count
        #expect(rejections.count == sampled)
        #expect(distributed.stdoutLines.filter { !$0.hasPrefix("node:n fault ") } == inProcess.stdoutLines)
    }

    struct Flood: Sendable {
        /// The node's VmRSS after the warm-up and at the end.
        var resident: (afterWarmUp: Int, atTheEnd: Int)
    }

    struct FloodError: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends the garbage to the node at `endpoint` from a raw DEALER, a window at a time, reading
    /// every answer (each wait bounded: 30 s); measures the node's memory on the way. Blocking:
    /// run on a thread of its own.
    static func flood(_ endpoint: String, node pid: Int32) -> Result<Flood, FloodError> {
        do {
            let context = try ZMQContext()
            let raw = try rawDealer(in: context, routingID: "raw", connectedTo: endpoint)
            defer {
                raw.close()
                context.terminate()
            }
            let kinds = garbage()
            let codes = Set(kinds.map(\.code.rawValue))
            var sent = 0, answered = 0, afterWarmUp = 0
            while answered < frames {
                while sent < frames, sent - answered < window {
                    _ = try raw.send(kinds[sent % kinds.count].frames, dontWait: false)
                    sent += 1
                }
                var items = [ZMQPollItem(.socket(raw))]
                guard try ZMQPoll.poll(&items, timeoutMilliseconds: 30_000) == 1, let answer = try raw.receive() else {
                    return .failure(FloodError(description: "no answer to frame \(answered) within 30 s"))
                }
                // Every frame is answered with an ERROR.
                let message = try WireMessage.decode(answer)
                guard case let .error(code, _) = message.body, codes.contains(code) else {
                    return .failure(FloodError(description: "frame \(answered) was answered with \(message.body)"))
                }
                answered += 1
                if answered == warmUp / 2 {
                    // A frame past the largest message (TWP/1 §4), from a connection of its own:
                    // libzmq drops that connection when it reads the size, before keeping any of it.
                    let big = try rawDealer(in: context, routingID: "big", connectedTo: endpoint)
                    try big.set(ZMQOption.linger, 10_000)
                    _ = try big.send([[UInt8](repeating: 0x5A, count: WireLimits.maxMessageBytes + 1)], dontWait: false)
                    big.close()
                }
                if answered == warmUp { afterWarmUp = try residentBytes(of: pid) }
            }
            return .success(Flood(resident: (afterWarmUp, try residentBytes(of: pid))))
        } catch {
            return .failure(FloodError(description: "\(error)"))
        }
    }
}
