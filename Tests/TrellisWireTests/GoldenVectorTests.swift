import Foundation
import Testing
import TrellisModel
import TrellisTestSupport
import TrellisWire

/// Every golden vector file is byte for byte what the codec writes for its message, and reads back as it.
@Suite struct GoldenVectorTests {
    @Test("encoding the described message gives the file's bytes", arguments: GoldenVectors.all.map(\.name))
    func encodesToTheFile(name: String) throws {
        let message = try #require(GoldenVectors.all.first { $0.name == name }?.message)
        let frames = try GoldenVectors.frames(named: name)
        let encoded = message.encode()
        #expect(encoded.count == 2)
        #expect(Hex.encode(encoded[0]) == Hex.encode(frames[0]), "header of \(name)")
        #expect(Hex.encode(encoded[1]) == Hex.encode(frames[1]), "body of \(name)")
    }

    @Test("decoding the file gives the described message", arguments: GoldenVectors.all.map(\.name))
    func decodesToTheMessage(name: String) throws {
        let message = try #require(GoldenVectors.all.first { $0.name == name }?.message)
        let decoded = try WireMessage.decode(try GoldenVectors.frames(named: name))
        #expect(decoded == message)
        try decoded.validateForEncoding()
    }

    @Test("every file in the vector folder is described, and the required ones are there")
    func vectorFolderMatchesTheDescriptions() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: vectorDirectory.path)
            .filter { $0.hasSuffix(".hex") }.map { String($0.dropLast(4)) }
        #expect(Set(files) == Set(GoldenVectors.allNames))
        let required = ["hello", "setup", "ready", "call-view-will-transition", "return-ok-empty", "return-ok-snapshot",
                        "return-fault", "heartbeat", "goodbye", "goodbye-ack", "error", "trace-data"]
        #expect(Set(required).isSubset(of: Set(files)))
    }

    @Test("the vectors use every command and every value tag")
    func vectorsCoverTheFormat() {
        let commands = Set(GoldenVectors.allMessages.map(\.header.command)).union(GoldenVectors.batches.isEmpty ? [] : [.batch])
        #expect(commands == Set(WireCommand.allCases))
        var tags = Set<WireValueTag>()
        func collect(_ value: WireValue) {
            tags.insert(value.tag)
            if case .list(let items) = value { items.forEach(collect) }
        }
        for message in GoldenVectors.allMessages {
            switch message.body {
            case .call(_, _, let arguments): arguments.forEach(collect)
            case .return(.ok(let values)): values.forEach(collect)
            default: break
            }
        }
        #expect(tags == Set(WireValueTag.allCases))
    }

    @Test("the protocol document lists every vector file with exactly the file's lines")
    func documentQuotesTheFiles() throws {
        let document = try String(
            contentsOf: packageRoot.appendingPathComponent("Protocols/wire-protocol.md"), encoding: .utf8)
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var quoted: [String: [String]] = [:]
        for (index, line) in lines.enumerated() where line.hasPrefix("# ") && line.hasSuffix(".hex") && index + 2 < lines.count {
            quoted[String(line.dropFirst(2).dropLast(4))] = [lines[index + 1], lines[index + 2]]
        }
        for name in GoldenVectors.allNames {
            let frames = try GoldenVectors.frames(named: name)
            #expect(quoted[name] == frames.map(Hex.encode), "\(name).hex in Protocols/wire-protocol.md §12.2")
        }
        #expect(quoted.count == GoldenVectors.allNames.count)
    }

    @Test("a batch vector is its messages packed in order, and unpacks to them", arguments: GoldenVectors.batches.map(\.name))
    func batchVector(name: String) throws {
        let entries = try #require(GoldenVectors.batches.first { $0.name == name }?.entries)
        let messages = GoldenVectors.batchMessages(entries)
        #expect(messages.count == entries.count)
        let frames = try GoldenVectors.frames(named: name)
        let encoded = WireBatch.encode(messages: messages)
        #expect(encoded.map(Hex.encode) == frames.map(Hex.encode))
        #expect(try WireBatch.decode(frames) == messages)
        // Packed entry by entry, as a node's outbox does, the bytes are the same.
        var body = WireBatch.startBody()
        for message in messages { WireBatch.append(message, to: &body) }
        WireBatch.finish(&body, count: messages.count)
        #expect(Hex.encode(body) == Hex.encode(frames[1]))
        #expect(try WireHeader.decode(frames[0]).command == .batch)
    }

    @Test("the BATCH vector, field by field")
    func batchLayout() throws {
        let frames = try GoldenVectors.frames(named: "batch")
        #expect(Hex.encode(frames[0]) == "5452" + "01" + "00" + "60" + "00" + "0000" + String(repeating: "0", count: 48))
        let returnOK = try GoldenVectors.frames(named: "return-ok-empty")
        let select = try GoldenVectors.frames(named: "call-select")
        let heartbeat = try GoldenVectors.frames(named: "heartbeat")
        func length(_ count: Int) -> String {
            let digits = String(count, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
        func entry(_ frames: [[UInt8]]) -> String {
            length(frames[0].count) + Hex.encode(frames[0]) + length(frames[1].count) + Hex.encode(frames[1])
        }
        #expect(Hex.encode(frames[1]) == "00000003" + entry(returnOK) + entry(select) + entry(heartbeat))
        #expect(Hex.encode(frames[1]).hasPrefix("00000003" + "00000020" + "5452010011"))
    }

    @Test("the CALL viewWillTransition vector, field by field")
    func viewWillTransitionLayout() throws {
        let frames = try GoldenVectors.frames(named: "call-view-will-transition")
        #expect(Hex.encode(frames[0]) == "5452" + "01" + "00" + "10" + "00" + "0000" + "0000000000000007"
            + "0000000000000010" + "00000001" + "00000000")
        let body = Hex.encode(frames[1])
        let expected = "0001" + "62" + "0002" + "4332" + "00000001"  // target b / C2 / 1
            + "01" + "03"  // viewWillTransition, 3 values
            + "05" + "4081c00000000000" + "4074000000000000"  // size 568x320
            + "09" + "0000000000000003" + "01" + "3fd3333333333333"  // transition 3, animated, 0.3 s
            + "010101010104" + "4000000000000000"  // phone traits, scale 2
            + "4081c00000000000" + "4074000000000000"  // window 568x320
            + "08" + "0001" + "61" + "000000000000000c"  // cause a#12
        #expect(body == expected)
    }

    // MARK: TWP/1.1: the rect value (§6.2, §6.4) and the calls that carry it (§8)

    @Test("encoding a hand-written vector's message gives the bytes written out for it",
          arguments: GoldenVectors.handWritten.map(\.name))
    func encodesToTheHandWrittenBytes(name: String) throws {
        let vector = try #require(GoldenVectors.handWritten.first { $0.name == name })
        let encoded = vector.message.encode()
        #expect(encoded.count == 2)
        #expect(encoded.map(Hex.encode) == vector.frames, "\(name)")
    }

    @Test("decoding a hand-written vector's bytes gives its message", arguments: GoldenVectors.handWritten.map(\.name))
    func decodesTheHandWrittenBytes(name: String) throws {
        let vector = try #require(GoldenVectors.handWritten.first { $0.name == name })
        let frames = try vector.frames.map { try #require(Hex.decode($0), "\(name): not lowercase hex") }
        let decoded = try WireMessage.decode(frames)
        #expect(decoded == vector.message)
        try decoded.validateForEncoding()
    }

    @Test("every truncation of a hand-written vector's body is rejected", arguments: GoldenVectors.handWritten.map(\.name))
    func handWrittenTruncationsAreRejected(name: String) throws {
        let vector = try #require(GoldenVectors.handWritten.first { $0.name == name })
        let header = try #require(Hex.decode(vector.frames[0]))
        let body = try #require(Hex.decode(vector.frames[1]))
        for length in 0..<body.count {
            #expect(throws: WireError.self, "body cut to \(length) bytes") {
                try WireMessage.decode([header, Array(body.prefix(length))])
            }
        }
    }

    @Test("a rect is tag 0x0c and four big-endian binary64 numbers: x, y, width, height")
    func rectLayout() throws {
        let vector = try #require(GoldenVectors.handWritten.first { $0.name == "call-layout" })
        // The numbers' IEEE 754 bit patterns, as the hand-written hex spells them.
        let fields = [321.0, 0, 703, 768].map { number -> String in
            let digits = String(number.bitPattern, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        #expect(fields == ["4074100000000000", "0000000000000000", "4085f80000000000", "4088000000000000"])
        // After the target (11 bytes: b, C2, 1), the call code and the count: the rect at offset 13, 33 bytes.
        let body = vector.frames[1]
        let rect = body.dropFirst(2 * 13).prefix(2 * 33)
        #expect(String(rect) == "0c" + fields.joined())
        #expect(body.hasSuffix("08" + "0001" + "61" + "000000000000002a"))
        // Negative zero, NaN and infinities are carried bit for bit (§6.1).
        let odd = Rect(x: -0.0, y: .infinity, width: -.infinity, height: 0.5)
        let message = WireMessage(.return(.ok([.rect(odd)])))
        let encoded = message.encode()
        #expect(Hex.encode(encoded[1]) == "00" + "01" + "0c" + "8000000000000000" + "7ff0000000000000" + "fff0000000000000"
            + "3fe0000000000000")
        let decoded = try WireMessage.decode(encoded)
        guard case let .return(.ok(values)) = decoded.body, case let .rect(back)? = values.first else {
            Issue.record("expected a RETURN with a rect, got \(decoded.body)")
            return
        }
        #expect(back.origin.x.bitPattern == (-0.0).bitPattern)
        #expect(back == odd)
    }

    @Test("the protocol document quotes every hand-written vector's frames")
    func documentQuotesTheHandWrittenVectors() throws {
        let document = try String(
            contentsOf: packageRoot.appendingPathComponent("Protocols/wire-protocol.md"), encoding: .utf8)
        let lines = Set(document.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        for (name, _, frames) in GoldenVectors.handWritten {
            for frame in frames {
                #expect(lines.contains(frame), "\(name): the line \(frame) is not in Protocols/wire-protocol.md §12.3")
            }
        }
        // §6.4's example: the rect of `call-layout`, 33 bytes from body offset 13.
        let layoutBody = try #require(GoldenVectors.handWritten.first { $0.name == "call-layout" }?.frames[1])
        let rect = String(layoutBody.dropFirst(2 * 13).prefix(2 * 33))
        #expect(rect.hasPrefix("0c") && rect.count == 66)
        #expect(document.contains("`" + rect + "`"), "§6.4's rect example is not \(rect)")
    }
}
