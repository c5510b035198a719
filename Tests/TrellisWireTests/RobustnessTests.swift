import Testing
import TrellisTestSupport
import TrellisModel
import TrellisWire

/// The decoder rejects what it must, accepts what it must, and never traps.
@Suite struct RobustnessTests {
    static let names = GoldenVectors.all.map(\.name)

    /// The error of decoding `frames`, or nil when they decode.
    func decodeError(_ frames: [[UInt8]]) -> WireError? {
        do {
            _ = try WireMessage.decode(frames)
            return nil
        } catch {
            return error
        }
    }

    @Test("every truncation of every golden message is rejected", arguments: names)
    func truncationsAreRejected(name: String) throws {
        let frames = try GoldenVectors.frames(named: name)
        for length in 0..<frames[0].count {
            let error = decodeError([Array(frames[0].prefix(length)), frames[1]])
            #expect(error?.part == .header, "header cut to \(length) bytes")
            #expect(error?.description == "header: \(length == 1 ? "1 byte" : "\(length) bytes"), expected at least 32")
        }
        // A body with optional trailing fields (SETUP's peers and behaviours) cut inside them is
        // a SETUP without (the rest of) them: a 1.0 receiver reads it so.
        let required = GoldenVectors.requiredBodyBytes[name] ?? frames[1].count
        for length in required..<frames[1].count {
            let message = try WireMessage.decode([frames[0], Array(frames[1].prefix(length))])
            #expect(message.header.command == .setup, "body cut to \(length) bytes, in its optional tail")
        }
        for length in 0..<required {
            let error = decodeError([frames[0], Array(frames[1].prefix(length))])
            #expect(error?.part == .body, "body cut to \(length) bytes")
            #expect(error?.code == .malformedBody)
            #expect(error?.correlationID == GoldenVectors.all.first { $0.name == name }?.message.header.correlationID)
        }
    }

