import Foundation
import Testing
import TrellisModel
import TrellisTestSupport
@testable import TrellisTransport
import TrellisWire

/// The table of controller calls (`ControllerCalls`) is TWP §8's: the same codes, names,
/// arguments and results, in the same order; and every CALL and RETURN of the golden vectors
/// reads and writes back through it unchanged.
@Suite struct CallTableTests {
    /// One row of §8's table, as the document spells it.
    struct DocumentedCall: Equatable, CustomStringConvertible {
        var code: UInt8
        var name: String
        var arguments: [String]
        var results: [String]
        var description: String { "0x\(String(code, radix: 16)) \(name)(\(arguments.joined(separator: ", "))) -> \(results)" }
    }

    static let document = packageRoot.appendingPathComponent("Protocols/wire-protocol.md")

    /// §8's table rows: `| `0x01` | name | arguments | results | meaning |`, "—" for none.
    static func documentedCalls() throws -> [DocumentedCall] {
        let text = try String(contentsOf: document, encoding: .utf8)
        let section = try #require(text.range(of: "\n## 8. Call codes\n"))
        let end = text.range(of: "\n### 8.1 ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return try text[section.upperBound..<end].split(separator: "\n").filter { $0.hasPrefix("| `0x") }.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let code = try #require(UInt8(cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")).dropFirst(2), radix: 16))
            func list(_ cell: String) -> [String] { cell == "—" ? [] : cell.components(separatedBy: ", ") }
            return DocumentedCall(code: code, name: cells[2], arguments: list(cells[3]), results: list(cells[4]))
        }
    }

    static func tabled(_ code: WireCallCode) -> DocumentedCall {
        let call = ControllerCalls.served(code)
        return DocumentedCall(code: call.code.rawValue, name: call.code.description, arguments: call.arguments, results: call.results)
    }

    @Test("§8's table and ControllerCalls list the same calls, with the same names, arguments and results")
    func tableIsTheDocuments() throws {
        let documented = try Self.documentedCalls()
        #expect(documented.count == WireCallCode.allCases.count)
        #expect(Set(documented.map(\.code)).count == documented.count, "a code twice in §8")
        for row in documented {
            guard let code = WireCallCode(rawValue: row.code) else {
                Issue.record("§8 lists \(row), which WireCallCode does not know")
                continue
            }
            #expect(Self.tabled(code) == row)
        }
        for code in WireCallCode.allCases where !documented.contains(where: { $0.code == code.rawValue }) {
            Issue.record("\(Self.tabled(code)) is not in §8")
        }
    }

    @Test("each code's entry is its own declaration, and its argument count is its arguments'")
    func entriesAreTheirCodes() {
        for code in WireCallCode.allCases {
            let call = ControllerCalls.served(code)
            #expect(call.code == code)
            #expect(call.goesToWindow == (code.rawValue >= 0x60), "\(code): the window's calls are 0x60 and up")
        }
    }

    /// Every message the golden vectors hold: the files of `Protocols/vectors/wire` (a BATCH's
    /// entries too) and the 1.1 vectors §12.3 quotes, by name.
    static func vectorMessages() throws -> [(name: String, message: WireMessage)] {
        let folder = packageRoot.appendingPathComponent("Protocols/vectors/wire")
        var messages: [(String, WireMessage)] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where file.hasSuffix(".hex") {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).prefix(2).map(String.init)
            let frames = try lines.map { try #require(Self.bytes(hex: $0), "\(file)") }
            let name = String(file.dropLast(4))
            if frames.first?[4] == WireCommand.batch.rawValue {
                messages += try WireBatch.decode(frames).map { (name, $0) }
            } else {
                messages.append((name, try WireMessage.decode(frames)))
            }
        }
        let document = try String(contentsOf: Self.document, encoding: .utf8).split(separator: "\n").map(String.init)
        for (index, line) in document.enumerated() where line.hasSuffix(" (header, body)") && index + 2 < document.count {
            let frames = try document[(index + 1)...(index + 2)].map { try #require(Self.bytes(hex: $0), "\(line)") }
            messages.append((String(line.dropLast(" (header, body)".count)), try WireMessage.decode(frames)))
        }
        return messages
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = hex.compactMap(\.hexDigitValue)
        guard digits.count == hex.count, digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0] << 4 | digits[$0 + 1]) }
    }

    @Test("every CALL of the golden vectors has its code's arguments, and reads and writes back unchanged")
    func vectorCallsFollowTheTable() throws {
        let calls = try Self.vectorMessages().compactMap { vector -> (String, WireCallCode, [WireValue])? in
            guard case let .call(_, code, arguments) = vector.message.body else { return nil }
            return (vector.name, code, arguments)
        }
        #expect(Set(calls.map(\.1)).isSuperset(of: [.viewWillTransition, .layout, .setOverrideTraits, .makePresentationController, .select]))
        for (name, code, arguments) in calls {
            let call = ControllerCalls.served(code)
            #expect(arguments.count == call.arguments.count, "\(name)")
            var reader = CallReader(code: code, values: arguments, runNodes: ["a", "b"])
            #expect(try call.roundTrip(&reader) == arguments, "\(name)")
        }
    }

    @Test("the RETURNs of the golden vectors read and write back unchanged as the results of their calls")
    func vectorResultsFollowTheTable() throws {
        // The calls the vectors' RETURNs answer (§12): a 1.0 snapshot has three results, the
        // frame then being its size at (0,0).
        let answered: [String: (WireCallCode, [WireValue])] = [
            "return-ok-empty": (.viewWillTransition, []),
            "return-ok-address": (.makePresentationController, []),
            "return-ok-presentation-state": (.presentationState, []),
            "return-ok-snapshot": (.snapshot, [.rect(Rect(x: 0, y: 0, width: 568, height: 320))]),
        ]
        let vectors = try Self.vectorMessages()
        for (name, (code, added)) in answered {
            let message = try #require(vectors.first { $0.name == name }?.message, "\(name)")
            guard case let .return(.ok(values)) = message.body else {
                Issue.record("\(name) is not a RETURN ok")
                continue
            }
            var reader = CallReader(code: code, values: values, runNodes: [])
            #expect(try ControllerCalls.served(code).roundTripResults(&reader) == values + added, "\(name)")
            #expect(values.count + added.count == ControllerCalls.served(code).results.count, "\(name)")
        }
    }
}
