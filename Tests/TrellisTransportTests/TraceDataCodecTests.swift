import Foundation
import Testing
import TrellisModel
import TrellisScenario
import TrellisTestSupport
import TrellisTrace
import TrellisTraceFiles
@testable import TrellisDistributed
import TrellisTransport
import TrellisWire

/// TWP/1 §7.8, §9.7: what a worker sends in TRACE-DATA, in both forms, and what the conductor
/// makes of it — the events as they were recorded, and a fault naming the worker for anything
/// wrong, never a trap.
@Suite struct TraceDataCodecTests {
    /// The events of an example run in one process, as a worker's recorder holds them.
    func exampleEvents() async throws -> [TraceEvent] {
        let file = packageRoot.appendingPathComponent("Examples/split-view.json")
        let scenario = try ScenarioDecoder.decode(try String(contentsOf: file, encoding: .utf8), file: "split-view.json")
        let events = try await ScenarioRunner.run(scenario).events
        #expect(events.count > 20)
        return events
    }

    /// Every part's events, read one part at a time, and every fault.
    func readAll(_ parts: [WireBody], runID: String = "r") throws -> TraceDataCodec.Part {
        var all = TraceDataCodec.Part()
        for part in parts {
            let read = try #require(TraceDataCodec.read(part, from: "b", runID: runID))
            all.events += read.events
            all.faults += read.faults
            all.last = read.last
        }
        return all
    }

    func compactCapture(_ part: WireBody) -> [UInt8]? {
        if case let .compactTraceData(_, capture) = part { return capture }
        return nil
    }

    @Test("the compact form gives the events back exactly, in one part with the last flag")
    func compactRoundTrip() async throws {
        let events = try await exampleEvents()
        let parts = TraceDataCodec.parts(of: events, runID: "r", compact: true)
        #expect(parts.count == 1)
        #expect(parts.first.flatMap(compactCapture).map { CaptureFileFormat.detect($0) } == .compact)
        let read = try readAll(parts)
        #expect(read.last)
        #expect(read.faults.isEmpty)
        #expect(read.events == events)
    }

    @Test("compact parts stand alone: each is a whole capture, read without the parts before it")
    func compactPartsStandAlone() async throws {
        let events = try await exampleEvents()
        let parts = TraceDataCodec.parts(of: events, runID: "r", compact: true, partBytes: 100)
        #expect(parts.count > 3)
        #expect(parts.dropLast().allSatisfy { if case .compactTraceData(false, _) = $0 { true } else { false } })
        #expect(parts.last.map { if case .compactTraceData(true, _) = $0 { true } else { false } } == true)
        var events2: [TraceEvent] = []
        for part in parts {
            let capture = try #require(compactCapture(part))
            #expect(Array(capture.prefix(10)) == [0x89, 0x54, 0x52, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x01])
            let read = try #require(TraceDataCodec.read(part, from: "b", runID: "r"))
            #expect(read.faults.isEmpty)
            events2 += read.events
        }
        #expect(events2 == events)
    }

