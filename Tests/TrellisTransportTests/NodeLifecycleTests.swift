import Testing
import TrellisTransport
@testable import TrellisDistributed

/// The conductor's node lifecycle (SPEC §7, TWP/1 §9.1), transition by transition, without
/// sockets or processes: every event in every state of a worker, the ones that cannot happen
/// included (they change nothing), and the phases of the run.
struct NodeLifecycleTests {
    typealias State = NodeLifecycle.State

    /// The states a worker can be in, each reached the way the conductor reaches it.
    enum Reached: CaseIterable, Sendable {
        case launched, silent, greeted, settingUp, ready, setupFailed, lostBeforeGreeting, lostAfterGreeting

        var state: State {
            switch self {
            case .launched: return .launched
            case .silent: return .silent(reason: "no heartbeat")
            case .greeted: return .greeted
            case .settingUp: return .settingUp(correlation: 7)
            case .ready: return .ready
            case .setupFailed: return .setupFailed
            case .lostBeforeGreeting: return .lost(why: "exited with status 1", greeted: false)
            case .lostAfterGreeting: return .lost(why: "exited with status 1", greeted: true)
            }
        }
    }

    /// A run conducted by `a` with workers `b` and `c`, keeping at most two strangers.
    static func lifecycle() -> NodeLifecycle {
        NodeLifecycle(conductor: "a", workers: ["b", "c"], strangersKept: 2)
    }

    /// A lifecycle in which worker `b` is in `reached`, got there by the events that lead there.
    static func lifecycle(_ reached: Reached) -> NodeLifecycle {
        var machine = lifecycle()
        switch reached {
        case .launched: break
        case .silent: _ = machine.fellSilent("b", reason: "no heartbeat")
        case .greeted: _ = machine.greeting(from: "b", announced: "")
        case .settingUp, .ready, .setupFailed:
            _ = machine.greeting(from: "b", announced: "")
            _ = machine.beginSetup(of: "b", correlation: 7)
            if reached == .ready { machine.endSetup(of: "b", ready: true) }
            if reached == .setupFailed { machine.endSetup(of: "b", ready: false) }
        case .lostBeforeGreeting: _ = machine.lost("b", why: "exited with status 1")
        case .lostAfterGreeting:
            _ = machine.greeting(from: "b", announced: "")
            _ = machine.lost("b", why: "exited with status 1")
        }
        return machine
    }

    @Test(arguments: Reached.allCases)
    func eachStateIsReachedByItsEvents(_ reached: Reached) {
        let machine = Self.lifecycle(reached)
        #expect(machine.state(of: "b") == reached.state)
        #expect(machine.state(of: "c") == .launched)
        #expect(machine.phase == .starting)
    }

    @Test(arguments: Reached.allCases)
    func greetingInEachState(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        let action = machine.greeting(from: "b", announced: "ipc:///tmp/b.sock")
        let expected: (NodeLifecycle.GreetingAction, State)
        switch reached {
        case .launched:
            expected = (.greetBack("b", thenFail: nil), .greeted)
        case .silent:
            // Declared gone before its greeting was handled: greeted back, then lost.
            expected = (.greetBack("b", thenFail: .setup("node b is gone (no heartbeat)")), .lost(why: "is gone (no heartbeat)", greeted: true))
        case .lostBeforeGreeting:
            // Its loss ended the start already; greeted back, it is told goodbye.
            expected = (.greetBack("b", thenFail: nil), .lost(why: "exited with status 1", greeted: true))
        case .greeted, .settingUp, .ready, .setupFailed, .lostAfterGreeting:
            expected = (.none, reached.state)  // greeted once only
        }
        #expect(action == expected.0)
        #expect(machine.state(of: "b") == expected.1)
        #expect(machine.hasGreeted("b"))
    }

    @Test(arguments: Reached.allCases)
    func lossInEachState(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        let action = machine.lost("b", why: "exited with status 3")
        let failure = NodeLifecycle.Failure.setup("node b exited with status 3")
        let expected: (NodeLifecycle.LossAction, State)
        switch reached {
        case .launched, .silent, .lostBeforeGreeting:
            expected = (.fail(failure, answeringSetup: nil), .lost(why: "exited with status 3", greeted: false))
        case .greeted, .lostAfterGreeting:
            expected = (.fail(failure, answeringSetup: nil), .lost(why: "exited with status 3", greeted: true))
        case .settingUp:
            // The wait for its READY ends too.
            expected = (.fail(failure, answeringSetup: 7), .lost(why: "exited with status 3", greeted: true))
        case .ready, .setupFailed:
            expected = (.none, reached.state)
        }
        #expect(action == expected.0)
        #expect(machine.state(of: "b") == expected.1)
    }

