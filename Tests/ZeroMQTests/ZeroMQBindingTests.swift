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