    @Test("the JSON Lines form (for a conductor that did not announce the compact one) reads back alike")
    func jsonLinesForm() async throws {
        let events = try await exampleEvents()
        let parts = TraceDataCodec.parts(of: events, runID: "r", compact: false)
        #expect(parts.count == 1)
        let read = try readAll(parts)
        #expect(read.faults.isEmpty)
        #expect(read.events.map(\.canonicalLine) == events.map(\.canonicalLine))
        let compact = try readAll(TraceDataCodec.parts(of: events, runID: "r", compact: true))
        #expect(read.events.count == compact.events.count)
        #expect(try #require(TraceDataCodec.read(parts[0], from: "b", runID: "r")).traceBytes
            > 8 * TraceDataCodec.parts(of: events, runID: "r", compact: true).compactMap(compactCapture).map(\.count).reduce(0, +))
    }

    @Test("nothing new is one last part without events, in either form")
    func nothingNew() throws {
        let compact = TraceDataCodec.parts(of: [], runID: "r", compact: true)
        // TCF 1.1: the header, then the END record (no events, the CRC-32 of the header).
        #expect(compact == [.compactTraceData(last: true, capture: [0x89, 0x54, 0x52, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A, 0x01, 0x01, 0x04, 0x05, 0x00, 0xF4, 0x89, 0x8D, 0xE8])])
        #expect(TraceDataCodec.parts(of: [], runID: "r", compact: false) == [.traceData(last: true, jsonLines: "")])
        for part in compact {
            let read = try #require(TraceDataCodec.read(part, from: "b", runID: "r"))
            #expect(read.events.isEmpty && read.faults.isEmpty && read.last)
        }
    }

    @Test("events of another run are a fault naming the worker and the run, in either form")
    func anotherRun() async throws {
        let events = try await exampleEvents()
        for compact in [true, false] {
            let read = try readAll(TraceDataCodec.parts(of: events, runID: "old-run", compact: compact), runID: "r")
            #expect(read.events.count == events.count)
            let what = compact ? "events" : "lines"
            #expect(read.faults == ["node b sent trace \(what) of run \"old-run\", not \"r\""])
        }
    }

    @Test("a part of many bad lines, or of many runs, is a few faults, not one per line")
    func manyBadLinesAreFewFaults() async throws {
        let bad = WireBody.traceData(last: true, jsonLines: String(repeating: "not a line\n", count: 1_000))
        #expect(TraceDataCodec.read(bad, from: "b", runID: "r")?.faults == ["node b sent 1000 unreadable trace lines"])
        let events = try await exampleEvents()
        // One JSON Lines part whose ten events name ten other runs.
        var lines = ""
        for (index, event) in events.prefix(10).enumerated() {
            if case let .traceData(_, text) = TraceDataCodec.parts(of: [event], runID: "run-\(index)", compact: false)[0] { lines += text }
        }
        let read = try #require(TraceDataCodec.read(.traceData(last: true, jsonLines: lines), from: "b", runID: "r"))
        #expect(read.events.count == 10)
        #expect(read.faults == [
            "node b sent trace lines of run \"run-0\", not \"r\"", "node b sent trace lines of run \"run-1\", not \"r\"",
            "node b sent trace lines of run \"run-2\", not \"r\"", "node b sent trace lines of run \"run-3\", not \"r\"",
            "node b sent 6 more trace lines of runs other than \"r\"",
        ])
    }

    @Test("garbage and damage are a fault naming the worker and the byte; the events before it are kept")
    func garbage() async throws {
        let garbage = WireBody.compactTraceData(last: true, capture: Array("{\"v\":\"1.0\"}\n".utf8))
        let read = try #require(TraceDataCodec.read(garbage, from: "b", runID: "r"))
        #expect(read.events.isEmpty)
        #expect(read.faults == ["node b sent an unreadable compact trace part: byte 0: not a compact trellis capture (the first bytes are not 89 54 52 4C 0D 0A 1A 0A) (events kept from before it: 0)"])

        let events = try await exampleEvents()
        let capture = try #require(TraceDataCodec.parts(of: events, runID: "r", compact: true).first.flatMap(compactCapture))
        // The END record takes the last 7 bytes (TCF 1.1); one byte more cuts the last event.
        let cut = try #require(TraceDataCodec.read(.compactTraceData(last: true, capture: Array(capture.dropLast(8))), from: "b", runID: "r"))
        #expect(cut.events == Array(events.dropLast()))
        #expect(cut.faults.count == 1)
        #expect(cut.faults.first?.hasPrefix("node b sent an unreadable compact trace part: byte \(capture.count - 8): the file ends inside the event") == true)
        // Cut at a record boundary: no longer a shorter part that reads whole.
        let atBoundary = try #require(TraceDataCodec.read(.compactTraceData(last: true, capture: Array(capture.dropLast(7))), from: "b", runID: "r"))
        #expect(atBoundary.faults.first?.contains("byte \(capture.count - 7): the file ends without the END record") == true, "\(atBoundary.faults)")

        // Every cut and every single-byte change of a real capture is read or refused, never a trap.
        for length in stride(from: 0, to: capture.count, by: 7) {
            _ = TraceDataCodec.read(.compactTraceData(last: true, capture: Array(capture.prefix(length))), from: "b", runID: "r")
        }
        for index in stride(from: 0, to: capture.count, by: 5) {
            var damaged = capture
            damaged[index] ^= 0xA5
            _ = TraceDataCodec.read(.compactTraceData(last: true, capture: damaged), from: "b", runID: "r")
        }
    }

    @Test("a capture larger than a part may hold is refused unread")
    func tooLarge() throws {
        let capture = [UInt8](repeating: 0x02, count: TraceDataCodec.maxCaptureBytes + 1)
        let read = try #require(TraceDataCodec.read(.compactTraceData(last: false, capture: capture), from: "b", runID: "r"))
        #expect(read.events.isEmpty)
        #expect(read.faults == ["node b sent a compact trace part of 4194305 bytes, more than the 4194304 a part may hold: not read"])
        #expect(!read.last)
    }

    /// The body frame of a golden wire vector (TWP/1 §12).
    func vectorBody(_ name: String) throws -> WireBody {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("Protocols/vectors/wire/\(name).hex"), encoding: .utf8)
        let frames = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).map { line in
            stride(from: 0, to: line.count, by: 2).compactMap { offset -> UInt8? in
                let start = line.index(line.startIndex, offsetBy: offset)
                return UInt8(line[start..<line.index(start, offsetBy: 2)], radix: 16)
            }
        }
        return try WireMessage.decode(Array(frames)).body
    }

    @Test("the golden compact TRACE-DATA holds the events of the JSON Lines one, as the reference writes them (§12)")
    func goldenVector() throws {
        let lines = try #require(TraceDataCodec.read(try vectorBody("trace-data"), from: "b", runID: "golden-run"))
        #expect(lines.faults.isEmpty && lines.events.count == 2)
        let compactBody = try vectorBody("trace-data-compact")
        #expect(TraceDataCodec.parts(of: lines.events, runID: "golden-run", compact: true) == [compactBody])
        let compact = try #require(TraceDataCodec.read(compactBody, from: "b", runID: "golden-run"))
        #expect(compact.events == lines.events && compact.last && compact.faults.isEmpty)
        #expect(compact.traceBytes == 81)
    }

    @Test("a part may not be anything but TRACE-DATA")
    func otherBodies() {
        #expect(TraceDataCodec.read(.heartbeat, from: "b", runID: "r") == nil)
    }
}
