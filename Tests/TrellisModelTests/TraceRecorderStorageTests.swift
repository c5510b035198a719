import Foundation
import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// The recorder keeps events compactly and writes capture files on a thread of its own: what
/// comes out must be exactly what the plain `TraceEvent` and `TraceCaptureFormat.line` give.
@Suite("Trace recorder storage: memory, file and discard agree")
struct TraceRecorderStorageTests {
    /// Records the same mix of events — the router's compact kinds and every other message —
    /// into `recorder`, with causes on this node and another, and returns how many.
    @discardableResult
    /// `readable: false` records what no capture reader accepts (TCF/1 §4 rule 3): a size that
    /// is not finite, a negative transition; the recorder keeps them all the same.
    static func recordMix(into recorder: TraceRecorder, rounds: Int = 1, readable: Bool = false) -> Int {
        let parent = recorder.intern("parent \"quoted\"")
        let child = recorder.intern("c\u{1}ontrol")
        let plain = recorder.intern("R")
        var count = 0
        for round in 0..<rounds {
            let header = recorder.beginStep(round + 1, description: "resizeWindow 568x320")
            let vwt = recorder.recordViewWillTransition(to: Size(568.25, -320), controller: parent, cause: header, transition: round + 7)
            recorder.recordSizeForChild(child, parent: Size(568.25, 0.1 + 0.2), answer: Size(1e17, -0.0), controller: parent, cause: vwt, transition: round + 7)
            recorder.recordViewWillTransition(to: readable ? Size(1, 2) : Size(.infinity, .nan), controller: child, cause: EventRef(node: "other node", sequence: 12_345_678_901), transition: nil)
            let layout = recorder.recordLayoutPair(controller: plain, frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
            recorder.recordLayout(.viewWillLayoutSubviews, controller: child, frame: Rect(x: -1, y: 0, width: 1e17, height: 0.25), cause: layout)
            recorder.recordLayout(.viewDidLayoutSubviews, controller: child, frame: Rect(Size(320, 568)), cause: layout)
            recorder.recordLayout(.containerViewWillLayoutSubviews, controller: child, cause: layout)
            recorder.record(.note("tab\there \\ é 😀 \u{01}"), controller: "pc:P", cause: vwt, transition: round)
            recorder.record(.suppressed(message: "viewWillTransition", cut: ["A1", "pc:P"]), controller: "R", cause: vwt)
            recorder.observe(lamport: UInt64(1_000 * (round + 1)))
            recorder.record(.fault("peer \"b\" gone"), controller: "window", cause: EventRef(node: "b", sequence: 3), transition: readable ? 2 : -2)
            count += 12
        }
        return count
    }

    @Test("events kept in memory read back with their order, ids, causes, clocks and steps")
    func memory() {
        let recorder = TraceRecorder(node: "main", runID: "r1")
        let count = Self.recordMix(into: recorder, rounds: 2)
        let events = recorder.events
        #expect(events.count == count)
        #expect(events.map(\.id.sequence) == Array(1...UInt64(count)))
        #expect(events.allSatisfy { $0.id.node == "main" })
        #expect(events[1].message == .viewWillTransition(to: Size(568.25, -320)))
        #expect(events[1].cause == events[0].id)
        #expect(events[1].transition == 7)
        #expect(events[1].step == 1)
        #expect(events[2].message == .sizeForChild(child: "c\u{1}ontrol", parent: Size(568.25, 0.1 + 0.2), answer: Size(1e17, -0.0)))
        #expect(events[2].controller == "parent \"quoted\"")
        #expect(events[3].cause == EventRef(node: "other node", sequence: 12_345_678_901))
        #expect(events[3].transition == nil)
        #expect(events[4].message == .layout(.viewWillLayoutSubviews, frame: Rect(x: 10, y: 20.5, width: 300, height: 400))
            && events[5].message == .layout(.viewDidLayoutSubviews))
        #expect(events[6].message == .layout(.viewWillLayoutSubviews, frame: Rect(x: -1, y: 0, width: 1e17, height: 0.25)))
        #expect(events[7].message == .layout(.viewDidLayoutSubviews, frame: Rect(x: 0, y: 0, width: 320, height: 568)))
        #expect(events[4].cause == nil && events[6].cause == events[4].id)
        #expect(events[9].message == .note("tab\there \\ é 😀 \u{01}"))
        #expect(events[10].controller == "R" && events[10].message == .suppressed(message: "viewWillTransition", cut: ["A1", "pc:P"]))
        #expect(events[11].lamport == 1_000 + 1 && events[11].transition == -2)
        #expect(events[12].step == 2 && events[12].message == .step(number: 2, description: "resizeWindow 568x320"))
        // Lamport clocks only grow; after an observed clock they continue from it.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.lamport < $1.lamport })
        #expect(recorder.events(after: 20).map(\.id.sequence) == Array(21...UInt64(count)))
        #expect(recorder.events(after: count + 5).isEmpty)
        #expect(recorder.count == count && recorder.recordedCount == count)
    }

