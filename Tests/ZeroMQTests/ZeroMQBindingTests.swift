import Testing
import ZeroMQ

/// The binding against real libzmq sockets, on one thread, over inproc, ipc and tcp.
@Suite struct ZeroMQBindingTests {
    @Test func versionIsDebians4x() {
        #expect(ZMQContext.version.hasPrefix("4."))
    }

    @Test(arguments: ["inproc://binding-test", "ipc:///tmp/trellis-binding-test.sock", "tcp://127.0.0.1:*"])
    func dealerToRouterCarriesBinaryFramesAndTheRoutingID(endpoint: String) throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try context.socket(.router)
        defer { router.close() }
        try router.set(ZMQOption.linger, 0)
        try router.bind(endpoint)
        let dealer = try context.socket(.dealer)
        defer { dealer.close() }
        try dealer.set(ZMQOption.linger, 0)
        try dealer.set(ZMQOption.routingID, text: "node-a")
        try dealer.connect(router.lastEndpoint)
        let payload: [UInt8] = [0x00, 0xFF, 0x54, 0x52, 0x00, 0x0A]
        #expect(try dealer.send([[0x01], payload, []], dontWait: false))
        var items = [ZMQPollItem(.socket(router))]
        #expect(try ZMQPoll.poll(&items, timeoutMilliseconds: 5_000) == 1)
        let message = try router.receive()
        #expect(message == [Array("node-a".utf8), [0x01], payload, []])
        #expect(try router.receive() == nil)  // nothing more waiting
    }

    @Test("receiving into reused frames gives each message exactly, and frames kept by the caller stay as they were")
    func receiveIntoReusedFrames() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(ZMQOption.linger, 0)
        try pull.bind("inproc://reused-frames")
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(ZMQOption.linger, 0)
        try push.connect("inproc://reused-frames")
        let first: [[UInt8]] = [[1, 2, 3], Array(repeating: 7, count: 1_000), []]
        let second: [[UInt8]] = [[9]]
        let third: [[UInt8]] = [[], [4, 5], [6, 6, 6, 6]]
        for message in [first, second, third] { #expect(try push.send(message, dontWait: false)) }
        var frames: [[UInt8]] = []
        #expect(try pull.receive(into: &frames, dontWait: false))
        #expect(frames == first)
        let kept = frames
        #expect(try pull.receive(into: &frames, dontWait: false))
        #expect(frames == second)
        #expect(kept == first)
        #expect(try pull.receive(into: &frames, dontWait: false))
        #expect(frames == third)
        let before = frames
        #expect(try pull.receive(into: &frames, dontWait: true) == false)  // nothing waiting
        #expect(frames == before)
    }

    @Test("after a large message, a small one is not received into a buffer the large one's size")
    func largeMessageDoesNotInflateLaterBuffers() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(ZMQOption.linger, 0)
        try pull.bind("inproc://large-then-small")
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(ZMQOption.linger, 0)
        try push.connect("inproc://large-then-small")
        let large: [[UInt8]] = [Array(repeating: 1, count: 4 << 20)]
        let small: [[UInt8]] = [[1, 2, 3]]
        for message in [large, small, small] { #expect(try push.send(message, dontWait: false)) }
        var frames: [[UInt8]] = []
        #expect(try pull.receive(into: &frames, dontWait: false))
        var kept = [frames]  // as a node hands each message on
        for _ in 0..<2 {
            #expect(try pull.receive(into: &frames, dontWait: false))
            #expect(frames == small)
            #expect(frames[0].capacity < 1 << 20)
            kept.append(frames)
        }
        #expect(kept[0] == large)
    }

    @Test func wakeUpSignalMakesPollReturn() throws {
        let signal = try WakeUpSignal()
        defer { signal.close() }
        var items = [ZMQPollItem(.fileDescriptor(signal.fileDescriptor))]
        #expect(try ZMQPoll.poll(&items, timeoutMilliseconds: 0) == 0)
        signal.signal()
        signal.signal()
        #expect(try ZMQPoll.poll(&items, timeoutMilliseconds: 5_000) == 1)
        #expect(items[0].readable)
        signal.drain()
        #expect(try ZMQPoll.poll(&items, timeoutMilliseconds: 0) == 0)
    }

    /// A loop's set, refilled and polled turn after turn, reports what is ready in each turn:
    /// nothing is left over from the turn before.
    @Test func pollSetReusedAcrossTurns() throws {
        let first = try WakeUpSignal(), second = try WakeUpSignal()
        defer { first.close(); second.close() }
        var set = ZMQPollSet()
        for turn in 0..<4 {
            set.removeAll()
            set.append(ZMQPollItem(.fileDescriptor(first.fileDescriptor)))
            set.append(ZMQPollItem(.fileDescriptor(second.fileDescriptor)))
            let signalled = turn % 2 == 0 ? first : second
            signalled.signal()
            #expect(try set.poll(timeoutMilliseconds: 5_000) == 1)
            #expect(set.count == 2)
            #expect(set[0].readable == (turn % 2 == 0))
            #expect(set[1].readable == (turn % 2 == 1))
            signalled.drain()
        }
        set.removeAll()
        set.append(ZMQPollItem(.fileDescriptor(first.fileDescriptor)))
        #expect(try set.poll(timeoutMilliseconds: 0) == 0)
        #expect(!set[0].readable)
    }

    @Test func errorsCarryZmqStrerror() throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let socket = try context.socket(.dealer)
        defer { socket.close() }
        #expect(throws: ZMQError.self) { try socket.bind("nonsense://x") }
        do {
            try socket.bind("nonsense://x")
        } catch {
            #expect(error.operation == "zmq_bind nonsense://x")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func curveKeysAreZ85AndConsistent() throws {
        let pair = try ZMQContext.curveKeyPair()
        #expect(pair.publicKey.count == 40 && pair.secretKey.count == 40)
        #expect(try ZMQContext.curvePublicKey(forSecretKey: pair.secretKey) == pair.publicKey)
    }
}
