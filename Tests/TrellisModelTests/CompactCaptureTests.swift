import Foundation
import Testing
import TrellisModel
import TrellisTrace
import TrellisTraceFiles

/// The compact binary capture (`Protocols/compact-trace-format.md`) and JSON Lines 1.1.
@Suite("Compact capture and JSON Lines 1.1")
struct CompactCaptureTests {
    /// Every kind of message, with names, numbers and text that need care.
    static let messages: [TraceMessage] = CaptureFormatTests.messages + [
        .layout(.viewWillLayoutSubviews, frame: Rect(x: 0, y: 0, width: 320, height: 568)),
        .layout(.viewDidLayoutSubviews, frame: Rect(x: -0.0, y: 0, width: 1, height: 2)),
        .appearance(.viewWillAppear), .appearance(.viewDidAppear), .appearance(.viewWillDisappear), .appearance(.viewDidDisappear),
        .presentationTransition(.presentationTransitionWillBegin, value: true),
        .presentationTransition(.presentationTransitionDidEnd, value: true),
        .presentationTransition(.dismissalTransitionWillBegin, value: false),
        .presentationTransition(.dismissalTransitionDidEnd, value: false),
        .present("P", style: .formSheet, transitionStyle: .crossDissolve),
        .dismiss("P"),
        .adaptivePresentationStyle(.overFullScreen),
        .willPresentWithAdaptiveStyle(.fullScreen),
        .completion(action: "present", "P"),
        .completion(action: "dismiss", "R"),
        .show("D", detail: false), .show("D", detail: true),
        .push("N2"), .pop("N2"), .replaceDetail("D2"), .select("T1", index: 2),
        .action(name: "keyboardWillShow", value: #"{"height":216,"note":"é\n"}"#), .action(name: "dimmingTapped", value: ""),
        .request("present Q style: formSheet animated"),
        .step(number: -1, description: ""),
        .alongsideTransition(transition: Int.min), .select("T1", index: Int.max),
    ]

    /// Events of two nodes and two runs, with clocks, causes, transitions and times that change
    /// and stay, in both directions.
    static func trace(extremes: Bool = true) -> (events: [TraceEvent], runs: [TraceRunSpan]) {
        var events: [TraceEvent] = []
        // JSON Lines reads numbers as doubles, non-negative where they count: its round trip
        // keeps to those.
        for (index, message) in (extremes ? messages : messages.dropLast(3)).enumerated() {
            let sequence = UInt64(index + 1)
            events.append(TraceEvent(
                id: EventRef(node: index % 7 == 3 ? "b" : "main", sequence: index == 9 && extremes ? UInt64.max : sequence),
                lamport: index == 5 ? 0 : sequence + UInt64(index / 4),
                cause: index.isMultiple(of: 3) ? nil : EventRef(node: index.isMultiple(of: 2) ? "node#b" : "main", sequence: sequence / 2),
                controller: ControllerID(index % 5 == 0 ? "pc:P" : "R\(index % 4)"),
                transition: index % 6 == 0 ? nil : index / 6, step: index / 10, message: message,
                time: index == 12 ? 0 : 1_000 * UInt64(index / 3)))
        }
        return (events, [TraceRunSpan(position: 0, runID: "run \"one\""), TraceRunSpan(position: 20, runID: "run 2 é")])
    }

    static func compact(_ events: [TraceEvent], runs: [TraceRunSpan]) -> [UInt8] {
        CaptureFileEncoding.bytes(of: events, runs: runs, format: .compact)
    }

    static func read(compact bytes: [UInt8]) -> TraceFile {
        bytes.withUnsafeBytes { TraceFileReader.read(compact: $0, file: "t.trellis") }
    }

    @Test("every kind of event and every field survives the compact form, runs included")
    func roundTrip() {
        let (events, runs) = Self.trace()
        let bytes = Self.compact(events, runs: runs)
        #expect(CaptureFileFormat.detect(bytes) == .compact)
        let file = Self.read(compact: bytes)
        #expect(file.problems.isEmpty, "\(file.problems)")
        #expect(file.events == events)
        #expect(file.runSpans == runs)
        // Frames keep their bits (a -0 origin is not the frame at zero).
        #expect(file.events.compactMap(\.message.frame).map(\.minX.sign) == events.compactMap(\.message.frame).map(\.minX.sign))
    }

    @Test("JSON Lines to compact to JSON Lines gives the same bytes, and back again")
    func convertsByteForByte() {
        let (events, runs) = Self.trace(extremes: false)
        let jsonLines = CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines)
        let parsed = TraceFileReader.read(text: String(decoding: jsonLines, as: UTF8.self), file: "t.jsonl")
        #expect(parsed.problems.isEmpty, "\(parsed.problems)")
        #expect(parsed.runSpans == runs)
        let compact = CaptureFileEncoding.bytes(of: parsed, format: .compact)
        let back = CaptureFileEncoding.bytes(of: Self.read(compact: compact), format: .jsonLines)
        #expect(back == jsonLines, "\(String(decoding: back, as: UTF8.self))")
        #expect(CaptureFileEncoding.bytes(of: Self.read(compact: compact), format: .compact) == compact)
    }

