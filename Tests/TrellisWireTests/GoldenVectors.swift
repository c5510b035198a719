import Foundation
import TrellisTestSupport
import TrellisModel
import TrellisWire


/// The folder of the golden wire vectors.
let vectorDirectory = packageRoot.appendingPathComponent("Protocols/vectors/wire")

/// The messages the golden vectors hold, as Protocols/wire-protocol.md §12 describes them.
enum GoldenVectors {
    /// iPhone traits in landscape: compact/compact, phone, left-to-right, light, large, scale 2.
    static let phoneLandscape = TraitCollection(
        horizontalSizeClass: .compact, verticalSizeClass: .compact, userInterfaceIdiom: .phone, displayScale: 2,
        layoutDirection: .leftToRight, userInterfaceStyle: .light, preferredContentSizeCategory: .large)

    /// The scenario of `setup-behaviors.hex` (1.3): node b's controller names a Swift behaviour.
    static let namedScenario = #"{"scenario":"named","root":"R","controllers":{"R":{"kind":"view","children":["C2"]},"C2":{"kind":"view","behavior":"SideBySide"}},"placement":{"C2":"b"},"steps":[]}"#

    static let tinyScenario = #"{"scenario":"tiny","window":{"size":[320,568],"traits":{"horizontalSizeClass":"compact","verticalSizeClass":"regular","userInterfaceIdiom":"phone","displayScale":2}},"root":"R","controllers":{"R":{"kind":"view","children":["C2"]},"C2":{"kind":"view"}},"placement":{"C2":"b"},"steps":[{"resizeWindow":[568,320]}]}"#

    static let traceLines = #"""
        {"v":"1.0","run":"golden-run","node":"b","seq":6,"lamport":17,"cause":"a#12","controller":"C2","transition":3,"step":1,"kind":"delivery","message":"viewWillTransition","payload":{"to":[568,320]},"time":107472}
        {"v":"1.0","run":"golden-run","node":"b","seq":7,"lamport":18,"cause":"b#6","controller":"C2","transition":3,"step":1,"kind":"layout","message":"viewWillLayoutSubviews","payload":{},"time":112781}

