import Testing
import TrellisZMTP

/// The greeting, commands and frames against byte vectors written from RFC 23 (ZMTP 3.0) and
/// RFC 37 (ZMTP 3.1): each vector is the grammar's fields, one by one.
@Suite struct ZMTPCodecTests {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// `signature = %xFF padding %x7F`, `version = %x03 %x01`, `mechanism = "NULL"` padded to 20,
    /// `as-server = %x00`, `filler = 31%x00`.
    static let nullGreeting: [UInt8] = [0xFF] + [UInt8](repeating: 0, count: 8) + [0x7F, 0x03, 0x01]
        + ascii("NULL") + [UInt8](repeating: 0, count: 16) + [0x00] + [UInt8](repeating: 0, count: 31)

    /// A DEALER's READY with an empty identity: `%x04` (COMMAND, short) size 41, `%d5 "READY"`,
    /// then `Socket-Type` = "DEALER" and `Identity` = "" (each a name's size, the name, a 4-byte
    /// size, the value).
    static let dealerReady: [UInt8] = [0x04, 41, 5] + ascii("READY")
        + [11] + ascii("Socket-Type") + [0, 0, 0, 6] + ascii("DEALER")
        + [8] + ascii("Identity") + [0, 0, 0, 0]

    @Test func greetingIsTheRFCsSixtyFourBytes() throws {
        #expect(Self.nullGreeting.count == 64)
        #expect(ZMTPGreeting().bytes == Self.nullGreeting)
        let decoded = try ZMTPGreeting.decode(Self.nullGreeting)
        #expect(decoded == ZMTPGreeting(major: 3, minor: 1, mechanism: "NULL", asServer: false))
    }

    @Test func greetingFromA30PeerWithAnyPaddingIsAccepted() throws {
        var bytes = Self.nullGreeting
        bytes[8] = 0x01 // libzmq's padding: the identity's size plus one, for ZMTP 1.0 peers
        bytes[11] = 0x00
        #expect(try ZMTPGreeting.decode(bytes).minor == 0)
    }

    @Test func badGreetingsAreRefusedFromTheirFirstBadByte() {
        var notZMTP = Self.nullGreeting
        notZMTP[0] = 0x47 // "GET / HTTP/1.1"
        #expect(throws: ZMTPError.badSignature) { try ZMTPGreeting.checkPrefix(notZMTP.prefix(1)) }
        var zmtp10 = Self.nullGreeting
        zmtp10[9] = 0x7E
        #expect(throws: ZMTPError.badSignature) { try ZMTPGreeting.checkPrefix(zmtp10.prefix(10)) }
        var zmtp20 = Self.nullGreeting
        zmtp20[10] = 0x01
        #expect(throws: ZMTPError.unsupportedVersion(major: 1)) { try ZMTPGreeting.checkPrefix(zmtp20.prefix(11)) }
        var curve = Self.nullGreeting
        curve.replaceSubrange(12..<17, with: Self.ascii("CURVE"))
        #expect(throws: ZMTPError.unsupportedMechanism("CURVE")) { try ZMTPGreeting.decode(curve) }
        #expect(throws: ZMTPError.badSignature) { try ZMTPGreeting.decode(Self.nullGreeting.prefix(63)) }
    }

    @Test func readyCarriesSocketTypeAndIdentity() throws {
        #expect(ZMTPCommand.ready(ZMTPMetadata(socketType: .dealer, identity: [])).frame == Self.dealerReady)
        let decoded = try ZMTPCommand.decode(body: Self.dealerReady.dropFirst(2))
        guard case .ready(let metadata) = decoded else { Issue.record("not READY: \(decoded)"); return }
        #expect(metadata["socket-type"] == Self.ascii("DEALER"))
        #expect(metadata["IDENTITY"] == [])
    }

    @Test func pingPongAndErrorAreTheRFCsCommands() throws {
        // ping = command-size %d4 "PING" ping-ttl ping-context; pong echoes the context.
        let ping: [UInt8] = [0x04, 9, 4] + Self.ascii("PING") + [0x00, 0x0A] + Self.ascii("ab")
        #expect(ZMTPCommand.ping(ttl: 10, context: Self.ascii("ab")).frame == ping)
        #expect(try ZMTPCommand.decode(body: ping.dropFirst(2)) == .ping(ttl: 10, context: Self.ascii("ab")))
        let pong: [UInt8] = [0x04, 7, 4] + Self.ascii("PONG") + Self.ascii("ab")
        #expect(ZMTPCommand.pong(context: Self.ascii("ab")).frame == pong)
        #expect(try ZMTPCommand.decode(body: pong.dropFirst(2)) == .pong(context: Self.ascii("ab")))
        // error = command-size %d5 "ERROR" error-reason; error-reason = OCTET 0*255VCHAR.
        let error: [UInt8] = [0x04, 12, 5] + Self.ascii("ERROR") + [5] + Self.ascii("nope!")
        #expect(ZMTPCommand.error("nope!").frame == error)
        #expect(try ZMTPCommand.decode(body: error.dropFirst(2)) == .error("nope!"))
    }

    @Test func framesAreShortUpTo255AndLongAbove() {
        var short: [UInt8] = []
        ZMTPFrame.appendMessage([Self.ascii("id"), Self.ascii("hello")], to: &short)
        #expect(short == [0x01, 2] + Self.ascii("id") + [0x00, 5] + Self.ascii("hello"))
        var edge: [UInt8] = []
        ZMTPFrame.appendMessage([[UInt8](repeating: 7, count: 255)], to: &edge)
        #expect(edge.prefix(2) == [0x00, 0xFF])
        var long: [UInt8] = []
        ZMTPFrame.appendMessage([[UInt8](repeating: 7, count: 256), []], to: &long)
        #expect(long.prefix(9) == [0x03, 0, 0, 0, 0, 0, 0, 1, 0])
        #expect(long.suffix(2) == [0x00, 0x00])
        #expect(ZMTPFrame.encodedSize(of: [[UInt8](repeating: 7, count: 256), []]) == long.count)
        var empty: [UInt8] = []
        ZMTPFrame.appendMessage([], to: &empty)
        #expect(empty == [0x00, 0x00])
    }

    @Test func decoderAssemblesMultipartMessagesAndCommands() throws {
        var stream: [UInt8] = []
        ZMTPFrame.appendMessage([Self.ascii("a"), [UInt8](repeating: 1, count: 300), []], to: &stream)
        stream += ZMTPCommand.ping(ttl: 1, context: []).frame
        ZMTPFrame.appendMessage([Self.ascii("z")], to: &stream)
        var buffer = ZMTPInboundBuffer(capacity: 64)
        buffer.append(stream)
        var decoder = ZMTPFrameDecoder()
        #expect(try decoder.next(from: &buffer) == .message([Self.ascii("a"), [UInt8](repeating: 1, count: 300), []]))
        #expect(try decoder.next(from: &buffer) == .command(.ping(ttl: 1, context: [])))
        #expect(try decoder.next(from: &buffer) == .message([Self.ascii("z")]))
        #expect(try decoder.next(from: &buffer) == nil)
        #expect(buffer.count == 0)
    }
}