    @Test("a JSON Lines 1.1 file writes run and node once; 1.0 lines and 1.1 lines read alike")
    func headerLine() throws {
        let (events, runs) = Self.trace(extremes: false)
        let text = String(decoding: CaptureFileEncoding.bytes(of: events, runs: runs, format: .jsonLines), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.first == "{\"v\":\"1.1\",\"run\":\"run \\\"one\\\"\",\"node\":\"main\"}")
        #expect(lines.filter { $0.contains("\"run\":") }.count == 2)
        #expect(lines[1].hasPrefix("{\"seq\":1,\"lamport\":1,"))
        #expect(lines.contains { $0.hasPrefix("{\"node\":\"b\",\"seq\":") })
        // Today's self-contained lines (1.0) read as before, and mixed with 1.1 lines.
        let old = events.map { TraceCaptureFormat.line(for: $0, runID: "r") }.joined(separator: "\n")
        let oldFile = TraceFileReader.read(text: old, file: "old.jsonl")
        #expect(oldFile.problems.isEmpty && oldFile.events == events && oldFile.runIDs == ["r"])
        // An event line without "v" needs a header before it.
        let headless = TraceFileReader.read(text: String(lines[1]), file: "h.jsonl")
        #expect(headless.events.isEmpty && headless.problems.first?.message.contains("before any header line") == true)
    }

    /// A trace of three events: the golden bytes of `Protocols/compact-trace-format.md` §7.
    static let goldenEvents = [
        TraceEvent(
            id: EventRef(node: "main", sequence: 1), lamport: 1, cause: nil, controller: "window", transition: nil, step: 1,
            message: .step(number: 1, description: "go"), time: 0),
        TraceEvent(
            id: EventRef(node: "main", sequence: 2), lamport: 2, cause: EventRef(node: "main", sequence: 1), controller: "R", transition: 1,
            step: 1, message: .viewWillTransition(to: Size(568, 320)), time: 4_000_000),
        TraceEvent(
            id: EventRef(node: "main", sequence: 3), lamport: 3, cause: EventRef(node: "main", sequence: 2), controller: "R", transition: 1,
            step: 1, message: .sizeForChild(child: "C", parent: Size(568, 320), answer: Size(284, 320)), time: 4_000_000),
    ]

    static let goldenHex = """
        89 54 52 4c 0d 0a 1a 0a 01 00
        02 04 6d 61 69 6e
        01 03 01 72 00
        02 06 77 69 6e 64 6f 77
        40 20 02 01 02 02 67 6f
        02 01 52
        03 10 00 00 00 00 00 c0 81 40 00 00 00 00 00 00 74 40
        41 58 00 02 01 02 80 a4 e8 03 02 00
        02 01 43
        03 10 00 00 00 00 00 c0 71 40 00 00 00 00 00 00 74 40
        42 08 00 02 02 03 00 01
        """

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    @Test("the golden bytes of the document and of Protocols/vectors/compact are what the writer writes and what the reader reads")
    func goldenBytes() throws {
        let expected = Self.goldenHex.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let vector = try String(contentsOf: root.appendingPathComponent("Protocols/vectors/compact/three-events.hex"), encoding: .utf8)
        #expect(vector.split(whereSeparator: \.isWhitespace).compactMap { UInt8($0, radix: 16) } == expected)
        let document = try String(contentsOf: root.appendingPathComponent("Protocols/compact-trace-format.md"), encoding: .utf8)
        #expect(document.contains(vector.trimmingCharacters(in: .whitespacesAndNewlines)), "TCF/1 §8 quotes the vector")
        let written = CaptureFileEncoding.bytes(of: Self.goldenEvents, runs: [TraceRunSpan(position: 0, runID: "r")], format: .compact)
        #expect(Self.hex(written) == Self.hex(expected))
        let file = Self.read(compact: expected)
        #expect(file.problems.isEmpty && file.events == Self.goldenEvents && file.runIDs == ["r"])
    }