    @Test("random byte flips, insertions and deletions never crash the decoder (seed 0x7472656c6c6973)")
    func randomDamageNeverCrashes() throws {
        var generator = SplitMix64(seed: 0x74_7265_6C6C_6973)
        var accepted = 0
        var rejected = 0
        for (name, _) in GoldenVectors.all {
            let original = try GoldenVectors.frames(named: name)
            for _ in 0..<400 {
                var frames = original
                let damages = Int.random(in: 1...4, using: &generator)
                for _ in 0..<damages {
                    // Mostly the body (where the variable-length items are), sometimes the header.
                    let index = Int.random(in: 0..<8, using: &generator) == 0 ? 0 : 1
                    var frame = frames[index]
                    switch Int.random(in: 0..<6, using: &generator) {
                    case 0 where !frame.isEmpty:
                        frame.remove(at: Int.random(in: 0..<frame.count, using: &generator))
                    case 1:
                        frame.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...frame.count, using: &generator))
                    case 2 where !frame.isEmpty:
                        frame[Int.random(in: 0..<frame.count, using: &generator)] = 0xFF
                    default:
                        if !frame.isEmpty {
                            let at = Int.random(in: 0..<frame.count, using: &generator)
                            frame[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
                        }
                    }
                    frames[index] = frame
                }
                if let error = decodeError(frames) {
                    rejected += 1
                    #expect(!error.description.isEmpty)
                } else {
                    accepted += 1
                }
            }
        }
        #expect(accepted + rejected == GoldenVectors.all.count * 400)
        #expect(rejected > 0)
    }

    @Test("random frames of random bytes behind a valid header never crash the decoder")
    func randomBodiesNeverCrash() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<4000 {
            let command = WireCommand.allCases.randomElement(using: &generator) ?? .call
            let header = WireHeader(command: command).encode()
            let length = Int.random(in: 0...64, using: &generator)
            let body = (0..<length).map { _ in
                // Small values make plausible tags, counts and lengths more likely.
                Bool.random(using: &generator) ? UInt8.random(in: 0...12, using: &generator) : UInt8.random(in: 0...255, using: &generator)
            }
            _ = decodeError([header, body])
        }
    }

    @Test("a newer minor version is accepted")
    func newerMinorVersionIsAccepted() throws {
        for (name, message) in GoldenVectors.all {
            var frames = try GoldenVectors.frames(named: name)
            frames[0][3] = 7
            let decoded = try WireMessage.decode(frames)
            #expect(decoded.body == message.body)
            #expect(decoded.header.minorVersion == 7)
        }
    }

    @Test("trailing bytes after the header and after the body are ignored; flags and reserved bytes too")
    func trailingBytesAreIgnored() throws {
        for (name, message) in GoldenVectors.all {
            var frames = try GoldenVectors.frames(named: name)
            frames[0] += [0xDE, 0xAD, 0xBE, 0xEF]
            frames[1] += [0x7F, 0x00, 0xFF]
            frames[0][6] = 0xAA
            frames[0][7] = 0x55
            frames[0][28] = 0x01
            frames[0][31] = 0xFF
            let decoded = try WireMessage.decode(frames)
            #expect(decoded == message, "\(name)")
        }
    }

    @Test("a different major version is rejected")
    func differentMajorVersionIsRejected() throws {
        for major: UInt8 in [0, 2, 255] {
            var frames = try GoldenVectors.frames(named: "hello")
            frames[0][2] = major
            let error = decodeError(frames)
            #expect(error?.code == .unsupportedVersion)
            #expect(error?.description == "header: major version \(major) at offset 2 is not supported (expected 1)")
        }
    }

    @Test("a bad signature is rejected")
    func badSignatureIsRejected() throws {
        var frames = try GoldenVectors.frames(named: "heartbeat")
        frames[0][0] = 0x5A
        frames[0][1] = 0x4D
        let error = decodeError(frames)
        #expect(error?.code == .malformedHeader)
        #expect(error?.description == #"header: bad signature 0x5a 0x4d at offset 0, expected 0x54 0x52 ("TR")"#)
    }

    @Test("a frame count other than 2 is rejected", arguments: [0, 1, 3, 4])
    func wrongFrameCountIsRejected(count: Int) throws {
        let frames = try GoldenVectors.frames(named: "heartbeat")
        let error = decodeError(Array(repeating: frames[0], count: count))
        #expect(error?.description == "expected 2 frames, got \(count)")
        #expect(error?.part == .message)
    }

    @Test("an unknown command is rejected, with the correlation id for the ERROR reply")
    func unknownCommandIsRejected() throws {
        var frames = try GoldenVectors.frames(named: "goodbye")
        frames[0][4] = 0x77
        let error = decodeError(frames)
        #expect(error?.description == "header: unknown command 0x77 at offset 4")
        #expect(error?.code == .unknownCommand)
        #expect(error?.correlationID == 10)
    }

    @Test("an unknown tag is rejected and named with its value, index and offset")
    func unknownTagIsRejected() throws {
        var frames = try GoldenVectors.frames(named: "call-view-will-transition")
        // Target: 2+1 + 2+2 + 4 = 11 bytes, code and count: 2, value 1 (size): 17 bytes; value 2 at 30.
        frames[1][30] = 0x7F
        let error = decodeError(frames)
        #expect(error?.description == "body: value 2: unknown tag 0x7f at offset 30")
        #expect(error?.code == .malformedBody)
        #expect(error?.correlationID == 7)
    }

    @Test("an unknown call code is rejected")
    func unknownCallCodeIsRejected() throws {
        var frames = try GoldenVectors.frames(named: "call-select")
        frames[1][10] = 0x3F  // target b / T / 1 takes 3 + 3 + 4 bytes
        let error = decodeError(frames)
        #expect(error?.description == "body: unknown call code 0x3f at offset 10")
        #expect(error?.code == .unknownCallCode)
    }

    @Test("a string running past the end names its length and the bytes left")
    func stringPastTheEnd() throws {
        let header = WireHeader(command: .hello).encode()
        let error = decodeError([header, [0x00, 0x01, 0x62, 0x01, 0x2C] + Array(repeating: 0x41, count: 12)])
        #expect(error?.description == "body: run id: string at offset 3 runs past the end (length 300, 12 bytes left)")
    }

    @Test("a fixed-size field running past the end names its width")
    func fieldPastTheEnd() throws {
        let header = WireHeader(command: .hello).encode()
        let error = decodeError([header, [0x00, 0x01, 0x62, 0x00, 0x00, 0x00, 0x00]])
        #expect(error?.description == "body: capabilities: u32 at offset 5 runs past the end (4 bytes needed, 2 left)")
    }

    @Test("invalid UTF-8 is rejected")
    func invalidUTF8IsRejected() throws {
        let header = WireHeader(command: .ready).encode()
        let error = decodeError([header, [0x00, 0x02, 0xC3, 0x28]])
        #expect(error?.description == "body: node: string at offset 0 is not valid UTF-8 (length 2)")
    }

    @Test("a trait index beyond the enum's cases is rejected")
    func unknownTraitIndexIsRejected() throws {
        var frames = try GoldenVectors.frames(named: "return-ok-snapshot")
        // status, count, size value (17 bytes), then the traits tag at 19: first trait at 20.
        frames[1][21] = 3
        let error = decodeError(frames)
        #expect(error?.description == "body: value 2: traits: unknown verticalSizeClass index 3 at offset 21 (3 cases: 0–2)")
    }

    @Test("bools and RETURN's status must be 0 or 1, TRACE-DATA's form octet 0 to 3")
    func zeroOrOneOctets() throws {
        var frames = try GoldenVectors.frames(named: "return-fault")
        frames[1][0] = 2
        #expect(decodeError(frames)?.description == "body: status at offset 0 is 0x02, expected 0x00 or 0x01")
        frames = try GoldenVectors.frames(named: "trace-data")
        frames[1][0] = 0x10
        #expect(decodeError(frames)?.description == "body: form at offset 0 is 0x10, expected 0x00 to 0x03")
        let header = WireHeader(command: .return).encode()
        #expect(decodeError([header, [0x00, 0x01, 0x01, 0x05]])?.description
            == "body: value 1: bool at offset 3 is 0x05, expected 0x00 or 0x01")
    }

    @Test("a compact TRACE-DATA capture is read as it is, and refused when its length runs past the end (§7.8)")
    func compactTraceDataCapture() throws {
        let header = WireHeader(command: .traceData).encode()
        let capture: [UInt8] = [0x89, 0x54, 0x52, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x00]
        let message = try WireMessage.decode([header, [0x03, 0x00, 0x00, 0x00, 0x0A] + capture])
        #expect(message.body == .compactTraceData(last: true, capture: capture))
        #expect(try WireMessage.decode([header, [0x02, 0x00, 0x00, 0x00, 0x00]]).body == .compactTraceData(last: false, capture: []))
        let error = decodeError([header, [0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]])
        #expect(error?.description == "body: capture: bytes at offset 1 runs past the end (length 4294967295, 1 byte left)")
        #expect(decodeError([header, [0x03, 0x00, 0x00]])?.description == "body: capture: bytes length at offset 1 runs past the end (4 bytes needed, 2 left)")
    }

    @Test("a list count larger than the bytes left is refused before anything is read")
    func hugeCountsAreRefused() throws {
        let header = WireHeader(command: .return).encode()
        let error = decodeError([header, [0x00, 0x01, 0x0B, 0xFF, 0xFF, 0x00, 0x00]])
        #expect(error?.description == "body: value 1: count 65535 at offset 3 exceeds the 2 bytes left (a value takes at least 1 byte)")
        let values = decodeError([header, [0x00, 0xFF, 0x00]])
        #expect(values?.description == "body: count 255 at offset 1 exceeds the 1 byte left (a value takes at least 1 byte)")
    }

    @Test("lists nest at most 16 deep")
    func nestingIsBounded() throws {
        let header = WireHeader(command: .return).encode()
        func nested(_ depth: Int) -> [UInt8] {
            var body: [UInt8] = [0x00, 0x01]
            for _ in 0..<(depth - 1) { body += [0x0B, 0x00, 0x01] }
            body += [0x0B, 0x00, 0x00]
            return body
        }
        let sixteen = try WireMessage.decode([header, nested(16)])
        var value: WireValue = .list([])
        for _ in 0..<15 { value = .list([value]) }
        #expect(sixteen.body == .return(.ok([value])))
        let error = decodeError([header, nested(17)])
        #expect(error?.description.hasSuffix("list at offset 50 is nested deeper than 16 lists") == true)
        // A hostile frame of nothing but list openings is refused at the same depth.
        var hostile: [UInt8] = [0x00, 0x01]
        for _ in 0..<20_000 { hostile += [0x0B, 0x00, 0x01] }
        #expect(decodeError([header, hostile])?.reason == .nestingTooDeep(limit: 16))
    }

    @Test("messages that exceed a limit are reported before encoding, and still encode without trapping")
    func encodingLimits() throws {
        let longName = String(repeating: "é", count: 40_000)  // 80 000 UTF-8 bytes
        let message = WireMessage(.ready(node: longName))
        #expect(throws: WireError.self) { try message.validateForEncoding() }
        let frames = message.encode()
        let decoded = try WireMessage.decode(frames)
        // Cut at a character boundary: 32 767 whole "é" (65 534 bytes).
        #expect(decoded.body == .ready(node: String(repeating: "é", count: 32_767)))

        let tooMany = WireMessage(.return(.ok(Array(repeating: .none, count: 300))))
        #expect(throws: WireError.self) { try tooMany.validateForEncoding() }
        guard case .return(.ok(let values)) = try WireMessage.decode(tooMany.encode()).body else {
            Issue.record("not a RETURN")
            return
        }
        #expect(values.count == 255)

        var deep: WireValue = .list([])
        for _ in 0..<16 { deep = .list([deep]) }
        #expect(throws: WireError.self) { try WireMessage(.return(.ok([deep]))).validateForEncoding() }
        try WireMessage(.return(.ok([.longString(longName)]))).validateForEncoding()
    }

    /// SPEC §7, size limit (issue 16): the protocol's largest message is 64 MiB; anything larger
    /// is refused before it is sent, naming the limit (a receiver's socket would drop it, and
    /// the caller would wait for ever).
    @Test("a message larger than the largest message is refused before encoding, one just under it is not")
    func largestMessage() throws {
        let limit = WireLimits.maxMessageBytes
        let tooLarge = WireMessage(.call(
            target: WireAddress(node: "b", controller: "A", incarnation: 1), code: .setPreferredContentSize,
            arguments: [.longString(String(repeating: "x", count: limit))]))
        do {
            try tooLarge.validateForEncoding()
            Issue.record("a message of more than \(limit) bytes was accepted")
        } catch {
            #expect(error.description.contains("exceeds the largest message, \(limit) bytes"), "\(error)")
        }
        let trace = WireMessage(.traceData(last: true, jsonLines: String(repeating: "x", count: limit / 2)))
        try trace.validateForEncoding()
        #expect(throws: WireError.self) {
            try WireMessage(.setup(runID: "r", node: "b", scenarioJSON: String(repeating: " ", count: limit),
                                   heartbeatIntervalMilliseconds: 250, peerGoneTimeoutMilliseconds: 2_000)).validateForEncoding()
        }
    }

    @Test("setting the body keeps the header's command in step")
    func headerCommandFollowsTheBody() {
        var message = WireMessage(header: WireHeader(command: .hello, correlationID: 5), body: .goodbye)
        #expect(message.header.command == .goodbye)
        message.body = .goodbyeAck
        #expect(message.header.command == .goodbyeAck)
        #expect(message.encode()[0][4] == 0x31)
    }

    @Test("trait octets follow the declaration order of the enums in TraitCollection.swift")
    func traitOctets() throws {
        let traits = TraitCollection(
            horizontalSizeClass: .regular, verticalSizeClass: .compact, userInterfaceIdiom: .vision, displayScale: 3,
            layoutDirection: .rightToLeft, userInterfaceStyle: .dark, preferredContentSizeCategory: .extraSmall)
        let body = WireMessage(.return(.ok([.traits(traits)]))).encode()[1]
        #expect(Array(body[2...]) == [0x06, 2, 1, 6, 2, 2, 1, 0x40, 0x08, 0, 0, 0, 0, 0, 0])
    }
}
