import Testing
import TrellisZMTP
import ZeroMQ

/// The handshake's deadline judges the peer, not the thread that serves our socket: a step the
/// peer made in time and that waits in the socket when that thread comes late (seconds late, on a
/// loaded machine) keeps the connection. Each test makes the owner late on purpose by waiting past
/// the deadline before the turn that reads the peer's step; no test waits for a message so.
///
/// Before, such a turn read the peer's signature, sent our greeting's rest and READY, and then
/// timed the connection out: a libzmq DEALER that had taken its first message for that
/// connection lost it, and `ZMTPInteropTests.oneMegabyteMessagesCrossBothWays` stalled in CI.
@Suite struct ZMTPHandshakeDeadlineTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Waits until `deadline` has passed: the owner of the sockets is late.
    static func beLate(past deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline.advanced(by: .milliseconds(20)), clock: .continuous)
    }

    @Test func aRouterServedLateKeepsAPeerWhoseSignatureCameInTime() async throws {
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*", handshakeTimeout: .milliseconds(500))
        defer { router.close() }
        var pump = Pump(routers: [router])
        let raw = try RawStream.connect(port: router.endpoint.port)
        let opening = ZMTPHandshake(socketType: .dealer, identity: Self.bytes("late")).opening
        // As libzmq does: its signature and version (what it sends once it has read ours), and
        // the rest only later.
        raw.write(Array(opening.prefix(12)))
        #expect(try await pump.until { router.nextDeadline != nil })
        let firstDeadline = try #require(router.nextDeadline)
        try await Self.beLate(past: firstDeadline)
        try pump.turn()
        #expect(router.lastError == nil, "the signature waiting in the socket came in time")
        let nextDeadline = try #require(router.nextDeadline, "the connection is still shaking hands")
        #expect(nextDeadline > firstDeadline)
        var rest = Array(opening.dropFirst(12))
        ZMTPFrame.appendMessage([Self.bytes("first")], to: &rest)
        raw.write(rest)
        var message: [[UInt8]]?
        #expect(try await pump.until { message = router.receive(); return message != nil })
        #expect(message == [Self.bytes("late"), Self.bytes("first")])
    }

    @Test func aDealerServedLateKeepsAServerWhoseSignatureCameInTime() async throws {
        let server = try RawServer.onAFreePort()
        // Long enough that the wait below for the server to have read the DEALER's first bytes
        // (the test's turns may queue behind the pool for a while) does not time it out.
        let dealer = try ZMTPDealer(connectingTo: server.endpoint, handshakeTimeout: .seconds(3))
        var pump = Pump(dealers: [dealer])
        var stream: RawStream?
        var greeting: [UInt8] = []
        // Accepted, and the DEALER's first 12 bytes read: its connection is made.
        #expect(try await pump.until {
            if stream == nil { stream = server.acceptNow() }
            greeting += stream?.read(milliseconds: 1) ?? []
            return greeting.count >= 12
        })
        let opening = ZMTPHandshake(socketType: .router).opening
        stream?.write(Array(opening.prefix(12)))
        let firstDeadline = try #require(dealer.nextDeadline)
        try await Self.beLate(past: firstDeadline)
        try pump.turn()
        #expect(dealer.lastError == nil, "the signature waiting in the socket came in time")
        #expect(try #require(dealer.nextDeadline) > firstDeadline)
        stream?.write(Array(opening.dropFirst(12)))
        #expect(try await pump.until { dealer.isConnected })
        #expect(dealer.connectionsMade == 1)
    }

    @Test func aLibzmqDealersFirstMessageReachesARouterServedLate() async throws {
        let context = try ZMQContext()
        defer { context.terminate() }
        // Long enough for libzmq's I/O thread to answer each step in the whole suite on two cores.
        let router = try ZMTPRouter(binding: "tcp://127.0.0.1:*", handshakeTimeout: .seconds(3))
        defer { router.close() }
        let dealer = try ZMTPInteropTests.libzmqSocket(context, .dealer, identity: "late")
        defer { dealer.close() }
        try dealer.connect(router.endpoint.description)
        try dealer.send([Self.bytes("first")], dontWait: false)
        var pump = Pump(routers: [router])
        #expect(try await pump.until { router.nextDeadline != nil })
        try await Self.beLate(past: try #require(router.nextDeadline))
        var message: [[UInt8]]?
        #expect(try await pump.until { message = router.receive(); return message != nil })
        #expect(message == [Self.bytes("late"), Self.bytes("first")])
        #expect(router.lastError == nil)
    }
}