    @Test("a truncated file reads up to the damage and names the byte offset, at every length")
    func truncated() {
        let (events, runs) = Self.trace()
        let bytes = Self.compact(events, runs: runs)
        for length in 0..<bytes.count {
            let file = Self.read(compact: Array(bytes.prefix(length)))
            #expect(file.events == Array(events.prefix(file.events.count)))
            if length < 10 {
                #expect(file.problems.count == 1)
            } else if file.events.count < events.count, let problem = file.problems.first {
                #expect(problem.byteOffset.map { $0 <= length } == true, "\(problem)")
            }
        }
        let cut = Self.read(compact: Array(bytes.dropLast()))
        #expect(cut.problems.first?.description.hasPrefix("t.trellis: byte \(bytes.count - 1): the file ends inside the event at byte") == true,
                "\(cut.problems)")
    }

    @Test("damaged bytes give a problem or other events, never a trap, a hang or a huge allocation")
    func damaged() {
        let (events, runs) = Self.trace()
        let bytes = Self.compact(events, runs: runs)
        for position in 10..<bytes.count {
            for value: UInt8 in [0x00, 0x7F, 0xFF, bytes[position] ^ 0x40] {
                var damaged = bytes
                damaged[position] = value
                let file = Self.read(compact: damaged)
                #expect(file.events.count <= events.count + bytes.count)
            }
        }
        // A length far past the end is named as such.
        let huge = CompactCaptureFormat.fileHeader + [0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(Self.read(compact: huge).problems.first?.message.contains("more than the 0 bytes left") == true)
    }

    @Test("what a reader does not know: other majors are refused, unknown records skipped, unknown event codes and flags named")
    func versions() {
        let (events, runs) = Self.trace()
        var bytes = Self.compact(events, runs: runs)
        bytes[8] = 2
        #expect(Self.read(compact: bytes).problems.first?.message.contains("major version 2 is not supported") == true)
        bytes[8] = 1
        bytes[9] = 7
        // A newer minor version with a record this reader does not know: skipped.
        let unknownRecord: [UInt8] = [0x3F, 0x03, 0xAA, 0xBB, 0xCC]
        let newer = Array(bytes.prefix(10)) + unknownRecord + bytes.dropFirst(10)
        let file = Self.read(compact: newer)
        #expect(file.problems.isEmpty && file.events == events)
        let unknownEvent = Self.read(compact: bytes + [0x7E, 0x00])
        #expect(unknownEvent.problems.first?.message.contains("unknown event code 62") == true)
        #expect(unknownEvent.problems.first?.byteOffset == bytes.count)
        let reserved = Self.read(compact: bytes + [0x40, 0x80])
        #expect(reserved.problems.first?.message.contains("reserved flag bits") == true)
    }

    @Test("a file recorder's compact capture holds the events a memory recorder keeps, across many chunks and two recorders")
    func recorderToCompactFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-compact-\(UUID().uuidString).trellis").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        #expect(writer.format == .compact)
        let toFile = TraceRecorder(node: "n\"1", runID: "run \\ 2", storage: .file(writer))
        let other = TraceRecorder(node: "b", runID: "run \\ 2", storage: .file(writer))
        let inMemory = TraceRecorder(node: "n\"1", runID: "run \\ 2")
        let count = TraceRecorderStorageTests.recordMix(into: toFile, rounds: 3_000)
        TraceRecorderStorageTests.recordMix(into: inMemory, rounds: 3_000)
        toFile.flush()
        other.recordLayoutPair(controller: other.intern("B1"), frame: Rect(x: 1, y: 2, width: 3, height: 4), cause: EventRef(node: "n\"1", sequence: 3))
        other.flush()
        writer.close()
        #expect(writer.failure == nil && writer.eventsWritten == count + 2)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written.starts(with: CompactCaptureFormat.magic), "\(Self.hex(Array(written.prefix(16))))")
        let file = try TraceFileReader.read(path: path)
        #expect(file.problems.isEmpty, "\(file.problems)")
        func timeless(_ event: TraceEvent) -> TraceEvent {
            var event = event
            event.time = 0
            return event
        }
        // Compared as bytes: the trace has NaN sizes, which no NaN equals.
        let fromFile = CaptureFileEncoding.bytes(of: file.events.prefix(count).map(timeless), runs: [], format: .compact)
        let fromMemory = CaptureFileEncoding.bytes(of: inMemory.events.map(timeless), runs: [], format: .compact)
        let sameEvents = fromFile == fromMemory
        #expect(sameEvents, "\(fromFile.count) bytes from the file's events, \(fromMemory.count) from memory's")
        #expect(file.events.suffix(2).map(\.controller.name) == ["B1", "B1"] && file.events.last?.id.node == "b")
        // The bytes written from chunks are the bytes written from the events they hold.
        let rewritten = CaptureFileEncoding.bytes(of: file, format: .compact)
        let sameBytes = rewritten == written
        #expect(sameBytes, "the first difference is at byte \((0..<min(rewritten.count, written.count)).first { rewritten[$0] != written[$0] } ?? min(rewritten.count, written.count))")
        // And the same trace as JSON Lines 1.1 is more than six times larger.
        let jsonLines = CaptureFileEncoding.bytes(of: file, format: .jsonLines)
        #expect(written.count * 6 <= jsonLines.count, "\(written.count) compact bytes, \(jsonLines.count) JSON Lines bytes")
    }
}