    @Test("a file trace has, line for line, the capture lines of the events in memory, across many chunks")
    func fileMatchesMemory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-recorder-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let toFile = TraceRecorder(node: "n\"1", runID: "run \\ 2", storage: .file(writer))
        let inMemory = TraceRecorder(node: "n\"1", runID: "run \\ 2")
        // Enough rounds for several hand-overs to the writer (16 384 events each).
        let count = Self.recordMix(into: toFile, rounds: 4_000)
        Self.recordMix(into: inMemory, rounds: 4_000)
        toFile.flush()
        writer.close()
        #expect(writer.failure == nil)
        #expect(toFile.events.isEmpty && toFile.count == 0 && toFile.recordedCount == count)

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        // A header line, a line per event, and the last newline.
        #expect(lines.count == count + 2 && lines.last == "")
        let expected = String(decoding: CaptureFileEncoding.bytes(of: inMemory.events, runs: [], defaultRunID: "run \\ 2", format: .jsonLines), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        // The two recorders read the clock at different moments: compare everything but the time.
        func timeless(_ line: some StringProtocol) -> Substring {
            let text = Substring(line)
            return text.range(of: ",\"time\":").map { text[..<$0.lowerBound] } ?? text
        }
        let mismatch = zip(lines, expected).enumerated().first { timeless($0.element.0) != timeless($0.element.1) }
        #expect(mismatch == nil, "line \((mismatch?.offset ?? 0) + 1):\n\(mismatch?.element.0 ?? "")\nexpected\n\(mismatch?.element.1 ?? "")")
        // And every line reads back as the event it was written from.
        // (JSON has no NaN or infinity: lines with them are reported, not read.)
        let reread = try TraceFileReader.read(path: path)
        #expect(reread.runIDs == ["run \\ 2"])
        let second = try #require(reread.events.first { $0.id.sequence == 2 })
        #expect(second.message == inMemory.events[1].message && second.cause == inMemory.events[1].cause)
    }

    /// Events whose numbers do not fit the compact form (a step or transition beyond 32 bits, a
    /// Lamport clock far ahead of the sequence), sizes that only their bits tell apart, and many
    /// distinct sizes.
    static func recordWide(into recorder: TraceRecorder) {
        let name = recorder.intern("R")
        recorder.enter(step: Int(Int32.max) + 5)
        recorder.recordViewWillTransition(to: Size(1, 2), controller: name, cause: nil, transition: Int(Int32.max) + 1)
        recorder.observe(lamport: UInt64(UInt32.max) * 3)
        recorder.recordLayoutPair(controller: name, frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        recorder.enter(step: 2)
        recorder.recordSizeForChild(name, parent: Size(-0.0, 3), answer: Size(0.0, 1e300), controller: name, cause: nil, transition: 9)
        for width in 0..<300 {
            recorder.recordViewWillTransition(to: Size(Double(width) + 0.5, 7), controller: name, cause: nil, transition: 1)
        }
    }

    @Test("numbers too large for the compact form, and sizes, are kept exactly")
    func wideNumbers() throws {
        let recorder = TraceRecorder()
        Self.recordWide(into: recorder)
        let events = recorder.events
        #expect(events.count == 304)
        #expect(events[0].step == Int(Int32.max) + 5 && events[0].transition == Int(Int32.max) + 1)
        #expect(events[0].message == .viewWillTransition(to: Size(1, 2)))
        #expect(events[1].lamport == UInt64(UInt32.max) * 3 + 1 && events[2].lamport == UInt64(UInt32.max) * 3 + 2)
        #expect(events[1].message == .layout(.viewWillLayoutSubviews, frame: Rect(x: 10, y: 20.5, width: 300, height: 400))
            && events[2].message == .layout(.viewDidLayoutSubviews))
        guard case let .sizeForChild(child, parent, answer) = events[3].message else {
            Issue.record("expected sizeForChild, got \(events[3].message)")
            return
        }
        #expect(child == "R" && events[3].step == 2 && events[3].transition == 9)
        #expect(parent.width == 0 && parent.width.sign == .minus && parent.height == 3)
        #expect(answer.width.sign == .plus && answer.height == 1e300)
        #expect(events[303].message == .viewWillTransition(to: Size(299.5, 7)))
        // NaN is kept too (in memory: the capture format has no JSON number for it).
        recorder.recordViewWillTransition(to: Size(.nan, 1), controller: recorder.intern("R"), cause: nil, transition: nil)
        guard case let .viewWillTransition(nan) = recorder.events(after: 304).first?.message else {
            Issue.record("expected viewWillTransition")
            return
        }
        #expect(nan.width.isNaN && nan.height == 1)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-wide-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let toFile = TraceRecorder(storage: .file(writer))
        Self.recordWide(into: toFile)
        toFile.flush()
        writer.close()
        let reread = try TraceFileReader.read(path: path).events
        #expect(reread.map(\.id) == events.map(\.id) && reread.map(\.lamport) == events.map(\.lamport))
        #expect(reread.map(\.step) == events.map(\.step) && reread.map(\.transition) == events.map(\.transition))
        #expect(Array(reread.map(\.message).suffix(300)) == Array(events.map(\.message).suffix(300)))
    }

