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
        let (events, runs) = Self.trace(extremes: false)
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
        89 54 52 4c 0d 0a 1a 0a 01 01
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
        04 05 03 9f f4 cc 35
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

    /// The END record of a whole capture: where it starts (it is the last record).
    static func endRecordStart(_ bytes: [UInt8]) -> Int? {
        (5...14).lazy.map { bytes.count - $0 - 2 }.first { $0 >= 10 && bytes[$0] == 0x04 && Int(bytes[$0 + 1]) == bytes.count - $0 - 2 }
    }

    /// `bytes` without their END record, as a TCF 1.0 file (minor version 0).
    static func older(_ bytes: [UInt8]) -> [UInt8] {
        var old = Array(bytes.prefix(endRecordStart(bytes) ?? bytes.count))
        old[9] = 0
        return old
    }

    @Test("a file cut anywhere — inside a record, at a record boundary, after the header — is damage at an offset, never a shorter run")
    func truncated() throws {
        let (events, runs) = Self.trace(extremes: false)
        let bytes = Self.compact(events, runs: runs)
        #expect(Self.read(compact: bytes).problems.isEmpty)
        for length in 0..<bytes.count {
            let file = Self.read(compact: Array(bytes.prefix(length)))
            #expect(file.events == Array(events.prefix(file.events.count)))
            #expect(file.problems.count == 1, "\(length) bytes read as a whole capture")
            if length >= 10, let problem = file.problems.first {
                #expect(problem.byteOffset.map { $0 <= length } == true, "\(problem)")
            }
        }
        let end = try #require(Self.endRecordStart(bytes))
        let atBoundary = Self.read(compact: Array(bytes.prefix(end)))
        #expect(atBoundary.events == events)
        #expect(atBoundary.problems.map(\.description) == [
            "t.trellis: byte \(end): the file ends without the END record a TCF 1.1 capture ends with: it was cut short after "
                + "\(events.count) events (nothing after it can be read)",
        ])
        let headerOnly = Self.read(compact: Array(bytes.prefix(10)))
        #expect(headerOnly.problems.first?.byteOffset == 10 && headerOnly.problems.first?.message.contains("cut short after 0 events") == true)
        let cut = Self.read(compact: Array(bytes.prefix(end - 1)))
        #expect(cut.problems.count == 1 && cut.problems.first?.message.contains("of the event at byte") == true
            && cut.events == Array(events.dropLast()), "\(cut.problems)")
        // A byte changed, or an event dropped with the count kept: the END record says so.
        var altered = bytes
        altered[end - 1] ^= 0x01
        #expect(Self.read(compact: altered).problems.first?.message.contains("the file was altered") == true
            || !Self.read(compact: altered).problems.isEmpty)
        let added = Array(bytes.prefix(end)) + bytes.suffix(from: end) + [0x00]
        #expect(Self.read(compact: added).problems.first?.message.contains("after the END record") == true)
    }

    @Test("a TCF 1.0 capture (no END record) still reads, with a notice; an empty capture is the header and its END record")
    func olderCaptures() {
        let (events, runs) = Self.trace(extremes: false)
        let old = Self.older(Self.compact(events, runs: runs))
        let file = Self.read(compact: old)
        #expect(file.problems.isEmpty && file.events == events)
        #expect(file.notices == [
            "t.trellis: a TCF 1.0 capture, which has no END record: read whole, but a file cut at a record boundary would read the "
                + "same (captures since TCF 1.1 end with one)",
        ])
        let empty = Self.compact([], runs: [])
        #expect(Self.hex(empty) == "89 54 52 4c 0d 0a 1a 0a 01 01 04 05 00 f4 89 8d e8")
        let read = Self.read(compact: empty)
        #expect(read.problems.isEmpty && read.notices.isEmpty && read.events.isEmpty)
    }

    @Test("CRC-32 is zlib's: the check value of 123456789, and the same folded in pieces of every size")
    func checksum() {
        var whole = CaptureChecksum()
        whole.update(Array("123456789".utf8))
        #expect(whole.value == 0xCBF4_3926)
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        var reference = CaptureChecksum()
        reference.update(bytes)
        for piece in [1, 3, 7, 8, 9, 64, 999] {
            var pieces = CaptureChecksum()
            var start = 0
            while start < bytes.count {
                pieces.update(Array(bytes[start..<min(start + piece, bytes.count)]))
                start += piece
            }
            #expect(pieces.value == reference.value, "pieces of \(piece)")
        }
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
        let (events, runs) = Self.trace(extremes: false)
        // Without the END record (whose checksum covers the header), as a TCF 1.x file that has
        // none would be.
        var bytes = Self.older(Self.compact(events, runs: runs))
        bytes[8] = 2
        #expect(Self.read(compact: bytes).problems.first?.message.contains("major version 2 is not supported") == true)
        bytes[8] = 1
        bytes[9] = 0
        // A record this reader does not know: skipped.
        let unknownRecord: [UInt8] = [0x3F, 0x03, 0xAA, 0xBB, 0xCC]
        let newer = Array(bytes.prefix(10)) + unknownRecord + bytes.dropFirst(10)
        let file = Self.read(compact: newer)
        #expect(file.problems.isEmpty && file.events == events)
        // A newer minor version ends with an END record like 1.1 (and may add records).
        var sealedNewer = newer
        sealedNewer[9] = 7
        #expect(Self.read(compact: sealedNewer).problems.first?.message.contains("without the END record a TCF 1.7 capture ends with") == true)
        var checksum = CaptureChecksum()
        checksum.update(sealedNewer)
        let crc = checksum.value
        sealedNewer += [0x04, 0x05, UInt8(events.count)] + (0..<4).map { UInt8(truncatingIfNeeded: crc >> UInt32(8 * $0)) }
        let sealedFile = Self.read(compact: sealedNewer)
        #expect(sealedFile.problems.isEmpty && sealedFile.notices.isEmpty && sealedFile.events == events, "\(sealedFile.problems)")
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
        let count = TraceRecorderStorageTests.recordMix(into: toFile, rounds: 3_000, readable: true)
        TraceRecorderStorageTests.recordMix(into: inMemory, rounds: 3_000, readable: true)
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
        // Compared as bytes, as they are written.
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

extension CompactCaptureTests {
    /// A recorder freed and another made after it may get its address: the compact writer must
    /// not map the second one's names and nodes through the first one's tables.
    @Test("a compact capture of recorders made one after the other, each freed before the next, holds each one's names and nodes")
    func sequentialRecorders() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-compact-seq-\(UUID().uuidString).trellis").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceFileWriter(path: path)
        let tap = CaptureLineBytesTests.Tap(writer)
        for round in 0..<6 {
            let recorder = TraceRecorder(node: "node \(round)", runID: "seq", storage: .file(tap))
            let parent = recorder.intern(ControllerID("P\(round)"))
            let child = recorder.intern(ControllerID("C\(round)"))
            var cause = recorder.beginStep(round + 1, description: "round \(round)")
            for index in 0..<200 {
                cause = recorder.recordViewWillTransition(to: Size(Double(round), Double(index)), controller: parent, cause: cause, transition: round)
                recorder.recordSizeForChild(child, parent: Size(1, 2), answer: Size(3, Double(round)), controller: parent, cause: cause, transition: round)
            }
            recorder.flush()
        }
        writer.close()
        #expect(writer.failure == nil)
        let file = try TraceFileReader.read(path: path)
        #expect(file.problems.isEmpty, "\(file.problems)")
        let recorded = tap.events.withLock { $0 }
        let read = file.events
        #expect(read.count == recorded.count)
        let differing = zip(read, recorded).first { $0.0.id != $0.1.id || $0.0.cause != $0.1.cause || $0.0.controller != $0.1.controller || $0.0.message != $0.1.message }
        #expect(differing == nil, "\(String(describing: differing))")
    }
}
