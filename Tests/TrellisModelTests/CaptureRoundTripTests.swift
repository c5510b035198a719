import Foundation
import Testing
import TrellisTestSupport
import TrellisJSON
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// TCF/1 §7's round-trip guarantee, each direction over random events (a seeded generator, so a
/// failure repeats), and §4 rule 3: both readers refuse the same events (issue 27).
@Suite("Capture round trips and the readers' shared checks")
struct CaptureRoundTripTests {
    /// A number JSON Lines prints exactly (`printable`), or any finite double of a screen's range
    /// and beyond, -0 included.
    static func number(_ random: inout SplitMix64, printable: Bool) -> Double {
        if printable {
            switch random.next() % 3 {
            case 0: return Double(Int64.random(in: -100_000...100_000, using: &random)) / 1000
            case 1: return Double(Int64.random(in: -10_000...10_000, using: &random))
            default: return Double(Int64.random(in: -(1 << 52)...(1 << 52), using: &random)) * 4096  // ≥ 9e12 often: shortest form
            }
        }
        switch random.next() % 4 {
        case 0: return Double.random(in: -2_000...2_000, using: &random)
        case 1: return -0.0
        case 2: return Double(sign: .plus, exponent: Int.random(in: -60...60, using: &random), significand: Double.random(in: 1..<2, using: &random))
        default: return Double(Int.random(in: 0...1024, using: &random)) * 0.1
        }
    }

    static func size(_ random: inout SplitMix64, printable: Bool) -> Size {
        Size(number(&random, printable: printable), number(&random, printable: printable))
    }

    static func message(_ random: inout SplitMix64, printable: Bool) -> TraceMessage {
        var traits = TraitCollection.unspecified
        traits.displayScale = number(&random, printable: printable)
        switch random.next() % 7 {
        case 0: return .viewWillTransition(to: size(&random, printable: printable))
        case 1: return .sizeForChild(child: ControllerID("C\(random.next() % 5)"), parent: size(&random, printable: printable), answer: size(&random, printable: printable))
        case 2: return .frameOfPresentedView(Rect(origin: Point(x: number(&random, printable: printable), y: number(&random, printable: printable)), size: size(&random, printable: printable)))
        case 3: return .layout(.viewWillLayoutSubviews, frame: Rect(origin: Point(x: number(&random, printable: printable), y: 0), size: size(&random, printable: printable)))
        case 4: return .willTransition(to: traits)
        case 5: return .select("T", index: Int.random(in: 0...(1 << 53), using: &random))
        default: return .note("n\(random.next() % 1000) \u{1}\u{1F}\t\"")
        }
    }

    /// Random events of two nodes and two runs; integers at most 2^53 (JSON numbers are doubles).
    static func trace(seed: UInt64, printable: Bool, count: Int = 400) -> (events: [TraceEvent], runs: [TraceRunSpan]) {
        var random = SplitMix64(seed: seed)
        var events: [TraceEvent] = []
        var sequence: UInt64 = 0
        for index in 0..<count {
            sequence += random.next() % 4 == 0 ? UInt64.random(in: 1...(1 << 40), using: &random) : 1
            let node = random.next() % 5 == 0 ? "b" : "main"
            events.append(TraceEvent(
                id: EventRef(node: node, sequence: min(sequence, 1 << 53)), lamport: min(sequence + random.next() % 100, 1 << 53),
                cause: random.next() % 3 == 0 ? nil : EventRef(node: "n#\(random.next() % 3)", sequence: random.next()),
                controller: ControllerID("R\(random.next() % 9)"),
                transition: random.next() % 2 == 0 ? nil : Int.random(in: 0...(1 << 53), using: &random),
                step: index / 50, message: message(&random, printable: printable), time: random.next() >> 12))
        }
        return (events, [TraceRunSpan(position: 0, runID: "r1"), TraceRunSpan(position: count / 2, runID: "r\u{2}2")])
    }

    static func readJSONLines(_ bytes: [UInt8]) -> TraceFile {
        TraceFileReader.read(text: String(decoding: bytes, as: UTF8.self), file: "t.jsonl")
    }

    static func readCompact(_ bytes: [UInt8]) -> TraceFile {
        bytes.withUnsafeBytes { TraceFileReader.read(compact: $0, file: "t.trellis") }
    }