    @Test("lines written one by one keep their place among the recorder's chunks")
    func plainLinesInOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-writer-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        writer.write("first")
        let recorder = TraceRecorder(storage: .file(writer))
        recorder.recordLayoutPair(controller: recorder.intern("R"), frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        recorder.flush()
        writer.write("last")
        writer.close()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        // The recorder's chunk starts with its header line.
        #expect(lines.count == 5 && lines.first == "first" && lines.last == "last")
        #expect(lines[1].hasPrefix("{\"v\":\"1.1\"") && lines[2].contains("\"message\":\"viewWillLayoutSubviews\""))
    }

    @Test("a capture file that cannot be created is an error naming it")
    func unwritablePath() {
        #expect(throws: TraceFileWriter.WriteError.self) {
            try TraceFileWriter(path: "/nonexistent-folder/trace.jsonl")
        }
    }

    @Test("the first size a recorder sees may be anything, NaN included")
    func firstSizeNaN() {
        let recorder = TraceRecorder()
        let name = recorder.intern("R")
        recorder.recordViewWillTransition(to: Size(.nan, .nan), controller: name, cause: nil, transition: 1)
        recorder.recordSizeForChild(name, parent: Size(1, 2), answer: Size(.nan, .nan), controller: name, cause: nil, transition: 1)
        recorder.recordViewWillTransition(to: Size(3, 4), controller: name, cause: nil, transition: 1)
        let messages = recorder.events.map(\.message)
        guard messages.count == 3, case let .viewWillTransition(first) = messages[0],
              case let .sizeForChild(_, parent, answer) = messages[1] else {
            Issue.record("unexpected events \(messages)")
            return
        }
        #expect(first.width.isNaN && first.height.isNaN)
        #expect(parent == Size(1, 2) && answer.width.isNaN && answer.height.isNaN)
        #expect(messages[2] == .viewWillTransition(to: Size(3, 4)))
    }

    @Test("memory reserved ahead holds the same events, across several chunks")
    func reservedMemory() {
        let reserved = TraceRecorder(node: "main", runID: "r1")
        reserved.reserve(events: 3 * 16_384)
        let plain = TraceRecorder(node: "main", runID: "r1")
        let count = Self.recordMix(into: reserved, rounds: 5_000)
        Self.recordMix(into: plain, rounds: 5_000)
        let withReserve = reserved.events, without = plain.events
        #expect(withReserve.count == count && without.count == count)
        #expect(withReserve.map(\.canonicalLine) == without.map(\.canonicalLine))
        #expect(withReserve.map(\.cause) == without.map(\.cause) && withReserve.map(\.lamport) == without.map(\.lamport))
        TraceRecorder(storage: .discard).reserve(events: 1_000_000)
    }

    @Test("a discarding recorder counts events and keeps none")
    func discard() {
        let recorder = TraceRecorder(storage: .discard)
        let count = Self.recordMix(into: recorder)
        #expect(recorder.recordedCount == count && recorder.count == 0 && recorder.events.isEmpty)
    }

    @Test("a clock from a peer at the top of the range cannot overflow the recorder's")
    func hugeObservedClockIsTakenAtMostHalfway() {
        let recorder = TraceRecorder(storage: .memory)
        recorder.observe(lamport: .max)
        recorder.record(.note("after"), controller: "A", cause: nil)
        recorder.recordLayoutPair(controller: recorder.intern("A"), frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        let clocks = recorder.events.map(\.lamport)
        #expect(clocks == [UInt64.max / 2 + 1, UInt64.max / 2 + 2, UInt64.max / 2 + 3])
    }

    @Test("events handed to a file writer after it was closed are reported as its failure, not lost silently")
    func handingOverAfterCloseIsAFailure() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-closed-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let recorder = TraceRecorder(storage: .file(writer))
        recorder.record(.note("kept in the recorder"), controller: "A", cause: nil)
        writer.close()
        #expect(writer.failure == nil)
        recorder.flush()
        #expect(writer.failure != nil)
    }

    @Test("two recorders writing in turn to one file each name their own controllers")
    func sharedWriterKeepsEachRecordersNames() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-shared-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let first = TraceRecorder(node: "a", storage: .file(writer))
        let second = TraceRecorder(node: "b", storage: .file(writer))
        // The same table positions name different controllers in the two recorders.
        first.recordLayoutPair(controller: first.intern("A1"), frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        first.flush()
        second.recordLayoutPair(controller: second.intern("B1"), frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        second.flush()
        first.recordLayoutPair(controller: first.intern("A1"), frame: Rect(x: 10, y: 20.5, width: 300, height: 400), cause: nil)
        first.flush()
        writer.close()
        #expect(writer.failure == nil)
        let file = try TraceFileReader.read(path: path)
        #expect(file.events.map(\.controller.name) == ["A1", "A1", "B1", "B1", "A1", "A1"])
        #expect(file.events.map(\.id.node) == ["a", "a", "b", "b", "a", "a"])
    }
}
