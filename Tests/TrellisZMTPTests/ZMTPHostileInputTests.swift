import Testing
import TrellisTestSupport
import TrellisZMTP

/// Truncated, oversized and random input: the decoder and the handshake answer each with "more,
/// please" or a named error, never a trap, and never hold more than a frame's limit.
@Suite struct ZMTPHostileInputTests {
    static let small = ZMTPLimits(maximumFrameBytes: 1024, maximumParts: 4, maximumMessageBytes: 2048)

    /// A router's view of a DEALER: greeting, READY, then two messages.
    static var validStream: [UInt8] {
        var stream = ZMTPHandshake(socketType: .dealer, identity: Array("peer".utf8)).opening
        ZMTPFrame.appendMessage([Array("one".utf8), [UInt8](repeating: 9, count: 500)], to: &stream)
        ZMTPFrame.appendMessage([Array("two".utf8)], to: &stream)
        return stream
    }

    /// Feeds `stream` in pieces of `piece` bytes; what came out, or the error that ended it.
    static func run(_ stream: [UInt8], piece: Int, limits: ZMTPLimits = small) -> (peer: ZMTPHandshake.Peer?, messages: [[[UInt8]]], error: ZMTPError?) {
        var handshake = ZMTPHandshake(socketType: .router)
        var decoder = ZMTPFrameDecoder(limits: limits)
        var buffer = ZMTPInboundBuffer(capacity: 64)
        var peer: ZMTPHandshake.Peer?
        var messages: [[[UInt8]]] = []
        var offset = 0
        do {
            while offset < stream.count {
                buffer.append(stream[offset..<min(stream.count, offset + piece)])
                offset += piece
                if peer == nil { peer = try handshake.advance(&buffer, decoder: &decoder) }
                guard peer != nil else { continue }
                while let item = try decoder.next(from: &buffer) {
                    if case .message(let parts) = item { messages.append(parts) }
                }
            }
        } catch {
            return (peer, messages, error)
        }
        return (peer, messages, nil)
    }

    @Test func everyPieceSizeGivesTheSameMessages() {
        for piece in [1, 2, 3, 7, 10, 11, 12, 63, 64, 65, 100, 4096] {
            let result = Self.run(Self.validStream, piece: piece)
            #expect(result.error == nil, "piece \(piece)")
            #expect(result.peer == ZMTPHandshake.Peer(socketType: "DEALER", identity: Array("peer".utf8), minorVersion: 1))
            #expect(result.messages == [[Array("one".utf8), [UInt8](repeating: 9, count: 500)], [Array("two".utf8)]], "piece \(piece)")
        }
    }

    @Test func everyTruncationWaitsForMoreAndNeverFails() {
        let stream = Self.validStream
        for length in 0..<stream.count {
            let result = Self.run(Array(stream.prefix(length)), piece: 5)
            #expect(result.error == nil, "truncated at \(length)")
            #expect(result.messages.count <= 1)
        }
    }

    @Test func oversizedFramesAreRefusedFromTheirHeader() {
        let greetingAndReady = ZMTPHandshake(socketType: .dealer).opening
        // A long frame claiming 2^62 bytes: refused after its 9-byte header, nothing buffered.
        let huge = greetingAndReady + [0x02, 0x40, 0, 0, 0, 0, 0, 0, 0]
        #expect(Self.run(huge, piece: 4096).error == .frameTooLarge(size: 1 << 62, limit: 1024))
        let overLimit = greetingAndReady + [0x02, 0, 0, 0, 0, 0, 0, 0x04, 0x01]
        #expect(Self.run(overLimit, piece: 4096).error == .frameTooLarge(size: 1025, limit: 1024))
        var tooManyParts = greetingAndReady
        ZMTPFrame.appendMessage([[1], [2], [3], [4], [5]], to: &tooManyParts)
        #expect(Self.run(tooManyParts, piece: 4096).error == .messageTooLarge(parts: 5, bytes: 5))
        var tooManyBytes = greetingAndReady
        ZMTPFrame.appendMessage([[UInt8](repeating: 0, count: 1000), [UInt8](repeating: 0, count: 1000), [UInt8](repeating: 0, count: 100)], to: &tooManyBytes)
        #expect(Self.run(tooManyBytes, piece: 4096).error == .messageTooLarge(parts: 3, bytes: 2100))
    }