        """#

    /// The two events of `traceLines` as a TCF/1 capture (§12: `trace-data-compact.hex`;
    /// TraceDataCodecTests checks that the reference trace encoder writes exactly these bytes).
    static let traceCapture: [UInt8] = Hex.decode(
        "8954524c0d0a1a0a0101" + "020162" + "010c0a676f6c64656e2d72756e00" + "02024332" + "020161"
            + "03100000000000c081400000000000007440" + "417e06160218010602a08f0d0100" + "4948000bfa520100" + "040502ca2a76a9") ?? []

    static let c2 = WireAddress(node: "b", controller: "C2", incarnation: 1)

    /// File name (without `.hex`) → the message it holds.
    static let all: [(name: String, message: WireMessage)] = [
        ("hello", WireMessage(.hello(node: "b", runID: "golden-run", capabilities: 0))),
        ("setup", WireMessage(
            .setup(runID: "golden-run", node: "b", scenarioJSON: tinyScenario, heartbeatIntervalMilliseconds: 250,
                   peerGoneTimeoutMilliseconds: 2000),
            correlationID: 1)),
        ("setup-behaviors", WireMessage(
            .setup(runID: "golden-run", node: "b", scenarioJSON: namedScenario, heartbeatIntervalMilliseconds: 250,
                   peerGoneTimeoutMilliseconds: 2000, peers: [],
                   behaviors: [WireBehavior(.viewController, "SideBySide"), WireBehavior(.presentationController, "Overlay"),
                               WireBehavior(.adaptiveDelegate, "SlideOver")]),
            correlationID: 1)),
        ("ready", WireMessage(.ready(node: "b"), correlationID: 1, lamport: 2)),
        ("call-view-will-transition", WireMessage(
            .call(target: c2, code: .viewWillTransition, arguments: [
                .size(Size(568, 320)),
                .transition(WireTransition(id: 3, animated: true, duration: 0.3, windowTraits: phoneLandscape, windowSize: Size(568, 320))),
                .eventRef(WireEventRef(node: "a", sequence: 12)),
            ]),
            correlationID: 7, lamport: 16, step: 1)),
        ("return-ok-empty", WireMessage(.return(.ok([])), correlationID: 7, lamport: 18, step: 1)),
        ("return-ok-snapshot", WireMessage(
            .return(.ok([.size(Size(568, 320)), .traits(phoneLandscape), .size(Size(300, 500))])),
            correlationID: 8, lamport: 20, step: 1)),
        ("return-fault", WireMessage(.return(.fault("no controller C9 on node b")), correlationID: 9, lamport: 21, step: 1)),
        ("heartbeat", WireMessage(.heartbeat, lamport: 21, step: 1)),
        ("goodbye", WireMessage(.goodbye, correlationID: 10, lamport: 40, step: 1)),
        ("goodbye-ack", WireMessage(.goodbyeAck, correlationID: 10, lamport: 41, step: 1)),
        ("error", WireMessage(
            .error(code: WireErrorCode.malformedBody.rawValue, text: "body: value 2: unknown tag 0x7f at offset 14"),
            correlationID: 11, lamport: 22, step: 1)),
        ("trace-request", WireMessage(.traceRequest, correlationID: 12, lamport: 30, step: 1)),
        ("trace-data", WireMessage(.traceData(last: true, jsonLines: traceLines), correlationID: 12, lamport: 30, step: 1)),
        ("trace-data-compact", WireMessage(.compactTraceData(last: true, capture: traceCapture), correlationID: 12, lamport: 30, step: 1)),
        ("call-set-override-traits", WireMessage(
            .call(target: c2, code: .setOverrideTraits, arguments: [
                .none,
                .string("C2a"),
                .transition(WireTransition(id: 4, animated: false, duration: 0, windowTraits: phoneLandscape, windowSize: Size(568, 320))),
                .none,
            ]),
            correlationID: 13, lamport: 25, step: 2)),
        ("call-make-presentation-controller", WireMessage(
            .call(target: WireAddress(node: "b", controller: "P", incarnation: 2), code: .makePresentationController, arguments: [
                .string("formSheet"),
                .size(Size(568, 320)),
                .traits(TraitCollection(
                    horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2,
                    layoutDirection: .leftToRight, userInterfaceStyle: .dark)),
                .size(Size(1024, 768)),
                .eventRef(WireEventRef(node: "a", sequence: 30)),
            ]),
            correlationID: 14, lamport: 31, step: 3)),
        ("return-ok-address", WireMessage(
            .return(.ok([.address(WireAddress(node: "b", controller: "pc:P", incarnation: 2))])),
            correlationID: 14, lamport: 33, step: 3)),
        ("call-select", WireMessage(
            .call(target: WireAddress(node: "b", controller: "T", incarnation: 1), code: .select, arguments: [.int(1), .none]),
            correlationID: 15, lamport: 40, step: 4)),
        ("return-every-tag", WireMessage(
            .return(.ok([
                .none, .bool(true), .int(-2), .double(0.5), .string("é"), .size(Size(320, 568)), .traits(.unspecified),
                .address(WireAddress(node: "a", controller: "R", incarnation: 1)),
                .eventRef(WireEventRef(node: "a", sequence: 1)),
                .transition(WireTransition(
                    id: 1, animated: false, duration: 0.25,
                    windowTraits: TraitCollection(
                        horizontalSizeClass: .regular, verticalSizeClass: .compact, userInterfaceIdiom: .pad, displayScale: 3,
                        layoutDirection: .rightToLeft, userInterfaceStyle: .dark,
                        preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge),
                    windowSize: Size(1366, 1024))),
                .longString("long"),
                .list([.int(1), .list([]), .string("x")]),
            ])),
            correlationID: 16, lamport: 41, step: 4)),
    ]

    /// The TWP/1.1 vectors (frames, SPEC §3.9): a `layout` CALL carrying a rect and the results of
    /// `presentationState`, which carry two. Their bytes are written out here by hand, field by
    /// field from the layouts of Protocols/wire-protocol.md §5, §6.2 and §6.4 (not copied from the
    /// encoder), and the document quotes them in §12.3. They have no file in `Protocols/vectors/wire`
    /// (yet): the tests compare the codec with these strings.
    static let handWritten: [(name: String, message: WireMessage, frames: [String])] = [
        ("call-layout", WireMessage(
            .call(target: c2, code: .layout, arguments: [
                .rect(Rect(x: 321, y: 0, width: 703, height: 768)),
                .eventRef(WireEventRef(node: "a", sequence: 42)),
            ]),
            correlationID: 17, lamport: 44, step: 5),
         [
            hex("5452", "01", "00", "10", "00", "0000",  // "TR", major 1, minor 0, CALL, flags, reserved
                "0000000000000011", "000000000000002c", "00000005", "00000000"),  // corr 17, clock 44, step 5, reserved
            hex("0001", "62", "0002", "4332", "00000001",  // target b / C2 / 1
                "04", "02",  // layout, 2 values
                "0c", "4074100000000000", "0000000000000000",  // rect: x 321, y 0,
                "4085f80000000000", "4088000000000000",  // width 703, height 768 (SPEC §3.2's divider)
                "08", "0001", "61", "000000000000002a"),  // cause: eventref a#42
         ]),
        ("return-ok-presentation-state", WireMessage(
            .return(.ok([
                .bool(false), .string("P"), .string("formSheet"), .bool(false),
                .rect(Rect(x: 0, y: 0, width: 1024, height: 768)),
                .rect(Rect(x: 242, y: 74, width: 540, height: 620)),
            ])),
            correlationID: 18, lamport: 47, step: 5),
         [
            hex("5452", "01", "00", "11", "00", "0000",  // "TR", major 1, minor 0, RETURN, flags, reserved
                "0000000000000012", "000000000000002f", "00000005", "00000000"),  // corr 18, clock 47, step 5, reserved
            hex("00", "06",  // ok, 6 values
                "01", "00",  // removesPresenterViews false
                "04", "0001", "50",  // displayedID "P"
                "04", "0009", "666f726d5368656574",  // style "formSheet"
                "01", "00",  // coversContext false
                "0c", "0000000000000000", "0000000000000000",  // containerViewBounds: x 0, y 0,
                "4090000000000000", "4088000000000000",  // width 1024, height 768
                "0c", "406e400000000000", "4052800000000000",  // presentedViewFrame: x 242, y 74,
                "4080e00000000000", "4083600000000000"),  // width 540, height 620
         ]),
    ]

    /// Vector name → the bytes of its body before optional trailing fields, for the vectors that
    /// have them: a cut after these is a message without (the rest of) the tail, not an error.
    static let requiredBodyBytes: [String: Int] = [
        "setup-behaviors": WireBody.setup(
            runID: "golden-run", node: "b", scenarioJSON: namedScenario, heartbeatIntervalMilliseconds: 250,
            peerGoneTimeoutMilliseconds: 2000).encode().count,
    ]

    /// Hex fields written one after the other.
    static func hex(_ fields: String...) -> String { fields.joined() }

    /// Every message the vectors describe: the files' and the hand-written ones.
    static var allMessages: [WireMessage] { all.map(\.message) + handWritten.map(\.message) }

    /// File name → the messages a BATCH vector holds, in order (TWP/1 §7.9): each vector named
    /// here is also one of `all`, so the batch repeats their bytes as entries.
    static let batches: [(name: String, entries: [String])] = [
        ("batch", ["return-ok-empty", "call-select", "heartbeat"]),
    ]

    /// The messages of a batch vector.
    static func batchMessages(_ entries: [String]) -> [WireMessage] {
        entries.compactMap { entry in all.first { $0.name == entry }?.message }
    }

    /// Every vector file's name.
    static var allNames: [String] { all.map(\.name) + batches.map(\.name) }

    /// The two frames of a vector file: two lines of lowercase hex, the second empty for an empty body.
    static func frames(named name: String) throws -> [[UInt8]] {
        let url = vectorDirectory.appendingPathComponent(name + ".hex")
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard lines.count == 2 else { throw VectorFileError(file: name, problem: "\(lines.count) lines, expected 2") }
        return try lines.map { line in
            guard let bytes = Hex.decode(line) else { throw VectorFileError(file: name, problem: "not lowercase hex: \(line)") }
            return bytes
        }
    }
}

/// A golden vector file that is not two lines of hex.
struct VectorFileError: Error, CustomStringConvertible {
    var file: String
    var problem: String
    var description: String { "\(file).hex: \(problem)" }
}

/// Lowercase hexadecimal without separators, as the vector files hold it.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    static func decode(_ text: String) -> [UInt8]? {
        let values = text.utf8.map { character -> UInt8? in
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        guard values.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < values.count {
            guard let high = values[index], let low = values[index + 1] else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
