import Testing
import TrellisTestSupport
import TrellisModel
import TrellisWire

/// TWP/1 §7.9: a BATCH carries several messages of one stream; each is read as if it had come
/// alone, in order, and damage is confined to what it touches.
@Suite struct BatchTests {
    static let target = WireAddress(node: "b", controller: "C2", incarnation: 1)

    static func call(_ correlation: UInt64) -> WireMessage {
        WireMessage(.call(target: target, code: .layout, arguments: [.eventRef(WireEventRef(node: "a", sequence: correlation))]),
                    correlationID: correlation, lamport: correlation * 2, step: 3)
    }

    /// Every result `decodeEach` delivers, in order.
    static func unpack(_ frames: [[UInt8]]) -> [Result<WireMessage, WireError>] {
        var results: [Result<WireMessage, WireError>] = []
        WireBatch.decodeEach(frames) { results.append($0) }
        return results
    }

    @Test("every kind of message goes through a batch and comes out equal, in order")
    func roundTripOfEveryMessage() throws {
        let messages = GoldenVectors.all.map(\.message)
        let frames = WireBatch.encode(messages: messages)
        #expect(frames.count == 2)
        #expect(try WireHeader.decode(frames[0]) == WireHeader(command: .batch))
        let results = Self.unpack(frames)
        #expect(results.count == messages.count)
        for (result, message) in zip(results, messages) {
            #expect((try? result.get()) == message)
        }
        #expect(try WireBatch.decode(frames) == messages)
    }

    @Test("entries packed from frames and entries encoded in place give the same bytes")
    func framesAndMessagesPackAlike() {
        let messages = (1...20).map { Self.call(UInt64($0)) }
        var inPlace = WireBatch.startBody()
        for message in messages { WireBatch.append(message, to: &inPlace) }
        WireBatch.finish(&inPlace, count: messages.count)
        #expect(WireBatch.encode(messages.map { $0.encode() }[...]) == [WireBatch.header, inPlace])
    }

    @Test("a thousand messages in one batch come out in the order they went in")
    func orderIsPreserved() throws {
        let messages = (1...1000).map { Self.call(UInt64($0)) }
        let decoded = try WireBatch.decode(WireBatch.encode(messages: messages))
        #expect(decoded.map(\.header.correlationID) == Array(1...1000))
        #expect(decoded == messages)
    }

    @Test("a single message given to decodeEach is delivered alone")
    func singleMessagePassesThrough() throws {
        let message = Self.call(7)
        let results = Self.unpack(message.encode())
        #expect(results.count == 1)
        #expect((try? results.first?.get()) == message)
    }

    @Test("a damaged entry is rejected alone: the entries before and after it are delivered")
    func damagedEntryIsRejectedAlone() throws {
        var damaged = Self.call(2).encode()
        // The eventref's tag (after the 11-byte address, the call code and the count) becomes unknown.
        damaged[1][13] = 0x7F
        let frames = WireBatch.encode([Self.call(1).encode(), damaged, Self.call(3).encode()][...])
        let results = Self.unpack(frames)
        #expect(results.count == 3)
        #expect((try? results[0].get()) == Self.call(1))
        #expect((try? results[2].get()) == Self.call(3))
        guard case let .failure(error) = results[1] else {
            Issue.record("the damaged entry was accepted")
            return
        }
        #expect(error.code == .malformedBody)
        #expect(error.correlationID == 2)
        #expect(error.description == "body: batch entry 2: value 1: unknown tag 0x7f at offset 13")
        #expect(throws: WireError.self) { try WireBatch.decode(frames) }
    }

    @Test("strings are read in place from an entry: ASCII, multi-byte UTF-8, and invalid UTF-8 rejected alone")
    func stringsAreReadInPlace() throws {
        func call(_ text: String, _ correlation: UInt64) -> WireMessage {
            WireMessage(.call(target: Self.target, code: .layout, arguments: [.string(text), .longString(text)]),
                        correlationID: correlation)
        }
        let ascii = call(String(repeating: "a", count: 23), 1)
        let accented = call("été → ünïcödé 🌳", 2)
        var invalid = call("abcdefghijklmnop", 3).encode()
        // The first string value's bytes start after the address, the code, the count, the tag and
        // the length: a lone continuation byte there is not UTF-8.
        let textStart = 2 + 1 + 2 + 2 + 4 + 1 + 1 + 1 + 2
        invalid[1][textStart + 9] = 0x80
        let empty = call("", 4)
        let frames = WireBatch.encode([ascii.encode(), accented.encode(), invalid, empty.encode()][...])
        let results = Self.unpack(frames)
        #expect(results.count == 4)
        #expect((try? results[0].get()) == ascii)
        #expect((try? results[1].get()) == accented)
        #expect((try? results[3].get()) == empty)
        guard case let .failure(error) = results[2] else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(error.code == .malformedBody)
        #expect(error.correlationID == 3)
        #expect(error.description.hasPrefix("body: batch entry 3: value 1: "))
        #expect(error.description.contains("not valid UTF-8"))
    }