    @Test func malformedFramesAndCommandsAreNamed() {
        let opening = ZMTPHandshake(socketType: .dealer).opening
        #expect(Self.run(opening + [0x08, 0], piece: 100).error == .badFrameHeader(flags: 0x08))
        #expect(Self.run(opening + [0x05, 1, 0], piece: 100).error == .badFrameHeader(flags: 0x05))
        #expect(Self.run(opening + [0x01, 1, 65] + [0x04, 1, 0], piece: 100).error == .badCommand("command inside a multipart message"))
        #expect(Self.run(opening + [0x04, 3, 9, 65, 65], piece: 100).error == .badCommand("name missing or longer than the command"))
        let longPing: [UInt8] = [0x04, 25, 4] + Array("PING".utf8) + [UInt8](repeating: 0, count: 20)
        #expect(Self.run(opening + longPing, piece: 100).error == .badCommand("PING must carry a ttl and at most 16 bytes of context"))
    }

    @Test func handshakeMistakesAreNamed() {
        let greeting = ZMTPGreeting().bytes
        var message: [UInt8] = []
        ZMTPFrame.appendMessage([[1]], to: &message)
        #expect(Self.run(greeting + message, piece: 100).error == .messageBeforeReady)
        let pub = ZMTPCommand.ready(ZMTPMetadata([.init(name: "Socket-Type", value: Array("PUB".utf8))])).frame
        #expect(Self.run(greeting + pub, piece: 100).error == .incompatibleSocketType("PUB"))
        #expect(Self.run(greeting + ZMTPCommand.ready(ZMTPMetadata()).frame, piece: 100).error == .incompatibleSocketType("(none given)"))
        #expect(Self.run(greeting + ZMTPCommand.error("go away").frame, piece: 100).error == .peerError("go away"))
        // A property whose value's size runs past the command.
        let cut: [UInt8] = [0x04, 12, 5] + Array("READY".utf8) + [1, 65, 0, 0, 0, 9]
        #expect(Self.run(greeting + cut, piece: 100).error == .badCommand("READY property value runs past the command"))
        let http = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(Self.run(http, piece: 100).error == .badSignature)
    }

    @Test func randomBytesEndInAnErrorOrAWaitNeverATrap() {
        var generator = SplitMix64(seed: 27)
        let valid = Self.validStream
        for round in 0..<2_000 {
            var stream: [UInt8]
            switch round % 3 {
            case 0: // pure garbage
                stream = (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            case 1: // a valid opening, then garbage
                stream = Array(valid.prefix(64 + 43)) + (0..<Int.random(in: 1...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            default: // the valid stream with a few bytes flipped
                stream = valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    stream[Int.random(in: 0..<stream.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                }
            }
            let result = Self.run(stream, piece: Int.random(in: 1...128, using: &generator))
            // Whatever decoded stays within the limits.
            for message in result.messages {
                #expect(message.count <= Self.small.maximumParts)
                #expect(message.reduce(0) { $0 + $1.count } <= Self.small.maximumMessageBytes)
            }
        }
    }

    @Test func theInboundBufferGrowsOnlyToWhatAFrameNeeds() {
        var buffer = ZMTPInboundBuffer(capacity: 64)
        for _ in 0..<1000 {
            buffer.append([UInt8](repeating: 1, count: 50))
            buffer.consume(50)
        }
        #expect(buffer.count == 0)
        let read = buffer.fill(minimum: 16) { space in
            #expect(space.count >= 16)
            space[0] = 42
            return 1
        }
        #expect(read == 1)
        #expect(buffer.peek(1) == [42])
    }
}