    @Test(arguments: Reached.allCases)
    func silenceInEachState(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        let action = machine.fellSilent("b", reason: "silent for 2 s")
        let fault = "node b is gone: silent for 2 s"
        let lost = NodeLifecycle.Failure.setup("node b is gone (silent for 2 s)")
        let expected: (NodeLifecycle.SilenceAction, State)
        switch reached {
        case .launched, .silent:
            // Kept until its greeting is handled.
            expected = (.fault(fault, then: .none), .silent(reason: "silent for 2 s"))
        case .lostBeforeGreeting:
            expected = (.fault(fault, then: .none), reached.state)
        case .greeted, .lostAfterGreeting:
            expected = (.fault(fault, then: .fail(lost, answeringSetup: nil)), .lost(why: "is gone (silent for 2 s)", greeted: true))
        case .settingUp:
            expected = (.fault(fault, then: .fail(lost, answeringSetup: 7)), .lost(why: "is gone (silent for 2 s)", greeted: true))
        case .ready, .setupFailed:
            expected = (.fault(fault, then: .none), reached.state)
        }
        #expect(action == expected.0)
        #expect(machine.state(of: "b") == expected.1)
    }

    @Test(arguments: Reached.allCases)
    func beginningASetupInEachState(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        let action = machine.beginSetup(of: "b", correlation: 9)
        switch reached {
        case .greeted:
            #expect(action == .send)
            #expect(machine.state(of: "b") == .settingUp(correlation: 9))
        case .lostBeforeGreeting, .lostAfterGreeting:
            #expect(action == .fail(.setup("node b exited with status 1 before it was ready")))
            #expect(machine.state(of: "b") == reached.state)
        case .launched, .silent, .settingUp, .ready, .setupFailed:
            // Cannot happen (every worker greeted before the first SETUP, each sent once):
            // the start fails rather than wait for a READY that is not coming.
            guard case let .fail(.setup(text)) = action else {
                Issue.record("expected a failure, got \(action)")
                return
            }
            #expect(text.hasPrefix("node b cannot be sent a SETUP now"))
            #expect(machine.state(of: "b") == reached.state)
        }
    }

    @Test(arguments: Reached.allCases, [true, false])
    func endingASetupInEachState(_ reached: Reached, ready: Bool) {
        var machine = Self.lifecycle(reached)
        machine.endSetup(of: "b", ready: ready)
        switch reached {
        case .settingUp:
            #expect(machine.state(of: "b") == (ready ? .ready : .setupFailed))
        case .launched, .silent, .greeted, .ready, .setupFailed, .lostBeforeGreeting, .lostAfterGreeting:
            #expect(machine.state(of: "b") == reached.state)  // lost meanwhile, or never sent
        }
    }

    @Test(arguments: Reached.allCases)
    func whoHasGreetedAndWhoIsAwaited(_ reached: Reached) {
        let machine = Self.lifecycle(reached)
        let greeted: Bool
        switch reached {
        case .launched, .silent, .lostBeforeGreeting: greeted = false
        case .greeted, .settingUp, .ready, .setupFailed, .lostAfterGreeting: greeted = true
        }
        #expect(machine.hasGreeted("b") == greeted)
        #expect(machine.notGreeted == (greeted ? ["c"] : ["b", "c"]))
    }

    @Test func aFullStartGoesFromLaunchedToReady() {
        var machine = Self.lifecycle()
        #expect(machine.greeting(from: "c", announced: "") == .greetBack("c", thenFail: nil))
        #expect(machine.greeting(from: "b", announced: "") == .greetBack("b", thenFail: nil))
        #expect(machine.notGreeted.isEmpty)
        for (node, correlation) in [("b", UInt64(1)), ("c", 2)] {
            #expect(machine.beginSetup(of: node, correlation: correlation) == .send)
            machine.endSetup(of: node, ready: true)
            #expect(machine.state(of: node) == .ready)
        }
        machine.allSetUp()
        #expect(machine.phase == .setUp)
    }

