import TrellisTransport

/// Where each worker of a run stands while the conductor starts it (SPEC §7, TWP/1 §9.1), and
/// what the conductor does about each thing it hears: the state machine alone, without sockets,
/// processes or waiting, so that every transition can be checked by itself (`DistributedRun`
/// keeps it and carries out the actions).
///
/// A worker's way through the start:
/// - launched → greeted (its greeting handled) → settingUp (its SETUP sent) → ready (READY), or
///   setupFailed (an ERROR, or nothing in time);
/// - launched → silent (declared gone before its greeting was handled) → lost as soon as its
///   greeting is handled;
/// - any state before ready → lost (it exited, or fell silent after its greeting); a lost worker
///   that greets is still greeted back, so that it is told goodbye.
///
/// A worker that exits or falls silent before it is ready ends the start at once, naming it,
/// rather than at its deadline (a greeting or a READY that cannot come). Once every worker is
/// ready (`allSetUp`) a loss is the run's business (`DistributedRun.stopsAfter`), and neither a
/// stranger's greeting nor a failed handshake is a set-up mistake any more: nobody waits for one.
/// A stranger that greets then is refused at once (`refuseStranger`), and the run goes on.
///
/// Nodes the placement does not have that greet (strangers) are kept, at most `strangersKept`
/// of them, to be told goodbye; the first one ends the start as a mistake.
struct NodeLifecycle {
    /// Where one worker stands.
    enum State: Equatable, Sendable {
        /// Launched, or started by hand: its greeting has not been handled yet.
        case launched
        /// Declared gone before its greeting was handled (on a busy machine the I/O thread may
        /// declare it gone first, and never again): it is lost as soon as its greeting is.
        case silent(reason: String)
        /// Greeted back; its SETUP is not sent yet.
        case greeted
        /// Sent its SETUP, with this correlation id; its READY is awaited.
        case settingUp(correlation: UInt64)
        /// Answered its SETUP with READY.
        case ready
        /// Its SETUP was not answered with READY (an ERROR, or nothing in time): the start failed.
        case setupFailed
        /// Exited or fell silent before it was ready, `why`; `greeted`: after its greeting was
        /// handled (then it is told goodbye, as every node that greeted).
        case lost(why: String, greeted: Bool)
    }

    /// Where the run stands.
    enum Phase: Equatable, Sendable {
        /// Launching, greeting and setting up the workers.
        case starting
        /// Every worker is ready.
        case setUp
        /// The shutdown began: nothing heard changes anything any more.
        case shutDown
    }

    /// Why the start fails: a fault (`trellis run` exits 3) or a mistake in how the run was set
    /// up (exits 2), as `DistributedRunError` says.
    enum Failure: Equatable, Sendable {
        case setup(String)
        case mistake(String)

        var text: String {
            switch self {
            case let .setup(text), let .mistake(text): return text
            }
        }

        var error: DistributedRunError {
            switch self {
            case let .setup(text): return .setup(text)
            case let .mistake(text): return .mistake(text)
            }
        }
    }

    /// What to do about a greeting.
    enum GreetingAction: Equatable, Sendable {
        case none
        /// Greet the worker back (connect to it, HELLO); with `thenFail`, the start then fails
        /// (it fell silent before its greeting was handled).
        case greetBack(String, thenFail: Failure?)
        /// A node the placement does not have: greet it back at `greetBackAt` when it is kept
        /// (so that it can be told goodbye); with `failure` (the first stranger), the start fails.
        case stranger(String, greetBackAt: String?, failure: Failure?)
        /// A node the placement does not have, once the run is set up: the run goes on without
        /// it, and it is greeted back at `greetBackAt` and refused now (ERROR 6 naming it, then
        /// GOODBYE) rather than left waiting for a SETUP that cannot come. Only a kept one.
        case refuseStranger(String, greetBackAt: String)
    }

    /// What to do about a worker lost before it was ready.
    enum LossAction: Equatable, Sendable {
        case none
        /// The start fails; with `answeringSetup`, the wait for its READY ends with that failure.
        case fail(Failure, answeringSetup: UInt64?)
    }

