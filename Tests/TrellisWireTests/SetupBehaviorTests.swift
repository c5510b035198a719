import Testing
import TrellisWire

/// SETUP's behaviour names (TWP/1 §7.2, 1.3): an optional tail after the peers, read when it
/// reads and ignored like trailing bytes when it does not.
@Suite struct SetupBehaviorTests {
    static let named = [WireBehavior(.viewController, "SideBySide"), WireBehavior(.presentationController, "Overlay")]

    static func setup(peers: [WirePeer] = [], behaviors: [WireBehavior]) -> WireBody {
        .setup(runID: "r", node: "b", scenarioJSON: "{}", heartbeatIntervalMilliseconds: 250,
               peerGoneTimeoutMilliseconds: 2000, peers: peers, behaviors: behaviors)
    }

    @Test("behaviours without peers and with peers read back as written")
    func roundTrips() throws {
        for peers in [[], [WirePeer(node: "a", endpoint: "ipc:///a"), WirePeer(node: "b", endpoint: "tcp://h:1", publicKey: "k")]] {
            let body = Self.setup(peers: peers, behaviors: Self.named)
            #expect(try WireBody.decode(.setup, body.encode()) == body)
        }
    }

    @Test("without behaviours, a SETUP is the 1.2 bytes: no empty list is written")
    func noBehavioursNoBytes() {
        let plain = WireBody.setup(runID: "r", node: "b", scenarioJSON: "{}", heartbeatIntervalMilliseconds: 250, peerGoneTimeoutMilliseconds: 2000)
        #expect(Self.setup(behaviors: []).encode() == plain.encode())
        // With behaviours and no peers, an empty peer list (0000) comes first.
        let bytes = Self.setup(behaviors: [WireBehavior(.adaptiveDelegate, "D")]).encode()
        #expect(Array(bytes.suffix(8)) == [0x00, 0x00, 0x00, 0x01, 0x02, 0x00, 0x01, 0x44])
    }

    @Test("the behaviours' types (1.6) follow them and read back; without them the 1.5 bytes; a list that does not read is ignored")
    func implementationsRoundTrip() throws {
        let typed = WireBody.setup(runID: "r", node: "b", scenarioJSON: "{}", heartbeatIntervalMilliseconds: 250,
                                   peerGoneTimeoutMilliseconds: 2000, behaviors: Self.named, implementations: ["Runner.Side", "Runner.Over"])
        #expect(try WireBody.decode(.setup, typed.encode()) == typed)
        let bytes = typed.encode()
        #expect(Array(bytes.suffix(2 + 13 + 13)) == [0x00, 0x02] + [0x00, 0x0B] + Array("Runner.Side".utf8) + [0x00, 0x0B] + Array("Runner.Over".utf8))
        #expect(Array(bytes.dropLast(28)) == Self.setup(behaviors: Self.named).encode())
        let broken = Self.setup(behaviors: Self.named).encode() + [0x00, 0x03, 0x00]
        #expect(try WireBody.decode(.setup, broken) == Self.setup(behaviors: Self.named))
    }

    @Test("a behaviour list that does not read is ignored; the peers before it are kept")
    func brokenTailIgnored() throws {
        let peers = [WirePeer(node: "a", endpoint: "ipc:///a")]
        var bytes = Self.setup(peers: peers, behaviors: []).encode()
        bytes += [0x00, 0x05, 0x00, 0x00, 0x01]  // five names announced, one octet of the first name there
        #expect(try WireBody.decode(.setup, bytes) == Self.setup(peers: peers, behaviors: []))
    }

    @Test("a kind octet this version does not define is kept, and names no known kind")
    func unknownKindKept() throws {
        let odd = WireBehavior(kind: 9, name: "Future")
        let decoded = try WireBody.decode(.setup, Self.setup(behaviors: [odd]).encode())
        #expect(decoded == Self.setup(behaviors: [odd]))
        #expect(odd.knownKind == nil)
        #expect(odd.description == "Future (behaviour of kind 9)")
        #expect(Self.named[1].description == "Overlay (presentation-controller behaviour)")
    }

    @Test("a behaviour name longer than a string may be is refused before encoding")
    func overLongNameRefused() {
        let long = WireBehavior(.viewController, String(repeating: "x", count: Int(UInt16.max) + 1))
        #expect(throws: WireError.self) { try WireMessage(Self.setup(behaviors: [long])).validateForEncoding() }
    }
}