    // MARK: Phases

    @Test(arguments: Reached.allCases)
    func onceSetUpNothingHeardEndsTheStart(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        machine.allSetUp()
        #expect(machine.phase == .setUp)
        #expect(machine.lost("b", why: "exited with status 1") == .none)
        #expect(machine.greeting(from: "b", announced: "") == .none)
        // A stranger no longer ends the start: it is refused, and the run goes on.
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .refuseStranger("x", greetBackAt: "ipc:///x"))
        #expect(machine.strangerMistake == nil)
        #expect(machine.handshakeFailed("b", .wrongKey, conductorKey: "K") == nil)
        #expect(machine.refused(key: "K", publicKeys: [:]) == nil)
        #expect(machine.beginSetup(of: "c", correlation: 1) != .send)
        #expect(machine.state(of: "b") == reached.state)
    }

    @Test(arguments: Reached.allCases)
    func afterTheShutdownNothingHeardChangesAnything(_ reached: Reached) {
        var machine = Self.lifecycle(reached)
        machine.shutDown()
        machine.allSetUp()  // the shutdown is for good
        #expect(machine.phase == .shutDown)
        #expect(machine.lost("b", why: "exited with status 1") == .none)
        #expect(machine.greeting(from: "b", announced: "") == .none)
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .none)
        #expect(machine.handshakeFailed(nil, .mechanismMismatch, conductorKey: "K") == nil)
        #expect(machine.refused(key: "K", publicKeys: [:]) == nil)
        #expect(machine.state(of: "b") == reached.state)
    }

    @Test func aSilenceAfterTheStartIsStillAFaultButNoLongerEndsIt() {
        var machine = Self.lifecycle(.ready)
        machine.allSetUp()
        #expect(machine.fellSilent("b", reason: "r") == .fault("node b is gone: r", then: .none))
        machine.shutDown()
        #expect(machine.fellSilent("c", reason: "r") == .fault("node c is gone: r", then: .none))
    }

    @Test func eventsAboutNodesThatAreNoWorkersChangeNothing() {
        var machine = Self.lifecycle()
        #expect(machine.lost("a", why: "exited") == .none)  // the conductor
        #expect(machine.lost("x", why: "exited") == .none)
        #expect(machine.fellSilent("x", reason: "r") == .none)  // a stranger that hung up
        #expect(machine.beginSetup(of: "x", correlation: 1) != .send)
        machine.endSetup(of: "x", ready: true)
        #expect(machine.state(of: "x") == nil)
        #expect(machine.notGreeted == ["b", "c"])
    }

    // MARK: Strangers

    @Test func theFirstStrangerEndsTheStartAndAtMostTheKeptOnesAreGreetedBack() {
        var machine = Self.lifecycle()
        let mistake = NodeLifecycle.Failure.mistake(
            "node x greeted the conductor, but the scenario's placement has no node x (its nodes: a, b, c; a conducts)")
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .stranger("x", greetBackAt: "ipc:///x", failure: mistake))
        #expect(machine.greeting(from: "y", announced: "ipc:///y") == .stranger("y", greetBackAt: "ipc:///y", failure: nil))
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .none)  // kept already
        #expect(machine.greeting(from: "z", announced: "ipc:///z") == .none)  // beyond the two kept
        #expect(machine.greeting(from: "w", announced: "") == .none)  // says nowhere to greet it back
        #expect(machine.strangers == ["x": "ipc:///x", "y": "ipc:///y"])
        #expect(machine.strangersNotKept == 1)
        #expect(machine.notGreeted == ["b", "c"])
    }

    @Test func aStrangerThatSaysNotWhereItListensIsNamedButNotGreetedBack() {
        var machine = Self.lifecycle()
        guard case let .stranger("x", nil, failure?) = machine.greeting(from: "x", announced: "") else {
            Issue.record("expected the first stranger's mistake")
            return
        }
        #expect(failure.error.description.contains("has no node x"))
        #expect(machine.strangers.isEmpty && machine.strangersNotKept == 0)
    }

    @Test func aStrangerThatGreetsWhileTheSetupsAreUnderWayIsStillTheStartsMistake() {
        var machine = Self.lifecycle()
        _ = machine.greeting(from: "b", announced: "")
        #expect(machine.beginSetup(of: "b", correlation: 1) == .send)
        guard case let .stranger("x", "ipc:///x", failure?) = machine.greeting(from: "x", announced: "ipc:///x") else {
            Issue.record("expected the first stranger's mistake")
            return
        }
        // Nobody waits for greetings any more: the start reads it from here once the SETUPs end.
        #expect(machine.strangerMistake == failure)
    }

    @Test func aStrangerThatGreetsOnceTheRunIsSetUpIsRefusedAtOnceAndTheRunGoesOn() {
        var machine = Self.lifecycle()
        machine.allSetUp()
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .refuseStranger("x", greetBackAt: "ipc:///x"))
        #expect(machine.greeting(from: "x", announced: "ipc:///x") == .none)  // refused already
        #expect(machine.greeting(from: "w", announced: "") == .none)  // says nowhere to reach it
        #expect(machine.greeting(from: "b", announced: "ipc:///b") == .none)  // a worker greeting again
        #expect(machine.strangerMistake == nil)
        #expect(machine.strangers == ["x": "ipc:///x"])
        machine.shutDown()
        #expect(machine.greeting(from: "y", announced: "ipc:///y") == .none)
    }

    @Test func aPlacementWithoutWorkersSaysSo() {
        var machine = NodeLifecycle(conductor: "a", workers: [], strangersKept: 1)
        #expect(machine.greeting(from: "x", announced: "") == .stranger(
            "x", greetBackAt: nil, failure: .mistake("node x greeted the conductor, but the scenario's placement has no node x (its nodes: a; a conducts)")))
    }

    // MARK: Handshakes and refused keys

    @Test func eachFailedHandshakeWhileStartingIsNamedOrLeftToWhatSaysMore() {
        let machine = Self.lifecycle()
        // Left: the ZAP refusal is said with the key (`refused`); a hang-up says nothing certain.
        #expect(machine.handshakeFailed(nil, .keyRefused(status: 400), conductorKey: "K") == nil)
        #expect(machine.handshakeFailed(nil, .other(code: nil), conductorKey: "K") == nil)
        #expect(machine.handshakeFailed("b", .other(code: nil), conductorKey: "K") == nil)
        let named: [(String?, HandshakeFailure, String)] = [
            (nil, .wrongKey, "a node tried to connect to the conductor a with a public key for it that is not a's (a's own is K) (not greeted yet: b, c): that node was given another a.pub"),
            (nil, .mechanismMismatch, "a node connected to the conductor a without CURVE, which this run uses (not greeted yet: b, c): every node of a run uses CURVE, or none does"),
            (nil, .other(code: 2), "a node's handshake with the conductor a failed: \(HandshakeFailure.other(code: 2))"),
            ("b", .keyRefused(status: 400), "node b refused the conductor's CURVE key: a's public key K is not among the keys given to node b"),
            ("b", .mechanismMismatch, "node b does not use CURVE, which this run uses: every node of a run uses CURVE, or none does"),
            ("b", .wrongKey, "the CURVE handshake with node b failed: \(HandshakeFailure.wrongKey)"),
        ]
        for (peer, failure, text) in named {
            #expect(machine.handshakeFailed(peer, failure, conductorKey: "K") == .mistake(text))
        }
    }

    @Test func aRefusedKeyNamesTheWorkersNotGreetedAndTheKeysGiven() {
        var machine = Self.lifecycle()
        _ = machine.greeting(from: "b", announced: "")
        let keys = ["a": "KA", "b": "KB", "c": "KC"]
        #expect(machine.refused(key: "KX", publicKeys: keys) == .mistake(
            "a node presented the CURVE public key KX, which is not among the keys given to the conductor a (not greeted yet: c; the keys given: b KB, c KC)"))
        _ = machine.greeting(from: "c", announced: "")
        #expect(machine.refused(key: "KX", publicKeys: keys) == .mistake(
            "a node presented the CURVE public key KX, which is not among the keys given to the conductor a"))
    }
}

