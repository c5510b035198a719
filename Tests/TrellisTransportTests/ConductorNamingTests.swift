import Testing
import TrellisWire
@testable import TrellisDistributed

/// How a node started by hand names its conductor (`ConductorNaming`), without processes: each
/// way of naming it wrongly is named, with the stream that reaches the conductor to say it on.
struct ConductorNamingTests {
    static let peers = [WirePeer(node: "main", endpoint: "ipc:///run/main.sock", publicKey: ""),
                        WirePeer(node: "b", endpoint: "ipc:///run/b.sock", publicKey: "")]

    static func mistake(told: String?, greeted: [String: String], from sender: String = "main", for node: String = "b",
                        runConductor: String? = "main") -> ConductorNaming.Mistake? {
        ConductorNaming(told: told, greeted: greeted).mistake(setupFrom: sender, for: node, name: "b", runConductor: { runConductor }, peers: peers)
    }

    @Test("a SETUP that cannot show a mistake is not decoded: a node named rightly, or a SETUP for another node")
    func noDecodeWithoutAPossibleMistake() {
        let naming = ConductorNaming(told: "main", greeted: ["main": "ipc:///run/main.sock"])
        var decoded = 0
        #expect(naming.mistake(setupFrom: "main", for: "b", name: "b", runConductor: { decoded += 1; return "main" }, peers: Self.peers) == nil)
        let wrong = ConductorNaming(told: "wrong", greeted: ["main": "ipc:///run/main.sock"])
        #expect(wrong.mistake(setupFrom: "main", for: "c", name: "b", runConductor: { decoded += 1; return "main" }, peers: Self.peers) == nil)
        #expect(decoded == 0)
        #expect(wrong.mistake(setupFrom: "main", for: "b", name: "b", runConductor: { decoded += 1; return "main" }, peers: Self.peers) != nil)
        #expect(decoded == 1)
    }

    @Test("--conductor naming another node of the run: the refusal goes through the inbox, never to that node")
    func anotherNodeNamedConductor() {
        let peers = Self.peers + [WirePeer(node: "c", endpoint: "ipc:///run/c.sock", publicKey: "")]
        let naming = ConductorNaming(told: "c", greeted: ["c": "ipc:///run/c.sock"])
        let mistake = naming.mistake(setupFrom: "main", for: "b", name: "b", runConductor: { "main" }, peers: peers)
        #expect(mistake?.answerOn == [])
        #expect(mistake?.text.hasPrefix("node b was told its conductor is c, but the run's conductor is main") == true)
    }

    @Test func aConductorNamedRightlyIsNoMistake() {
        #expect(Self.mistake(told: "main", greeted: ["main": "ipc:///run/main.sock"]) == nil)
        #expect(Self.mistake(told: nil, greeted: ["main": "ipc:///run/main.sock"]) == nil)
        // Greeting another worker as well is no mistake.
        #expect(Self.mistake(told: nil, greeted: ["main": "ipc:///run/main.sock", "c": "ipc:///run/c.sock"]) == nil)
    }

    @Test func anotherConductorNameIsAnsweredOnTheStreamThatReachedTheConductor() {
        let text = "node b was told its conductor is wrong, but the run's conductor is main: SETUP from main refused (start the node with --conductor main and --peer main=ENDPOINT)"
        // --peer main, --conductor wrong: the refusal goes on "main", the stream the node greeted it on.
        #expect(Self.mistake(told: "wrong", greeted: ["main": "ipc:///run/main.sock"]) == .init(text: text, answerOn: ["main"]))
        // --peer wrong, --conductor wrong: on "wrong".
        #expect(Self.mistake(told: "wrong", greeted: ["wrong": "ipc:///run/main.sock"]) == .init(text: text, answerOn: ["wrong"]))
    }

    @Test func theConductorGreetedUnderAnotherNameIsNamedWithItsEndpoint() {
        let greeted = ["wrong": "ipc:///run/main.sock"]
        #expect(Self.mistake(told: "main", greeted: greeted) == .init(
            text: "node b greeted the run's conductor main under another name (--peer wrong=ipc:///run/main.sock): SETUP from main refused (start the node with --peer main=ipc:///run/main.sock and --conductor main)",
            answerOn: ["wrong"]))
        #expect(Self.mistake(told: nil, greeted: greeted) == .init(
            text: "node b greeted the run's conductor main under another name (--peer wrong=ipc:///run/main.sock): SETUP from main refused (start the node with --peer main=ipc:///run/main.sock)",
            answerOn: ["wrong"]))
        // Of two names that are not nodes of the run, the one at the conductor's endpoint.
        let two = ["other": "ipc:///elsewhere.sock", "wrong": "ipc:///run/main.sock"]
        #expect(Self.mistake(told: nil, greeted: two)?.answerOn == ["wrong"])
    }

    @Test func onlyTheRunsOwnConductorsSetupForThisNodeNamesAMistake() {
        let greeted = ["wrong": "ipc:///run/main.sock"]
        #expect(Self.mistake(told: "main", greeted: greeted, from: "x", runConductor: "main") == nil)
        #expect(Self.mistake(told: "main", greeted: greeted, runConductor: nil) == nil)  // does not decode
        #expect(Self.mistake(told: "main", greeted: greeted, for: "c") == nil)  // another node's SETUP
    }
}
