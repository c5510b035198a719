import Foundation
import Testing
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
        #expect(Set(files) == Set(GoldenVectors.all.map(\.name)))
        let required = ["hello", "setup", "ready", "call-view-will-transition", "return-ok-empty", "return-ok-snapshot",
                        "return-fault", "heartbeat", "goodbye", "goodbye-ack", "error", "trace-data"]
        #expect(Set(required).isSubset(of: Set(files)))
    }

    @Test("the vectors use every command and every value tag")
    func vectorsCoverTheFormat() {
        let commands = Set(GoldenVectors.all.map(\.message.header.command))
        #expect(commands == Set(WireCommand.allCases))
        var tags = Set<WireValueTag>()
        func collect(_ value: WireValue) {
            tags.insert(value.tag)
            if case .list(let items) = value { items.forEach(collect) }
        }
        for (_, message) in GoldenVectors.all {
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
        for (name, _) in GoldenVectors.all {
            let frames = try GoldenVectors.frames(named: name)
            #expect(quoted[name] == frames.map(Hex.encode), "\(name).hex in Protocols/wire-protocol.md §12.2")
        }
        #expect(quoted.count == GoldenVectors.all.count)
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
}