/// Issue 27, item 2: a mistake heard on the conductor's inbox names the workers not greeted
/// when it is named (after the others had a moment to greet), and a conductor without CURVE
/// names only a node with CURVE.
struct InboxMistakeTests {
    static func lifecycle() -> NodeLifecycle {
        NodeLifecycle(conductor: "a", workers: ["b", "c"], strangersKept: 2)
    }

    @Test func aMistakeOnTheInboxNamesOnlyTheWorkersStillNotGreeted() {
        var machine = Self.lifecycle()
        _ = machine.greeting(from: "b", announced: "")
        let keys = ["a": "KA", "b": "KB", "c": "KC"]
        #expect(machine.named(.refused(key: "KX"), conductorKey: "KA", usesCurve: true, publicKeys: keys) == .mistake(
            "a node presented the CURVE public key KX, which is not among the keys given to the conductor a (not greeted yet: c; the keys given: b KB, c KC)"))
        #expect(machine.named(.handshake(.mechanismMismatch), conductorKey: "KA", usesCurve: true, publicKeys: keys) == .mistake(
            "a node connected to the conductor a without CURVE, which this run uses (not greeted yet: c): every node of a run uses CURVE, or none does"))
        #expect(machine.named(.handshake(.wrongKey), conductorKey: "KA", usesCurve: true, publicKeys: keys) == .mistake(
            "a node tried to connect to the conductor a with a public key for it that is not a's (a's own is KA) (not greeted yet: c): that node was given another a.pub"))
        machine.shutDown()
        #expect(machine.named(.refused(key: "KX"), conductorKey: "KA", usesCurve: true, publicKeys: keys) == nil)
    }

    @Test func aConductorWithoutCurveNamesOnlyANodeWithIt() {
        let machine = Self.lifecycle()
        #expect(machine.handshakeFailed(nil, .mechanismMismatch, conductorKey: "", usesCurve: false) == .mistake(
            "a node connected to the conductor a with CURVE, which this run does not use (not greeted yet: b, c): every node of a run uses CURVE, or none does (give the conductor --keys FOLDER too, or start the node without)"))
        #expect(machine.handshakeFailed("b", .mechanismMismatch, conductorKey: "", usesCurve: false) == .mistake(
            "node b uses CURVE, which this run does not use: every node of a run uses CURVE, or none does (give the conductor --keys FOLDER too, or start the node without)"))
        // A plain inbox hears garbage too: nothing else is a mistake of the run.
        for failure: HandshakeFailure in [.other(code: nil), .other(code: 0x11), .wrongKey, .keyRefused(status: 400)] {
            #expect(machine.handshakeFailed(nil, failure, conductorKey: "", usesCurve: false) == nil)
            #expect(machine.handshakeFailed("b", failure, conductorKey: "", usesCurve: false) == nil)
        }
    }
}

