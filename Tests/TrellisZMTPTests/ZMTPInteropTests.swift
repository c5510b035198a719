#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TrellisZMTP
import ZeroMQ

/// Our DEALER and ROUTER against libzmq's (Debian's 4.3) through the project's binding, both
/// ways, over tcp and ipc: multipart and 1 MB messages, a peer that restarts, one that leaves
/// mid-frame, garbage greetings, backpressure, and PING answered.
@Suite struct ZMTPInteropTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A fresh ipc path for this test.
    static func ipcEndpoint(_ name: String) -> String {
        "ipc:///tmp/trellis-zmtp-\(getpid())-\(name).sock"
    }

    static func libzmqSocket(_ context: ZMQContext, _ type: ZMQSocketType, identity: String? = nil) throws -> ZMQSocket {
        let socket = try context.socket(type)
        try socket.set(ZMQOption.linger, 0)
        if let identity { try socket.set(ZMQOption.routingID, text: identity) }
        return socket
    }

    @Test(arguments: ["tcp", "ipc"]) func ourDealerTalksToLibzmqRouter(kind: String) async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try Self.libzmqSocket(context, .router)
        defer { router.close() }
        try router.bind(kind == "tcp" ? "tcp://127.0.0.1:*" : Self.ipcEndpoint("dealer-out"))
        let dealer = try ZMTPDealer(connectingTo: router.lastEndpoint, identity: Self.bytes("ours"))
        var pump = Pump(dealers: [dealer])
        #expect(dealer.send([Self.bytes("a"), Self.bytes("b"), []]))
        var received: [[UInt8]]?
        #expect(try await pump.until { received = try router.receive(); return received != nil })
        #expect(received == [Self.bytes("ours"), Self.bytes("a"), Self.bytes("b"), []])
        try router.send([Self.bytes("ours"), Self.bytes("x"), Self.bytes("y")], dontWait: false)
        var reply: [[UInt8]]?
        #expect(try await pump.until { reply = dealer.receive(); return reply != nil })
        #expect(reply == [Self.bytes("x"), Self.bytes("y")])
    }

    @Test(arguments: ["tcp", "ipc"]) func libzmqDealerTalksToOurRouter(kind: String) async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try ZMTPRouter(binding: kind == "tcp" ? "tcp://127.0.0.1:*" : Self.ipcEndpoint("router-in"))
        defer { router.close() }
        let named = try Self.libzmqSocket(context, .dealer, identity: "theirs")
        defer { named.close() }
        try named.connect(router.endpoint.description)
        let anonymous = try Self.libzmqSocket(context, .dealer)
        defer { anonymous.close() }
        try anonymous.connect(router.endpoint.description)
        try named.send([Self.bytes("hello"), Self.bytes("world")], dontWait: false)
        try anonymous.send([Self.bytes("who")], dontWait: false)
        var pump = Pump(routers: [router])
        var messages: [[[UInt8]]] = []
        #expect(try await pump.until {
            while let message = router.receive() { messages.append(message) }
            return messages.count == 2
        })
        #expect(messages.contains([Self.bytes("theirs"), Self.bytes("hello"), Self.bytes("world")]))
        let other = try #require(messages.first { $0.last == Self.bytes("who") })
        #expect(other.count == 2 && other[0].count == 5 && other[0].first == 0, "made-up identity: \(other[0])")
        #expect(router.send(to: Self.bytes("theirs"), [Self.bytes("back")]) == .queued)
        #expect(router.send([other[0], Self.bytes("you")]) == .queued)
        #expect(router.send(to: Self.bytes("nobody"), [Self.bytes("lost")]) == .unknownPeer)
        var back: [[UInt8]]?, you: [[UInt8]]?
        #expect(try await pump.until {
            if back == nil { back = try named.receive() }
            if you == nil { you = try anonymous.receive() }
            return back != nil && you != nil
        })
        #expect(back == [Self.bytes("back")])
        #expect(you == [Self.bytes("you")])
    }

    @Test func oneMegabyteMessagesCrossBothWays() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        defer { router.close() }
        let libzmqRouter = try Self.libzmqSocket(context, .router)
        defer { libzmqRouter.close() }
        try libzmqRouter.bind(Self.ipcEndpoint("big"))
        let dealer = try ZMTPDealer(connectingTo: libzmqRouter.lastEndpoint, identity: Self.bytes("big"))
        let libzmqDealer = try Self.libzmqSocket(context, .dealer, identity: "big")
        defer { libzmqDealer.close() }
        try libzmqDealer.connect(router.endpoint.description)
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var pump = Pump(dealers: [dealer], routers: [router])

        // Ours → libzmq, and libzmq → ours, each with a small second part.
        #expect(dealer.send([large, Self.bytes("end")]))
        try libzmqDealer.send([large, Self.bytes("end")], dontWait: false)
        var atLibzmq: [[UInt8]]?, atOurs: [[UInt8]]?
        #expect(try await pump.until {
            if atLibzmq == nil { atLibzmq = try libzmqRouter.receive() }
            if atOurs == nil { atOurs = router.receive() }
            return atLibzmq != nil && atOurs != nil
        })
        #expect(atLibzmq == [Self.bytes("big"), large, Self.bytes("end")])
        #expect(atOurs == [Self.bytes("big"), large, Self.bytes("end")])
        // And back: our ROUTER → libzmq DEALER.
        #expect(router.send(to: Self.bytes("big"), [large]) == .queued)
        var returned: [[UInt8]]?
        #expect(try await pump.until { returned = try libzmqDealer.receive(); return returned != nil })
        #expect(returned == [large])
    }

    @Test func ourDealerReconnectsAfterThePeerRestarts() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let endpoint = Self.ipcEndpoint("restart")
        var router = try Self.libzmqSocket(context, .router)
        try router.bind(endpoint)
        let dealer = try ZMTPDealer(connectingTo: endpoint, identity: Self.bytes("again"), reconnectInterval: .milliseconds(20))
        var pump = Pump(dealers: [dealer])
        #expect(dealer.send([Self.bytes("first")]))
        var received: [[UInt8]]?
        #expect(try await pump.until { received = try router.receive(); return received != nil })
        #expect(received == [Self.bytes("again"), Self.bytes("first")])

        router.close()
        #expect(try await pump.until { !dealer.isConnected })
        router = try Self.libzmqSocket(context, .router)
        defer { router.close() }
        try router.bind(endpoint)
        #expect(try await pump.until { dealer.isConnected })
        #expect(dealer.connectionsMade == 2)
        #expect(dealer.send([Self.bytes("second")]))
        received = nil
        #expect(try await pump.until { received = try router.receive(); return received != nil })
        #expect(received == [Self.bytes("again"), Self.bytes("second")])
    }

    @Test func aPeerLeavingMidFrameCostsOnlyItsConnection() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        defer { router.close() }
        var pump = Pump(routers: [router])

        let raw = try RawStream.connect(port: router.endpoint.port)
        raw.write(ZMTPHandshake(socketType: .dealer, identity: Self.bytes("leaver")).opening)
        #expect(try await pump.until { router.connectedPeers == [Self.bytes("leaver")] })
        // A frame announcing 100 bytes, 10 of them sent, then the peer is gone.
        raw.write([0x00, 100] + [UInt8](repeating: 1, count: 10))
        raw.close()
        #expect(try await pump.until { router.connectedPeers.isEmpty })
        #expect(router.lastError == .closedByPeer)
        #expect(router.receive() == nil)

        // The ROUTER still serves others, the same identity included.
        let dealer = try Self.libzmqSocket(context, .dealer, identity: "leaver")
        defer { dealer.close() }
        try dealer.connect(router.endpoint.description)
        try dealer.send([Self.bytes("still here")], dontWait: false)
        var message: [[UInt8]]?
        #expect(try await pump.until { message = router.receive(); return message != nil })
        #expect(message == [Self.bytes("leaver"), Self.bytes("still here")])
    }

    @Test func garbageGreetingsEndTheirConnectionAndNothingElse() async throws {
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*", handshakeTimeout: .milliseconds(300))
        defer { router.close() }
        var pump = Pump(routers: [router])
        let http = try RawStream.connect(port: router.endpoint.port)
        http.write(Self.bytes("GET / HTTP/1.1\r\nHost: trellis\r\n\r\n"))
        // The ROUTER sent its greeting, then closed: the client reads to the end of the stream.
        var seen: [UInt8] = []
        #expect(try await pump.until {
            guard let chunk = http.read() else { return false }
            seen += chunk
            return chunk.isEmpty
        })
        #expect(seen.prefix(64) == ZMTPGreeting().bytes[...])
        #expect(router.lastError == .badSignature)

        // A client that sends a good signature and then nothing is dropped at the deadline.
        let silent = try RawStream.connect(port: router.endpoint.port)
        silent.write(Array(ZMTPGreeting().bytes.prefix(11)))
        #expect(try await pump.until { router.lastError == .handshakeTimeout })

        // Our DEALER, given garbage by a server, drops it and tries again.
        let server = try RawServer.onAFreePort()
        let dealer = try ZMTPDealer(connectingTo: server.endpoint, reconnectInterval: .milliseconds(10))
        var dealerPump = Pump(dealers: [dealer])
        var first: RawStream?
        #expect(try await dealerPump.until { first = server.acceptNow(); return first != nil })
        first?.write([0x00] + [UInt8](repeating: 0x55, count: 80))
        #expect(try await dealerPump.until { dealer.lastError == .badSignature })
        var second: RawStream?
        #expect(try await dealerPump.until { second = server.acceptNow(); return second != nil })
        var greeting: [UInt8] = []
        // Our signature and version first; the rest once the server's signature and version have come.
        #expect(try await dealerPump.until { greeting += second?.read() ?? []; return greeting.count >= 12 })
        #expect(greeting.count == 12, "the rest of the greeting waits for the server's signature and version")
        second?.write(Array(ZMTPGreeting().bytes.prefix(12)))
        #expect(try await dealerPump.until { greeting += second?.read() ?? []; return greeting.count >= 64 })
        #expect(greeting.prefix(64) == ZMTPGreeting().bytes[...], "the DEALER came back and greeted again")
    }

    @Test func ourMechanismWaitsForTheClientsSoACurveClientIsNamed() async throws {
        // A libzmq client sends its signature at once and its version after reading ours; it
        // writes its mechanism only after its read loop stops, and a loop that reads our whole
        // greeting ends in the mismatch first, closing without ever sending it. So our ROUTER
        // sends 12 bytes and no more until the client's 12th, whatever else it waits for
        // (docs/decisions.md "zmtp3"; `zmtpNamesAMechanismMismatch` hung so under load).
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        defer { router.close() }
        var pump = Pump(routers: [router])
        let client = try RawStream.connect(port: router.endpoint.port)
        let curve = ZMTPGreeting(mechanism: "CURVE").bytes
        client.write(Array(curve.prefix(11)))
        var seen: [UInt8] = []
        #expect(try await pump.until { seen += client.read(milliseconds: 1) ?? []; return seen.count >= 12 })
        for _ in 0..<20 {
            try pump.turn()
            seen += client.read(milliseconds: 1) ?? []
        }
        #expect(seen == Array(ZMTPGreeting().bytes.prefix(12)), "nothing past the version before the client's 12th byte")
        client.write(Array(curve.dropFirst(11)))
        #expect(try await pump.until { router.lastError != nil })
        #expect(router.lastError == .unsupportedMechanism("CURVE"))
    }

    @Test func aFullQueueRefusesMoreMessages() async throws {
        // A server that accepts and never answers: the handshake never ends, so nothing leaves.
        let server = try RawServer.onAFreePort()
        let dealer = try ZMTPDealer(connectingTo: server.endpoint, writeBound: 16 << 10)
        let message = [[UInt8](repeating: 7, count: 1000)]
        var accepted = 0
        while dealer.send(message), accepted < 100 { accepted += 1 }
        #expect(accepted == 16, "\(accepted) messages of 1002 bytes fit in 16 KiB")
        #expect(dealer.queuedBytes <= 16 << 10)
        _ = server
    }

    @Test func aFullInboxStopsReadingAndLosesNothing() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*", receiveBound: 10)
        defer { router.close() }
        let dealer = try Self.libzmqSocket(context, .dealer, identity: "many")
        defer { dealer.close() }
        try dealer.connect(router.endpoint.description)
        for index in 0..<50 { try dealer.send([[UInt8(index)]], dontWait: false) }
        var pump = Pump(routers: [router])
        var taken: [[UInt8]] = []
        // Untaken, the inbox fills to its bound and stays there however many turns pass.
        #expect(try await pump.until { router.waitingMessages == 10 })
        for _ in 0..<20 { try pump.turn() }
        #expect(router.waitingMessages == 10)
        var held: [[[UInt8]]] = []
        while let message = router.receive() { held.append(message) }
        #expect(held.count == 10)
        taken += held.map { $0[1] }
        #expect(try await pump.until {
            while let message = router.receive() { taken.append(message[1]) }
            return taken.count == 50
        })
        #expect(taken == (0..<50).map { [UInt8($0)] })
    }

    @Test func messagesReadBehindAFullInboxAreOwnedUpTo() async throws {
        // The bytes of 50 messages come in one read; the inbox takes 10. The other 40 are out of
        // the kernel, so no poll wakes for them: the ROUTER must say they wait, and hand them
        // over on a `service` with nothing ready (docs/decisions.md "zmtp3").
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*", receiveBound: 10)
        defer { router.close() }
        var pump = Pump(routers: [router])
        let raw = try RawStream.connect(port: router.endpoint.port)
        var bytes = ZMTPHandshake(socketType: .dealer, identity: Self.bytes("burst")).opening
        for index in 0..<50 { ZMTPFrame.appendMessage([[UInt8(index)]], to: &bytes) }
        raw.write(bytes)
        #expect(try await pump.until { router.waitingMessages == 10 })
        var taken: [[UInt8]] = []
        for round in 0..<5 {
            #expect(router.hasUndecodedInput == (round < 4), "round \(round)")
            while let message = router.receive() { taken.append(message[1]) }
            router.service(ZMTPPollSet())
        }
        #expect(!router.hasUndecodedInput)
        #expect(taken == (0..<50).map { [UInt8($0)] })
        raw.close()
    }

    @Test func messagesSentJustBeforeThePeerClosesAreDelivered() async throws {
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        defer { router.close() }
        var pump = Pump(routers: [router])
        let raw = try RawStream.connect(port: router.endpoint.port)
        var bytes = ZMTPHandshake(socketType: .dealer, identity: Self.bytes("brief")).opening
        ZMTPFrame.appendMessage([Self.bytes("last"), Self.bytes("words")], to: &bytes)
        raw.write(bytes)
        raw.close()
        var message: [[UInt8]]?
        #expect(try await pump.until { message = router.receive(); return message != nil })
        #expect(message == [Self.bytes("brief"), Self.bytes("last"), Self.bytes("words")])
        #expect(try await pump.until { router.connectedPeers.isEmpty })
    }

    @Test func pingIsAnsweredWithItsContext() async throws {
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        defer { router.close() }
        var pump = Pump(routers: [router])
        let raw = try RawStream.connect(port: router.endpoint.port)
        raw.write(ZMTPHandshake(socketType: .dealer, identity: Self.bytes("pinger")).opening + ZMTPCommand.ping(ttl: 30, context: Self.bytes("hb")).frame)
        var handshake = ZMTPHandshake(socketType: .dealer)
        var decoder = ZMTPFrameDecoder()
        var buffer = ZMTPInboundBuffer()
        var peer: ZMTPHandshake.Peer?
        var pong: ZMTPFrameDecoder.Item?
        #expect(try await pump.until {
            buffer.append(raw.read() ?? [])
            if peer == nil { peer = try handshake.advance(&buffer, decoder: &decoder) }
            if peer != nil { pong = try decoder.next(from: &buffer) }
            return pong != nil
        })
        #expect(peer?.socketType == "ROUTER")
        #expect(pong == .command(.pong(context: Self.bytes("hb"))))
    }
}

/// A blocking TCP listener on a given port, for the tests whose server misbehaves.
final class RawServer {
    let fd: Int32
    let port: UInt16

    /// A raw server on a port that was free a moment ago: a ZMTP router binds any port and
    /// closes at once, freeing its number for this server.
    static func onAFreePort() throws -> RawServer {
        let listener = try ZMTPRouter(binding: "tcp://127.0.0.1:*")
        listener.close()
        return try RawServer(port: listener.endpoint.port)
    }

    /// Where a DEALER reaches this server.
    var endpoint: String { "tcp://127.0.0.1:\(port)" }

    init(port: UInt16) throws {
        self.port = port
        #if os(Linux)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw ZMTPError.system("bind", errno: errno) }
    }

    deinit {
        closeDescriptor(fd)
    }

    /// A connection waiting to be accepted, if one is.
    func acceptNow() -> RawStream? {
        var item = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&item, 1, 0) > 0 else { return nil }
        let accepted = accept(fd, nil, nil)
        return accepted >= 0 ? RawStream(fd: accepted) : nil
    }
}