    /// What to do about a peer declared gone.
    enum SilenceAction: Equatable, Sendable {
        /// Not a worker (a stranger that said something and hung up): not a loss, nor remembered.
        case none
        /// A worker: a fault of the run, and what its loss means (`LossAction`).
        case fault(String, then: LossAction)
    }

    /// What to do before sending a worker its SETUP.
    enum SetupAction: Equatable, Sendable {
        case send
        /// Its READY cannot come (lost already, say): the start fails.
        case fail(Failure)
    }

    /// The conductor's node name.
    let conductor: String
    /// Every placement node but the conductor's, in the placement's order.
    let workers: [String]
    /// How many strangers are greeted back and told goodbye; the others are only counted.
    let strangersKept: Int
    private(set) var phase = Phase.starting
    private var states: [String: State]
    /// Strangers greeted back, and where they listen.
    private(set) var strangers: [String: String] = [:]
    /// Strangers that greeted beyond `strangersKept`: neither greeted back nor told goodbye.
    private(set) var strangersNotKept = 0
    /// The first stranger's greeting while starting, the start's mistake (once: that ends the
    /// start, also when it came while the workers' SETUPs were under way).
    private(set) var strangerMistake: Failure?

    init(conductor: String, workers: [String], strangersKept: Int) {
        self.conductor = conductor
        self.workers = workers
        self.strangersKept = strangersKept
        states = Dictionary(workers.map { ($0, State.launched) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where `node` stands; nil for a node that is not a worker.
    func state(of node: String) -> State? { states[node] }

    /// Whether `node`'s greeting was handled (it is then told goodbye at the shutdown).
    func hasGreeted(_ node: String) -> Bool {
        switch states[node] {
        case .greeted?, .settingUp?, .ready?, .setupFailed?: return true
        case let .lost(_, greeted)?: return greeted
        case .launched?, .silent?, nil: return false
        }
    }

    /// The workers whose greeting has not been handled yet, in the placement's order.
    var notGreeted: [String] { workers.filter { !hasGreeted($0) } }

    /// `node` greeted the conductor, saying it listens at `announced` (empty: it did not say).
    mutating func greeting(from node: String, announced: String) -> GreetingAction {
        switch phase {
        case .starting: break
        case .setUp:
            guard states[node] == nil, let greetBackAt = keep(stranger: node, announced: announced) else { return .none }
            return .refuseStranger(node, greetBackAt: greetBackAt)
        case .shutDown: return .none
        }
        guard let state = states[node] else { return strangerGreeting(from: node, announced: announced) }
        switch state {
        case .launched:
            states[node] = .greeted
            return .greetBack(node, thenFail: nil)
        case let .silent(reason):
            let why = "is gone (\(reason))"
            states[node] = .lost(why: why, greeted: true)
            return .greetBack(node, thenFail: .setup("node \(node) \(why)"))
        case let .lost(why, greeted: false):
            // Its loss has ended the start already; greeted back, it is told goodbye.
            states[node] = .lost(why: why, greeted: true)
            return .greetBack(node, thenFail: nil)
        case .greeted, .settingUp, .ready, .setupFailed, .lost(_, greeted: true):
            return .none
        }
    }

    /// A node the placement does not have greeted: the first ends the start (a mistake, named);
    /// the first `strangersKept` that say where they listen are greeted back.
    private mutating func strangerGreeting(from node: String, announced: String) -> GreetingAction {
        let greetBackAt = keep(stranger: node, announced: announced)
        // The first stranger ends the start: the others' mistakes would only pile up unread.
        guard strangerMistake == nil else {
            return greetBackAt.map { .stranger(node, greetBackAt: $0, failure: nil) } ?? .none
        }
        let failure = Failure.mistake(strangerText(node))
        strangerMistake = failure
        return .stranger(node, greetBackAt: greetBackAt, failure: failure)
    }

    /// Keeps the stranger `node` to be told goodbye, at `announced`, while fewer than
    /// `strangersKept` are (the others are only counted); returns where to greet it back, nil
    /// when it is not kept now (kept already, beyond the bound, or it said nowhere).
    private mutating func keep(stranger node: String, announced: String) -> String? {
        guard !announced.isEmpty, strangers[node] == nil else { return nil }
        guard strangers.count < strangersKept else {
            strangersNotKept += 1
            return nil
        }
        strangers[node] = announced
        return announced
    }

    /// What a node the placement does not have is told, on both sides: its name, and the
    /// placement's nodes.
    func strangerText(_ node: String) -> String {
        "node \(node) greeted the conductor, but the scenario's placement has no node \(node) (its nodes: \(([conductor] + workers).joined(separator: ", ")); \(conductor) conducts)"
    }

    /// Worker `node` exited or fell silent (`why`) before the run was set up: the start fails now.
    mutating func lost(_ node: String, why: String) -> LossAction {
        guard phase == .starting, let state = states[node] else { return .none }
        let failure = Failure.setup("node \(node) \(why)")
        switch state {
        case .launched, .silent:
            states[node] = .lost(why: why, greeted: false)
            return .fail(failure, answeringSetup: nil)
        case .greeted:
            states[node] = .lost(why: why, greeted: true)
            return .fail(failure, answeringSetup: nil)
        case let .settingUp(correlation):
            states[node] = .lost(why: why, greeted: true)
            return .fail(failure, answeringSetup: correlation)
        case let .lost(_, greeted):
            // The latest word on it is what its SETUP's turn says.
            states[node] = .lost(why: why, greeted: greeted)
            return .fail(failure, answeringSetup: nil)
        case .ready, .setupFailed:
            // Ready: from now on its loss is the run's (the other workers' SETUPs go on).
            // Failed: the start has failed already.
            return .none
        }
    }

    /// The conductor's transport declared `node` gone for `reason`.
    mutating func fellSilent(_ node: String, reason: String) -> SilenceAction {
        guard let state = states[node] else { return .none }
        let fault = "node \(node) is gone: \(reason)"
        switch state {
        case .launched, .silent:
            states[node] = .silent(reason: reason)
            return .fault(fault, then: .none)
        case .lost(_, greeted: false):
            return .fault(fault, then: .none)
        case .greeted, .settingUp, .ready, .setupFailed, .lost(_, greeted: true):
            return .fault(fault, then: lost(node, why: "is gone (\(reason))"))
        }
    }

    /// The conductor is about to send `node` its SETUP, with `correlation`.
    mutating func beginSetup(of node: String, correlation: UInt64) -> SetupAction {
        switch states[node] {
        case .greeted? where phase == .starting:
            states[node] = .settingUp(correlation: correlation)
            return .send
        case let .lost(why, _)?:
            return .fail(.setup("node \(node) \(why) before it was ready"))
        case .greeted?, .launched?, .silent?, .settingUp?, .ready?, .setupFailed?, nil:
            return .fail(.setup("node \(node) cannot be sent a SETUP now (\(states[node].map { "\($0)" } ?? "not a worker"))"))
        }
    }

    /// The wait for `node`'s answer to its SETUP ended: READY (`ready`), or not.
    mutating func endSetup(of node: String, ready: Bool) {
        switch states[node] {
        case .settingUp?:
            states[node] = ready ? .ready : .setupFailed
        case .launched?, .silent?, .greeted?, .ready?, .setupFailed?, .lost?, nil:
            break  // lost meanwhile (that failure stands), or never sent
        }
    }

    /// Every worker is ready.
    mutating func allSetUp() {
        switch phase {
        case .starting: phase = .setUp
        case .setUp, .shutDown: break
        }
    }

    /// The shutdown began.
    mutating func shutDown() {
        phase = .shutDown
    }

    /// A CURVE mistake heard on the conductor's inbox, where libzmq does not say which node made
    /// it: the conductor lets the others greet for a moment first (`DistributedRun.blameGrace`),
    /// then names it (`named`) with the workers still not greeted.
    enum InboxMistake: Equatable, Sendable {
        /// The ZAP handler refused this key.
        case refused(key: String)
        /// A handshake on the inbox failed so.
        case handshake(HandshakeFailure)
    }

    /// The text of an inbox mistake now, naming the workers that have not greeted; nil once
    /// the start is over.
    func named(_ mistake: InboxMistake, conductorKey: String, usesCurve: Bool, publicKeys: [String: String]) -> Failure? {
        switch mistake {
        case let .refused(key): return refused(key: key, publicKeys: publicKeys)
        case let .handshake(failure): return handshakeFailed(nil, failure, conductorKey: conductorKey, usesCurve: usesCurve)
        }
    }

    /// Who has not greeted yet, as a mistake heard on the inbox names them: the node that made
    /// it is among them (issue 27: never a node that greeted, whose keys are right).
    private var notGreetedYet: String {
        notGreeted.isEmpty ? "" : " (not greeted yet: \(notGreeted.joined(separator: ", ")))"
    }

    /// A CURVE handshake of the conductor's with `peer` (nil: a client of its inbox, unnamed)
    /// failed: while starting, the run cannot start as given, and the mistake is named at once.
    /// `conductorKey`: the conductor's public key; `usesCurve`: whether the conductor uses CURVE
    /// (without it, its inbox and streams are watched for a node with CURVE only).
    func handshakeFailed(_ peer: String?, _ failure: HandshakeFailure, conductorKey key: String, usesCurve: Bool = true) -> Failure? {
        guard phase == .starting else { return nil }
        guard usesCurve else {
            switch (peer, failure) {
            case (nil, .mechanismMismatch):
                return .mistake("a node connected to the conductor \(conductor) with CURVE, which this run does not use\(notGreetedYet): every node of a run uses CURVE, or none does (give the conductor --keys FOLDER too, or start the node without)")
            case let (node?, .mechanismMismatch):
                return .mistake("node \(node) uses CURVE, which this run does not use: every node of a run uses CURVE, or none does (give the conductor --keys FOLDER too, or start the node without)")
            case (_, .keyRefused), (_, .wrongKey), (_, .mechanismMismatch), (_, .other):
                return nil  // a plain inbox hears garbage too: only CURVE on one side is a mistake
            }
        }
        switch (peer, failure) {
        case (nil, .keyRefused):
            return nil  // the ZAP handler's refusal, reported with the key (`refused`)
        case (_, .other(code: nil)):
            return nil  // a peer that hung up during a handshake: starting or stopping, nothing certain
        case (nil, .wrongKey):
            return .mistake("a node tried to connect to the conductor \(conductor) with a public key for it that is not \(conductor)'s (\(conductor)'s own is \(key))\(notGreetedYet): that node was given another \(conductor).pub")
        case (nil, .mechanismMismatch):
            return .mistake("a node connected to the conductor \(conductor) without CURVE, which this run uses\(notGreetedYet): every node of a run uses CURVE, or none does")
        case (nil, _):
            return .mistake("a node's handshake with the conductor \(conductor) failed: \(failure)")
        case let (node?, .keyRefused):
            return .mistake("node \(node) refused the conductor's CURVE key: \(conductor)'s public key \(key) is not among the keys given to node \(node)")
        case let (node?, .mechanismMismatch):
            return .mistake("node \(node) does not use CURVE, which this run uses: every node of a run uses CURVE, or none does")
        case let (node?, _):
            return .mistake("the CURVE handshake with node \(node) failed: \(failure)")
        }
    }

    /// The conductor's ZAP handler refused a CURVE client presenting `key`: while starting, the
    /// run cannot start (that node would never greet), and the mistake is named at once, with
    /// the keys given (`publicKeys`, by node) when a worker has not greeted yet.
    func refused(key: String, publicKeys: [String: String]) -> Failure? {
        guard phase == .starting else { return nil }
        let missing = notGreeted
        var text = "a node presented the CURVE public key \(key), which is not among the keys given to the conductor \(conductor)"
        if !missing.isEmpty {
            text += " (not greeted yet: \(missing.joined(separator: ", ")); the keys given: "
                + publicKeys.filter { $0.key != conductor }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
        }
        return .mistake(text)
    }
}