    @Test("a batch cut short delivers the whole entries before the cut, then one error, and nothing after")
    func brokenFramingStopsAfterTheGoodEntries() throws {
        let frames = WireBatch.encode((1...3).map { Self.call(UInt64($0)).encode() }[...])
        let entrySize = WireBatch.entrySize(Self.call(1).encode())
        var cut = frames
        cut[1].removeLast(entrySize / 2)  // into the third entry
        let results = Self.unpack(cut)
        #expect(results.count == 3)
        #expect((try? results[0].get()) == Self.call(1))
        #expect((try? results[1].get()) == Self.call(2))
        guard case let .failure(error) = results[2] else {
            Issue.record("a truncated entry was accepted")
            return
        }
        #expect(error.code == .malformedBody)
        #expect(error.correlationID == nil)
        #expect(error.description.hasPrefix("body: batch entry 3: "))
    }

    @Test("a count larger than the body could hold is rejected before any entry is read")
    func hostileCountIsRejected() {
        var frames = WireBatch.encode(messages: [Self.call(1), Self.call(2)])
        frames[1][0] = 0xFF
        let results = Self.unpack(frames)
        #expect(results.count == 1)
        guard case let .failure(error) = results.first else {
            Issue.record("a hostile count was accepted")
            return
        }
        #expect(error.code == .malformedBody)
        #expect(error.description.hasPrefix("body: batch: count 4278190082"))
    }

    @Test("a BATCH inside a BATCH is rejected as that entry")
    func batchesDoNotNest() {
        let inner = WireBatch.encode(messages: [Self.call(1)])
        let frames = WireBatch.encode([Self.call(1).encode(), inner, Self.call(2).encode()][...])
        let results = Self.unpack(frames)
        #expect(results.count == 3)
        guard case let .failure(error) = results[1] else {
            Issue.record("a nested BATCH was accepted")
            return
        }
        #expect(error.reason == .nestedBatch)
        #expect(error.code == .malformedBody)
        #expect((try? results[2].get()) == Self.call(2))
        // A BATCH given where one message is expected is refused the same way, without a crash.
        #expect(throws: WireError.self) { try WireMessage.decode(inner) }
    }

    @Test("an empty batch delivers nothing; trailing bytes after the last entry are ignored")
    func emptyBatchAndTrailingBytes() throws {
        #expect(Self.unpack(WireBatch.encode(messages: [])).isEmpty)
        var frames = WireBatch.encode(messages: [Self.call(1)])
        frames[1] += [0xDE, 0xAD]
        frames[0] += [0xBE, 0xEF]
        #expect(try WireBatch.decode(frames) == [Self.call(1)])
    }

    @Test("every truncation and many damages of a batch are delivered or rejected, never a crash")
    func damagedBatchesNeverCrash() {
        let messages = GoldenVectors.all.map(\.message)
        let frames = WireBatch.encode(messages: messages)
        for length in 0..<frames[1].count {
            let results = Self.unpack([frames[0], Array(frames[1].prefix(length))])
            #expect(results.count <= messages.count + 1)
            if length < frames[1].count { #expect(results.contains { if case .failure = $0 { true } else { false } }) }
        }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            var damaged = frames
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<damaged[1].count, using: &generator)
                damaged[1][index] = UInt8.random(in: 0...255, using: &generator)
            }
            let results = Self.unpack(damaged)
            #expect(results.count <= messages.count + 1)
        }
    }

    @Test("an entry is read within its own frame lengths: one a byte short fails alone and does not borrow from the next")
    func entryIsReadWithinItsLengths() throws {
        var shortBody = Self.call(2).encode()
        shortBody[1].removeLast()
        var shortHeader = Self.call(2).encode()
        shortHeader[0].removeLast()
        for (damaged, code) in [(shortBody, WireErrorCode.malformedBody), (shortHeader, .malformedHeader)] {
            let results = Self.unpack(WireBatch.encode([Self.call(1).encode(), damaged, Self.call(3).encode()][...]))
            #expect(results.count == 3)
            #expect((try? results[0].get()) == Self.call(1))
            #expect((try? results[2].get()) == Self.call(3))
            guard case let .failure(error) = results[1] else {
                Issue.record("an entry a byte short was accepted")
                continue
            }
            #expect(error.code == code)
        }
    }
}
