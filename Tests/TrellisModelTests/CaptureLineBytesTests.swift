import Dispatch
import Foundation
import Synchronization
import Testing
import TrellisJSON
import TrellisModel
import TrellisTrace
@testable import TrellisTraceFiles

/// The JSON Lines file writer formats lines straight into bytes (issue 27 item 8); the `String`
/// writer (`ReferenceCaptureLine`, `JSONWriter.quoted`, `CanonicalNumber.format`) is
/// the reference: for every message of the vocabulary, every name a string can hold and every
/// number a size can be, the two give the same bytes.
@Suite("JSON Lines file writer: the same bytes as the String writer")
struct CaptureLineBytesTests {
    /// Names that need escaping (every control character, quotes, backslashes), non-ASCII ones
    /// and plain ones.
    static let names: [String] = [
        "R", "pc:P", "quote \" and \\ backslash", "é 😀 ñ", "\u{7F}del", "line\u{2028}sep",
        String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }),
    ]

    /// Sizes' numbers: whole, fractional, rounded to thousandths, negative, -0, large enough
    /// for Swift's own description, and not finite.
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 320, 568, 170.4, 0.1 + 0.2, 2.9999, 0.0005, 0.0004, -0.0004, -0.0005, 123.4567, -568.25, 0.05, 0.001, 0.01,
        999_999.9995, 1e11 + 0.5, 999_999_999_999, 1e12, 1e12 + 0.25, 8.999e12, 9e12, 9.5e12, 9_007_199_254_740_992, 1e15, 1e17, 1e300,
        -1e17, Double.leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, .nan, 4_294_967_296.125,
    ]

    @Test("numbers: CanonicalNumber's text, byte for byte")
    func canonicalNumbers() {
        var values = Self.numbers
        // And a sweep of thousandths around zero and of halves near the rounding boundaries.
        values += (-2_100...2_100).map { Double($0) / 1_000 } + (-40...40).map { Double($0) * 0.0005 + 7 }
        let buffer = CaptureByteBuffer(capacity: 64)
        for value in values {
            buffer.removeAll()
            buffer.putCanonical(value)
            let written = buffer.withBytes { String(decoding: $0, as: UTF8.self) }
            #expect(written == CanonicalNumber.format(value), "\(value)")
        }
    }

    @Test("integers: String(value), byte for byte")
    func integers() {
        let buffer = CaptureByteBuffer(capacity: 8)
        var values: [Int64] = [0, 1, -1, 9, 10, 99, 100, -100, .max, .min, .max - 1, .min + 1]
        values += (0..<19).flatMap { power -> [Int64] in
            let ten = (0..<power).reduce(Int64(1)) { result, _ in result * 10 }
            return [ten - 1, ten, ten + 1, -ten]
        }
        for value in values {
            buffer.removeAll()
            buffer.putInteger(value)
            #expect(buffer.withBytes { String(decoding: $0, as: UTF8.self) } == String(value))
        }
        buffer.removeAll()
        buffer.putDecimal(.max)
        #expect(buffer.withBytes { String(decoding: $0, as: UTF8.self) } == String(UInt64.max))
    }

    @Test("counted numbers: String(value) across every carry, past 8 and 16 digits, after jumps either way")
    func countedNumbers() {
        var counter = DecimalTextCounter()
        let buffer = CaptureByteBuffer(capacity: 8)
        var expected = ""
        // Runs that count up by one across carries (9 → 10, 99999999 → 100000000 across the
        // counter's two words, 16 → 17 digits where `putDecimal` takes over), and jumps between them.
        var starts: [UInt64] = [0, 7, 95, 995, 99_999_990, 12_345_678_901_234, 9_999_999_999_999_990, UInt64.max - 20, 3, 1_000_000]
        starts += (1..<20).map { power in (0..<power).reduce(UInt64(1)) { result, _ in result &* 10 } &- 5 }
        for start in starts {
            for value in start...(start + 15) {
                buffer.reserve(20 + CaptureByteBuffer.wordPadding)
                counter.put(value, into: buffer)
                expected += String(value)
            }
        }
        // Single values: a number one less than the last, the same again, zero after the largest.
        for value: UInt64 in [5, 4, 4, 5, .max, 0, 1, 10, 9, 10] {
            buffer.reserve(20 + CaptureByteBuffer.wordPadding)
            counter.put(value, into: buffer)
            expected += String(value)
        }
        #expect(buffer.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
        for power in 0..<20 {
            let ten = (0..<power).reduce(UInt64(1)) { result, _ in result &* 10 }
            #expect(CaptureByteBuffer.decimalDigits(ten) == power + 1)
            if ten > 1 { #expect(CaptureByteBuffer.decimalDigits(ten - 1) == power) }
        }
        #expect(CaptureByteBuffer.decimalDigits(.max) == 20)
    }

    @Test("a hand-over trades the storage: the block holds every byte written, the buffer the tail")
    func tradeStorage() {
        let buffer = CaptureByteBuffer(capacity: 64)
        let written = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        buffer.reserve(written.count)
        buffer.put(written)
        var block = CaptureByteBlock(capacity: 100)
        buffer.trade(with: &block, keeping: 1_234)
        #expect(Array(block.bytes) == written)
        #expect(buffer.withBytes { Array($0) } == Array(written.suffix(1_234)))
        buffer.reserve(3)
        buffer.put("abc")
        #expect(buffer.withBytes { Array($0) } == Array(written.suffix(1_234)) + Array("abc".utf8))
        // Every buffer and block starts on a page (direct writes).
        #expect(Int(bitPattern: buffer.base) % CaptureByteBuffer.pageSize == 0)
        #expect(Int(bitPattern: block.bytes.baseAddress) % CaptureByteBuffer.pageSize == 0)
    }

    @Test("strings: JSONWriter.quoted's text, byte for byte, every ASCII character and non-ASCII text")
    func quotedStrings() {
        var texts = Self.names + (0..<0x80).map { String(Character(Unicode.Scalar(UInt8($0)))) }
        texts += ["", "a\"b", "\\", "tab\there \\ é 😀 \u{01}", String(repeating: "\u{1F}\"", count: 300)]
        let buffer = CaptureByteBuffer(capacity: 4)
        for text in texts {
            buffer.removeAll()
            buffer.putQuoted(text)
            #expect(buffer.withBytes { Array($0) } == Array(JSONWriter.quoted(text).utf8), "\(text.debugDescription)")
        }
    }

    @Test("payloads: every message of the vocabulary, with names that need escaping")
    func payloads() {
        let buffer = CaptureByteBuffer(capacity: 16)
        for message in Self.messages {
            buffer.removeAll()
            CaptureLinePayloadBytesWriter.append(message, to: buffer)
            var expected = ""
            ReferenceCaptureLinePayload.append(message, to: &expected)
            #expect(buffer.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
        }
    }

    /// Every message of `CompactCaptureTests.messages`, and each again with every name of
    /// `names` and numbers of `numbers` where it has them.
    static let messages: [TraceMessage] = {
        var messages = CompactCaptureTests.messages
        for (index, name) in names.enumerated() {
            let id = ControllerID(name)
            let size = Size(numbers[index % numbers.count], numbers[(index * 7 + 3) % numbers.count])
            messages += [
                .step(number: index, description: name), .sizeForChild(child: id, parent: size, answer: size),
                .frameOfPresentedView(Rect(x: numbers[index], y: -0.0, width: 1e17, height: 0.0005)),
                .preferredContentSizeDidChange(child: id), .suppressed(message: name, cut: [id, "B", id]), .warning(name), .error(name),
                .fault(name), .note(name), .present(id, style: .popover, transitionStyle: .flipHorizontal), .dismiss(id),
                .completion(action: name, id), .show(id, detail: index.isMultiple(of: 2)), .push(id), .pop(id), .replaceDetail(id),
                .select(id, index: -index), .action(name: name, value: name), .request(name),
                .layout(.containerViewDidLayoutSubviews, frame: Rect(x: 0.1 + 0.2, y: 2.9999, width: .nan, height: 9.5e12)),
            ]
        }
        return messages
    }()

    /// Hands each chunk on to a file writer and keeps its events, as `TraceEvent`s, for the
    /// reference writer.
    final class Tap: TraceChunkSink {
        let writer: TraceFileWriter
        let events = Mutex<[TraceEvent]>([])
        let runIDs = Mutex<[TraceRunSpan]>([])

        init(_ writer: TraceFileWriter) {
            self.writer = writer
        }

        func write(_ chunk: consuming TraceChunk) {
            let taken = chunk
            events.withLock { events in
                runIDs.withLock { spans in
                    if spans.last?.runID != taken.runID { spans.append(TraceRunSpan(position: events.count, runID: taken.runID)) }
                }
                taken.log.forEach { event, sequence, time in
                    events.append(taken.log.event(event, sequence: sequence, time: time, tables: taken.tables))
                }
            }
            writer.write(taken)
        }

        func waitUntilWritten() {
            writer.waitUntilWritten()
        }
    }

    /// A JSON Lines file of `events` as the `String` writer makes it: a header line where the
    /// run changes (naming the node of its first event), then `ReferenceCaptureLine.eventLine`s.
    static func stringWriterBytes(of events: [TraceEvent], runs: [TraceRunSpan]) -> [UInt8] {
        var out: [UInt8] = []
        var header: TraceCaptureFormat.Header?
        var span = 0
        var runID = "run"
        for (position, event) in events.enumerated() {
            while span < runs.count, runs[span].position <= position {
                runID = runs[span].runID
                span += 1
            }
            if header?.runID != runID {
                header = TraceCaptureFormat.Header(runID: runID, node: event.id.node)
                out += Array((TraceCaptureFormat.headerLine(runID: runID, node: event.id.node) + "\n").utf8)
            }
            out += Array((ReferenceCaptureLine.eventLine(for: event, headerNode: header?.node ?? "") + "\n").utf8)
        }
        return out
    }

    @Test("whole files (run --trace, convert): the String writer's bytes for every message of the pinned trace")
    func wholeFiles() {
        let (events, runs) = CompactCaptureTests.trace(extremes: true)
        #expect(CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines) == Self.stringWriterBytes(of: events, runs: runs))
        let messages = Self.messages.enumerated().map { index, message in
            TraceEvent(id: EventRef(node: Self.names[index % Self.names.count], sequence: UInt64(index)), lamport: UInt64(index) * 3,
                       cause: index % 2 == 0 ? nil : EventRef(node: Self.names[(index + 1) % Self.names.count], sequence: .max),
                       controller: ControllerID(Self.names[(index + 2) % Self.names.count]), transition: index % 3 == 0 ? nil : -index,
                       step: Int.min + index, message: message, time: .max - UInt64(index))
        }
        let spans = [TraceRunSpan(position: 0, runID: "a\u{1}\"b"), TraceRunSpan(position: 40, runID: "é")]
        #expect(CaptureFileEncoding.bytes(of: messages, runs: spans, format: .jsonLines) == Self.stringWriterBytes(of: messages, runs: spans))
        #expect(CaptureFileEncoding.bytes(of: [], runs: [], format: .jsonLines).isEmpty)
    }

    @Test("a FIFO gets every byte once and in order: no offsets, no direct writes")
    func fifo() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-line-fifo-\(UUID().uuidString).jsonl").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // The reader reads to the end (the writer's close); the writer's open waits for it.
        let read = Mutex<[UInt8]>([])
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let bytes = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
            read.withLock { $0 = [UInt8](bytes) }
            finished.signal()
        }
        let writer = try TraceFileWriter(path: path)
        let tap = Tap(writer)
        let recorder = TraceRecorder(node: "main", runID: "fifo", storage: .file(tap))
        Self.recordEverything(into: recorder, rounds: 12)
        recorder.flush()
        writer.close()
        // A hang guard only: the reader ends as soon as the writer closes.
        #expect(finished.wait(timeout: .now() + 50) == .success)
        #expect(writer.failure == nil)
        let events = tap.events.withLock { $0 }
        #expect(events.count > 16_384)
        #expect(read.withLock { $0 } == Self.stringWriterBytes(of: events, runs: tap.runIDs.withLock { $0 }))
    }

    /// Records every message, and the router's frequent events with every name and number,
    /// into `recorder`.
    static func recordEverything(into recorder: TraceRecorder, rounds: Int) {
        let interned = names.map { recorder.intern(ControllerID($0)) }
        for round in 0..<rounds {
            var cause = recorder.beginStep(round + 1, description: "round \(round)")
            for (index, message) in messages.enumerated() {
                cause = recorder.record(message, controller: ControllerID(names[index % names.count]), cause: index % 3 == 0 ? nil : cause,
                                        transition: index % 4 == 0 ? nil : index - 30)
            }
            for (index, name) in interned.enumerated() {
                for (position, width) in numbers.enumerated() {
                    let height = numbers[(position + index + 1) % numbers.count]
                    let other = interned[(index + position) % interned.count]
                    let remote = EventRef(node: names[position % names.count], sequence: UInt64(position) * 1_000_003)
                    cause = recorder.recordViewWillTransition(to: Size(width, height), controller: name, cause: position % 5 == 0 ? remote : cause,
                                                              transition: position % 3 == 0 ? nil : position - 2)
                    recorder.recordSizeForChild(other, parent: Size(height, width), answer: Size(width, width), controller: name, cause: cause, transition: position)
                    let frame = Rect(x: position % 2 == 0 ? 0 : height, y: position % 4 == 0 ? 0 : width, width: width, height: height)
                    let layout = recorder.recordLayoutPair(controller: other, frame: frame, cause: cause)
                    recorder.recordLayout(.viewDidLayoutSubviews, controller: name, frame: frame, cause: layout)
                    recorder.recordLayout(.viewWillLayoutSubviews, controller: name, cause: nil)
                }
            }
            recorder.observe(lamport: UInt64(round + 1) << 33)
        }
    }

    /// Lamport clocks that cross 16 digits (the counter's text gives way to `putDecimal`) and
    /// clocks of 19 digits throughout, from clocks received from other nodes.
    @Test("file lines: Lamport clocks past 16 digits and near the largest a peer can send", arguments: [9_999_999_999_998_000, UInt64.max / 2 - 100_000] as [UInt64])
    func largeClocks(observed: UInt64) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-line-clocks-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let tap = Tap(writer)
        let recorder = TraceRecorder(node: "main", runID: "clocks", storage: .file(tap))
        Self.recordEverything(into: recorder, rounds: 1)
        recorder.observe(lamport: observed)
        Self.recordEverything(into: recorder, rounds: 3)
        recorder.flush()
        writer.close()
        #expect(writer.failure == nil)
        let events = tap.events.withLock { $0 }
        #expect(events.contains { $0.lamport > 10_000_000_000_000_000 })
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == Self.stringWriterBytes(of: events, runs: tap.runIDs.withLock { $0 }))
    }

    /// The encoder keeps runs that repeat in fixed slots (the line's start, the cause, the
    /// fields after the controller per transition and step, the time's tail): a node whose name
    /// is too long for a slot (its lines' start and the causes naming it written piece by piece)
    /// beside short ones, causes that change from line to line and stay for several, steps and
    /// transitions that change inside a chunk, Lamport clocks equal to the sequence number and
    /// not, and an event outside the compact form between frequent ones.
    @Test("file lines: the cached runs of a line across long node names, changing causes, steps, transitions and clocks")
    func cachedRuns() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-line-slots-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let tap = Tap(writer)
        // 9 bytes a character pair once escaped: 540 bytes, past a slot's 232.
        let long = String(repeating: "n\u{1}\"", count: 60)
        for (node, runID) in [("main", "slots"), (long, "slots"), ("main", "slots 2")] {
            let recorder = TraceRecorder(node: node, runID: runID, storage: .file(tap))
            let parent = recorder.intern(ControllerID("A"))
            let child = recorder.intern(ControllerID("child \u{7}"))
            var cause = recorder.beginStep(1, description: "first")
            for index in 0..<1_500 {
                let remote = EventRef(node: index % 2 == 0 ? long : "b", sequence: UInt64(index / 3))
                let transition = index % 11 == 0 ? nil : index / 100
                cause = recorder.recordViewWillTransition(to: Size(320, Double(index % 3)), controller: parent, cause: index % 5 == 0 ? remote : cause, transition: transition)
                recorder.recordSizeForChild(child, parent: Size(1, 2), answer: Size(3, 4), controller: parent, cause: cause, transition: transition)
                let frame = Rect(x: index % 2 == 0 ? 0 : 5, y: 0, width: 1, height: 2)
                let layout = recorder.recordLayoutPair(controller: child, frame: frame, cause: index % 3 == 0 ? remote : nil)
                recorder.recordLayout(.viewWillLayoutSubviews, controller: parent, cause: layout)
                if index % 700 == 699 { recorder.observe(lamport: UInt64(index) * 7 + 100) }
                if index % 450 == 0 { cause = recorder.beginStep(index / 450 + 2, description: "step \(index)") }
                if index % 13 == 0 { _ = recorder.record(.note("between"), controller: ControllerID("A"), cause: cause, transition: transition) }
            }
            recorder.flush()
        }
        writer.close()
        #expect(writer.failure == nil)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let events = tap.events.withLock { $0 }
        #expect(events.count > 20_000)
        #expect(events.contains { $0.id.node == long && $0.cause?.node == long })
        Self.expectSameLines(written, Self.stringWriterBytes(of: events, runs: tap.runIDs.withLock { $0 }))
    }

    /// Expects `written` to be `expected`, naming the first line that differs (not the arrays:
    /// a test framework's description of megabytes of bytes takes minutes).
    static func expectSameLines(_ written: [UInt8], _ expected: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard written != expected else { return }
        let lines = (written.split(separator: 0x0A), expected.split(separator: 0x0A))
        let first = zip(lines.0, lines.1).enumerated().first { $0.element.0 != $0.element.1 }
        Issue.record("""
            \(written.count) bytes written, \(expected.count) expected; first difference at line \((first?.offset ?? min(lines.0.count, lines.1.count)) + 1):
            \(first.map { String(decoding: $0.element.0, as: UTF8.self) } ?? "")
            expected
            \(first.map { String(decoding: $0.element.1, as: UTF8.self) } ?? "")
            """, sourceLocation: sourceLocation)
    }

    /// Both ways to the disk: whole pages directly (where the file system takes them) with
    /// partial pages through the page cache at each flush, and everything through the page cache.
    @Test("file lines: every message and every frequent event, three recorders sharing a file, across many chunks", arguments: [true, false])
    func fileLines(directWrites: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-line-bytes-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path, format: nil, directWrites: directWrites)
        let tap = Tap(writer)
        // Two recorders of one run on two nodes (the second's lines name their node), then a
        // recorder of another run: a header line each time the run changes.
        let recorders = [
            TraceRecorder(node: "main", runID: "run \"1\"\n", storage: .file(tap)),
            TraceRecorder(node: "b\u{1}é", runID: "run \"1\"\n", storage: .file(tap)),
            TraceRecorder(node: "c", runID: "run 2 😀", storage: .file(tap)),
        ]
        for (index, recorder) in recorders.enumerated() {
            // Enough for several hand-overs (16 384 events each) from the first.
            Self.recordEverything(into: recorder, rounds: index == 0 ? 40 : 2)
            recorder.flush()
        }
        writer.close()
        #expect(writer.failure == nil)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let events = tap.events.withLock { $0 }
        #expect(events.count > 3 * 16_384)
        #expect(Set(TraceMessageSchema.prototypes.map(\.name)).isSubset(of: events.map(\.message.name)))
        let runs = tap.runIDs.withLock { $0 }
        let expected = Self.stringWriterBytes(of: events, runs: runs)
        // The files written whole (`run --trace`, `convert`) are made straight into bytes too.
        #expect(CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines) == expected)
        Self.expectSameLines(written, expected)
    }
}