/// Issue 27, item 2: a worker blames its own key for its conductor only on evidence that is its
/// own — the conductor hanging up on attempt after attempt, never heard.
struct HandshakeEvidenceTests {
    @Test func repeatedHangUpsFromAConductorNeverHeardBlameTheKey() {
        var evidence = HandshakeEvidence()
        for _ in 1..<HandshakeEvidence.hangUpsForWrongKey { #expect(evidence.hungUp() == .wait) }
        #expect(evidence.hungUp() == .wrongKey)
        #expect(evidence.hangUps == HandshakeEvidence.hangUpsForWrongKey)
    }

    @Test func aHangUpAndAnUnknownKeyOnTheInboxBlameTheKey() {
        var evidence = HandshakeEvidence()
        #expect(evidence.unknownKeyTried() == .wait)  // before any hang-up: anybody's
        #expect(evidence.hungUp() == .wrongKey)
        var other = HandshakeEvidence()
        #expect(other.hungUp() == .wait)
        #expect(other.unknownKeyTried() == .wrongKey)
    }

    @Test func aHangUpAndAPlainClientOnTheInboxSayTheConductorHasNoCurve() {
        var evidence = HandshakeEvidence()
        #expect(evidence.hungUp() == .wait)
        #expect(evidence.plainClientTried() == .noCurve)
        var heard = HandshakeEvidence()
        #expect(heard.hungUp() == .wait)
        heard.heardFromPeer()
        #expect(heard.plainClientTried() == .wait)
        #expect(heard.unknownKeyTried() == .wait)
    }

    @Test func aConductorHeardIsNeverBlamedOnTheKey() {
        var evidence = HandshakeEvidence()
        #expect(evidence.hungUp() == .wait)  // a conductor ending its run hangs up once
        evidence.heardFromPeer()  // its goodbye came through this node's inbox
        for _ in 0..<10 { #expect(evidence.hungUp() == .wait) }
        #expect(evidence.heard)
    }
}