    /// Each number of `message` as JSON Lines gives it back: the double nearest its text.
    static func printed(_ message: TraceMessage) -> TraceMessage {
        func n(_ value: Double) -> Double { Double(CanonicalNumber.format(value)) ?? .nan }
        func s(_ size: Size) -> Size { Size(n(size.width), n(size.height)) }
        func r(_ rect: Rect) -> Rect { Rect(origin: Point(x: n(rect.minX), y: n(rect.minY)), size: s(rect.size)) }
        switch message {
        case let .viewWillTransition(to): return .viewWillTransition(to: s(to))
        case let .sizeForChild(child, parent, answer): return .sizeForChild(child: child, parent: s(parent), answer: s(answer))
        case let .frameOfPresentedView(rect): return .frameOfPresentedView(r(rect))
        case let .layout(callback, frame): return .layout(callback, frame: frame.map(r))
        case var .willTransition(traits):
            traits.displayScale = n(traits.displayScale)
            return .willTransition(to: traits)
        default: return message
        }
    }

    @Test("JSON Lines → compact → JSON Lines gives the same bytes, over random events with any numbers", arguments: [1, 2, 3] as [UInt64])
    func jsonLinesFirst(seed: UInt64) {
        let (events, runs) = Self.trace(seed: seed, printable: false)
        let jsonLines = CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines)
        let parsed = Self.readJSONLines(jsonLines)
        #expect(parsed.problems.isEmpty, "\(parsed.problems.prefix(3))")
        let compact = CaptureFileEncoding.bytes(of: parsed, format: .compact)
        let decoded = Self.readCompact(compact)
        #expect(decoded.problems.isEmpty && decoded.notices.isEmpty, "\(decoded.problems)")
        // Compared as bytes: -0 and +0 are equal doubles, not equal captures.
        #expect(CaptureFileEncoding.bytes(of: decoded, format: .compact) == compact)
        let back = CaptureFileEncoding.bytes(of: decoded, format: .jsonLines)
        #expect(back == jsonLines)
    }

    @Test("compact → JSON Lines → compact gives the same bytes when every number prints exactly", arguments: [4, 5, 6] as [UInt64])
    func compactFirstExact(seed: UInt64) {
        let (events, runs) = Self.trace(seed: seed, printable: true)
        let compact = CaptureFileEncoding.bytes(of: events, runs: runs, format: .compact)
        let decoded = Self.readCompact(compact)
        #expect(decoded.problems.isEmpty && decoded.events == events)
        let jsonLines = Self.readJSONLines(CaptureFileEncoding.bytes(of: decoded, format: .jsonLines))
        #expect(jsonLines.problems.isEmpty, "\(jsonLines.problems.prefix(3))")
        #expect(CaptureFileEncoding.bytes(of: jsonLines, format: .compact) == compact)
    }

    @Test("compact → JSON Lines → compact moves any other number to the double nearest its text, by at most 0.0005, and nothing else",
          arguments: [7, 8, 9] as [UInt64])
    func compactFirstRounded(seed: UInt64) {
        let (events, runs) = Self.trace(seed: seed, printable: false)
        let compact = CaptureFileEncoding.bytes(of: events, runs: runs, format: .compact)
        let jsonLines = Self.readJSONLines(CaptureFileEncoding.bytes(of: Self.readCompact(compact), format: .jsonLines))
        #expect(jsonLines.problems.isEmpty, "\(jsonLines.problems.prefix(3))")
        let expected = events.map { event in
            var event = event
            event.message = Self.printed(event.message)
            return event
        }
        let back = Self.readCompact(CaptureFileEncoding.bytes(of: jsonLines, format: .compact))
        #expect(back.events == expected)
        #expect(back.runSpans == runs)
        for (before, after) in zip(events, back.events) {
            if case let .viewWillTransition(old) = before.message, case let .viewWillTransition(new) = after.message {
                #expect(abs(old.width - new.width) <= 0.0005 || abs(old.width) >= 9e12, "\(old.width) became \(new.width)")
            }
        }
    }

    // MARK: One check for both readers

    static let base = TraceEvent(
        id: EventRef(node: "main", sequence: 1), lamport: 1, cause: nil, controller: "R", transition: nil, step: 0,
        message: .appearance(.viewWillAppear), time: 0)

    static func event(_ change: (inout TraceEvent) -> Void) -> TraceEvent {
        var event = base
        change(&event)
        return event
    }

    /// Events no reader may accept, and the field the compact reader names.
    static let refused: [(event: TraceEvent, field: String)] = [
        (event { $0.step = -1 }, "field \"step\""),
        (event { $0.transition = -3 }, "field \"transition\""),
        (event { $0.id.sequence = UInt64.max }, "field \"seq\""),
        (event { $0.lamport = 18_000_000_000_000_000_000 }, "field \"lamport\""),
        (event { $0.message = .step(number: -2, description: "") }, "field \"payload.number\""),
        (event { $0.message = .select("T", index: -1) }, "field \"payload.index\""),
        (event { $0.message = .alongsideTransition(transition: Int.min) }, "field \"payload.transition\""),
        (event { $0.message = .completion(action: "pre\u{1}sent", "P") }, "field \"payload.action\""),
        (event { $0.message = .completion(action: "push", "P") }, "field \"payload.action\""),
        (event { $0.message = .viewWillTransition(to: Size(.nan, 1)) }, "field \"payload.to\""),
        (event { $0.message = .layout(.viewWillLayoutSubviews, frame: Rect(x: 0, y: .infinity, width: 1, height: 1)) }, "field \"payload.frame\""),
        (event { $0.message = .willTransition(to: TraitCollection(displayScale: -.infinity)) }, "field \"payload.to.displayScale\""),
    ]

    @Test("both readers refuse what JSON Lines cannot hold: negative steps and numbers, other completions, numbers that are not finite")
    func sameRefusals() {
        for (event, field) in Self.refused {
            let compact = CaptureFileEncoding.bytes(of: [Self.base, event], runs: [], format: .compact)
            let fromCompact = Self.readCompact(compact)
            #expect(fromCompact.events == [Self.base], "\(event.message)")
            #expect(fromCompact.problems.count == 1 && fromCompact.problems.first?.message.contains(field) == true, "\(fromCompact.problems)")
            #expect(fromCompact.problems.first?.byteOffset.map { $0 > 10 && $0 < compact.count } == true)
            let fromLines = Self.readJSONLines(CaptureFileEncoding.bytes(of: [Self.base, event], runs: [], format: .jsonLines))
            #expect(fromLines.events == [Self.base] && fromLines.problems.count == 1, "\(event.message): \(fromLines.problems)")
        }
        // A name that is not UTF-8 is refused too (a JSON Lines file is UTF-8 throughout).
        var bytes = CaptureFileEncoding.bytes(of: [Self.base], runs: [], format: .compact)
        let name = bytes[10...].firstIndex(of: UInt8(ascii: "R"))
        if let name { bytes[name] = 0xFF }
        #expect(Self.readCompact(bytes).problems.first?.message.contains("is not UTF-8") == true)
    }

    @Test("the JSON Lines writer escapes every control character wherever a string goes: each line is JSON and reads back")
    func controlCharacters() throws {
        let controls = String((0..<0x20).map { Character(UnicodeScalar(UInt8($0))) }) + "\u{7F}"
        let text = "a" + controls + "z"
        let event = TraceEvent(
            id: EventRef(node: "n" + text, sequence: 1), lamport: 1, cause: EventRef(node: text, sequence: 2), controller: ControllerID(text),
            transition: nil, step: 0, message: .suppressed(message: text, cut: [ControllerID(text)]), time: 0)
        let others: [TraceMessage] = [.note(text), .step(number: 1, description: text), .action(name: text, value: text), .request(text)]
        let events = [event] + others.enumerated().map { offset, message in
            var other = event
            other.id.sequence = UInt64(offset + 2)
            other.message = message
            return other
        }
        let bytes = CaptureFileEncoding.bytes(of: events, runs: [TraceRunSpan(position: 0, runID: text)], format: .jsonLines)
        for line in bytes.split(separator: 0x0A) {
            #expect(!line.contains { $0 < 0x20 }, "a raw control character in \(String(decoding: line, as: UTF8.self))")
            #expect(throws: Never.self) { try JSONParser.parse(bytes: Array(line)) }
        }
        let read = Self.readJSONLines(bytes)
        #expect(read.problems.isEmpty && read.events == events && read.runIDs == [text])
        // And the same events through the compact form.
        let compact = Self.readCompact(CaptureFileEncoding.bytes(of: read, format: .compact))
        #expect(compact.problems.isEmpty && compact.events == events)
    }
}
