import TrellisTransport
import TrellisTrace
import TrellisTraceFiles
import TrellisWire

/// What the conductor gathered of its workers' traces (TWP/1 §9.7), apart from the waiting
/// (`DistributedRun.mergedEvents`): each worker's events so far, what each answer to a
/// TRACE-REQUEST brought against `limit`, the workers refused, and the losses said.
struct TraceCollection {
    let limit: TraceDataLimit
    /// Each worker's events so far.
    private(set) var events: [String: [TraceEvent]] = [:]
    /// What the workers' TRACE-DATA parts brought so far (for measurements).
    private(set) var statistics = TraceDataStatistics()
    /// Workers whose answer went past `limit`: they are not asked again (each answer could cost
    /// as much), the fault said once.
    private(set) var refused = Set<String>()
    /// The losses of worker traces already reported: each is said once.
    private var reportedLosses = Set<String>()
    /// Workers whose missing steps a fault line already named (a node found gone).
    var lacksNamed = Set<String>()
    /// What each answer brought so far, by reply key, counted as each part arrives: past
    /// `limit` the rest is not even kept, so the parts waiting to be read stay within the
    /// bound too.
    private var tallies: [String: TraceDataLimit.Tally] = [:]
    /// The bound an answer went past, by reply key, and which of its parts went past it.
    private var overruns: [String: (part: Int, exceeded: String)] = [:]

    /// The answers each worker owes, in the order asked: the reply key of each TRACE-REQUEST and
    /// the step at whose end it was sent (0: the initial layout). Taken in that order
    /// (`takeOwed`): a worker answers its requests in order (TWP/1 §9.7).
    private var owed: [String: [(key: String, step: Int)]] = [:]
    /// The step through which each worker's answers were all taken whole (its events of that
    /// step and every one before are in `events`); nil: not even the initial layout's.
    private(set) var completeThrough: [String: Int] = [:]

    /// How many `collectOwed` calls are taking answers now: each took its answers from `owed`
    /// at once and reads them across suspensions, so another reader (an interrupted run's
    /// `eventsReceived`) waits until they have ended (`whenCollected`) rather than miss them.
    private var collecting = 0
    private var waitingForCollections: [CheckedContinuation<Void, Never>] = []

    /// Whether a collection of owed answers is underway.
    var isCollecting: Bool { collecting > 0 }

    /// A collection of owed answers begins.
    mutating func collectionBegins() {
        collecting += 1
    }

    /// A collection ended: once none is left, those waiting for them go on.
    mutating func collectionEnded() {
        collecting -= 1
        guard collecting == 0 else { return }
        let waiting = waitingForCollections
        waitingForCollections = []
        for continuation in waiting { continuation.resume() }
    }

    /// Resumes `continuation` once no collection is underway (at once when none is).
    mutating func whenCollected(_ continuation: CheckedContinuation<Void, Never>) {
        if collecting == 0 { continuation.resume() } else { waitingForCollections.append(continuation) }
    }

    init(limit: TraceDataLimit) {
        self.limit = limit
    }

    /// `node` was sent a TRACE-REQUEST (reply key `key`) at the end of `step`.
    mutating func asked(_ node: String, key: String, step: Int) {
        owed[node, default: []].append((key, step))
        everAsked.insert(node)
    }

    /// The workers sent a TRACE-REQUEST at least once.
    private var everAsked = Set<String>()

    /// Whether `node` was ever asked for its trace: a node interrupted before it was has
    /// nothing missing.
    func wasAsked(_ node: String) -> Bool {
        everAsked.contains(node)
    }

    /// The answers `node` owes, oldest first; they are no longer owed.
    mutating func takeOwed(of node: String) -> [(key: String, step: Int)] {
        owed.removeValue(forKey: node) ?? []
    }

    /// Whether an answer `node` owes went past `limit` already: it is not asked again, even
    /// before that answer is taken (each answer could cost as much).
    func overran(_ node: String) -> Bool {
        owed[node]?.contains { overruns[$0.key] != nil } ?? false
    }

    /// The whole answer to the request sent at the end of `step` was taken from `node`.
    mutating func answered(_ node: String, through step: Int) {
        completeThrough[node] = max(completeThrough[node] ?? step, step)
    }

    /// The first step whose events of `node` may be missing: the one after the last whose
    /// answer was taken whole (0, the initial layout, when none was).
    func missingFrom(_ node: String) -> Int {
        completeThrough[node].map { $0 + 1 } ?? 0
    }

    /// What the merged trace holds of a `node` whose trace stopped coming, and what it lacks,
    /// by step: every event up to the end of the last step whose answer came whole, and any
    /// of the steps after it that came too (a worker may record a few of the next step's
    /// before it answers, or the part of an answer that arrived).
    func holdings(of node: String) -> String {
        let received = events[node] ?? []
        let from = missingFrom(node)
        let rest = "and lacks the rest, from \(Self.stepName(from)) on"
        guard from > 0 else {
            return received.isEmpty ? "the merged trace has none of its events" : "the merged trace has \(received.count) of its events, \(rest)"
        }
        let later = received.count(where: { $0.step >= from })
        let more = later == 0 ? "" : " (\(later) of them from \(Self.stepName(from)) on)"
        return "the merged trace has its \(received.count) events through the end of \(Self.stepName(from - 1))\(more), \(rest)"
    }

    /// How a step is named in what the conductor says: step 0 is the initial layout.
    static func stepName(_ step: Int) -> String {
        step == 0 ? "the initial layout" : "step \(step)"
    }

    /// A part of `messageBytes` arrived for the answer `key`; true when it goes past a bound:
    /// it is handed over only to say so, and nothing after it is kept.
    mutating func tally(messageBytes: Int, for key: String) -> Bool {
        guard let exceeded = tallies[key, default: TraceDataLimit.Tally()].add(messageBytes: messageBytes, within: limit) else {
            return false
        }
        overruns[key] = (tallies[key]?.parts ?? 0, exceeded)
        return true
    }

    /// The bound the answer `key` went past, when its part number `part` is the one that did.
    func overrun(of key: String, atPart part: Int) -> String? {
        guard let overrun = overruns[key], overrun.part == part else { return nil }
        return overrun.exceeded
    }

    /// The answer `key` is done with: its counts go.
    mutating func finish(_ key: String) {
        tallies[key] = nil
        overruns[key] = nil
    }

    /// A part of `node`'s trace was read.
    mutating func add(_ part: TraceDataCodec.Part, from node: String) {
        events[node, default: []].append(contentsOf: part.events)
        statistics.add(part)
    }

    /// How many of `node`'s events arrived.
    func received(from node: String) -> Int { events[node]?.count ?? 0 }

    /// `node` is not asked for its trace again.
    mutating func refuse(_ node: String) {
        refused.insert(node)
    }

    /// True the first time `loss` is said (the trace is collected at each `expect` step and at
    /// the end: each loss is said once).
    mutating func reportLoss(_ loss: String) -> Bool {
        reportedLosses.insert(loss).inserted
    }
}

extension DistributedRun {
    /// What reached the conductor so far, merged by causality, asking no node and waiting for
    /// none: its own events and every node's finished steps (each node ships a step's events as
    /// the step ends; the answers that arrived are taken here). What an interrupted run keeps:
    /// a node whose answers stop short of the last step that ended is a fault line saying what
    /// the trace has of it and lacks.
    /// `ending`: what ended the run, for the fault line of a node whose answers stop short.
    package func eventsReceived(ending: String = "the run was interrupted") async -> [TraceEvent] {
        // The run's own collection (a node it found gone, the merge at an expect step or at the
        // end) may be reading answers it took, across suspensions: each node's collection, and
        // the merge, wait until none is underway.
        for node in workers where !traces.refused.contains(node) {
            await collectOwed(by: node, waiting: false)
            // Only a node asked for its trace is judged (one interrupted in its set-up was not).
            if traces.wasAsked(node), traces.missingFrom(node) <= stepsEnded, !traces.lacksNamed.contains(node) {
                await traceMissing("node \(node)'s trace did not all arrive before \(ending): \(traces.holdings(of: node))")
            }
        }
        await untilNoCollection()
        return TraceMerge.merge([recorder.events] + workers.map { traces.events[$0] ?? [] })
    }

    /// Every node's events so far, merged by causality.
    package func mergedEvents() async -> [TraceEvent] {
        for node in workers {
            guard !traces.refused.contains(node) else { continue }
            // Nothing is lost silently: a node that cannot send its trace is a fault of the run
            // and a fault line in the merged trace, saying what of it arrived — everything it
            // sent as the steps before its loss ended.
            guard !transport.isGone(node) else {
                await collectOwed(by: node, waiting: false)
                let what = stoppedNodes.contains(node) ? "stopped" : "is gone"
                await traceMissing("node \(node) \(what): \(traces.holdings(of: node))")
                continue
            }
            await askForTrace(of: node, atTheEndOf: stepsEnded)
            await collectOwed(by: node, waiting: true)
        }
        return TraceMerge.merge([recorder.events] + workers.map { traces.events[$0] ?? [] })
    }

    /// Sends `node` a TRACE-REQUEST at the end of `step` (TWP/1 §9.7), whose answer is taken
    /// later, in order (`collectOwed`): nothing reads it here. Returns its reply key.
    @discardableResult
    func askForTrace(of node: String, atTheEndOf step: Int) async -> String {
        let correlation = takeCorrelation()
        let key = Self.replyKey(node, correlation)
        awaitedReplies.insert(key)
        traces.asked(node, key: key, step: step)
        await transport.send(.traceRequest, to: node, correlationID: correlation)
        return key
    }

    /// Returns once no collection of owed answers is underway (at once when none is); the
    /// check is made again after each wait, since another may have begun first.
    private func untilNoCollection() async {
        while traces.isCollecting {
            await withCheckedContinuation { traces.whenCollected($0) }
        }
    }

    /// Takes now, waiting as `mergedEvents` does, what `node` was asked for so far: for a test
    /// that kills it once the conductor holds its answers (`DistributedOptions.afterEachStep`).
    package func takeTraceOwed(by node: String) async {
        await collectOwed(by: node, waiting: true)
    }

    /// Takes the answers `node` owes, oldest first: `waiting`, each part within the bounds of
    /// `options.traceLimit`; else (the node is gone) only the parts that arrived. After an
    /// answer that did not come whole, the later ones are taken only as far as they arrived.
    func collectOwed(by node: String, waiting: Bool) async {
        var waiting = waiting
        // One collection at a time: what another reads across its suspensions is not yet in
        // `traces`, and a caller judges what is missing from what its collection left there
        // (the run's end, a node found gone, an interrupted run's `eventsReceived`).
        await untilNoCollection()
        traces.collectionBegins()
        defer { traces.collectionEnded() }
        for answer in traces.takeOwed(of: node) {
            if !traces.refused.contains(node) {
                if await collectTrace(of: node, key: answer.key, waiting: waiting) {
                    traces.answered(node, through: answer.step)
                } else {
                    waiting = false
                }
            }
            awaitedReplies.remove(answer.key)
            traces.finish(answer.key)
            await control.discard(answer.key)
            await answersEnded.discard(answer.key)
        }
    }

    /// Takes the parts of `node`'s answer (reply key `key`) until the one marked last, or until
    /// a bound of `options.traceLimit` is passed, a part does not come, or one cannot be read;
    /// not `waiting`, only the parts already there. True when the part marked last was taken.
    private func collectTrace(of node: String, key: String, waiting: Bool) async -> Bool {
        var taken = 0
        let deadline = ContinuousClock.now.advanced(by: options.traceLimit.time)
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                await refuseRestOfTrace(of: node, "took more than \(options.traceLimit.time) to answer one TRACE-REQUEST, the most the conductor waits")
                return false
            }
            let reply = waiting ? await control.wait(for: key, timeout: min(.seconds(10), left)) : await control.next(for: key)
            guard let reply, TraceDataCodec.messageBytes(of: reply.body) != nil else {
                guard waiting else { return false }
                if ContinuousClock.now < deadline {
                    await traceMissing("node \(node) did not send its trace: \(traces.holdings(of: node))")
                    return false
                }
                continue  // the whole answer's time is up: said above
            }
            // Counted as it arrived: the part that went past the limit is not taken, and
            // whatever followed it was dropped (no longer awaited).
            taken += 1
            if let exceeded = traces.overrun(of: key, atPart: taken) {
                await refuseRestOfTrace(of: node, "sent \(exceeded) in answer to one TRACE-REQUEST, the most the conductor takes")
                return false
            }
            guard let part = TraceDataCodec.read(reply.body, from: node, runID: scenario.name) else { return false }
            traces.add(part, from: node)
            for fault in part.faults {
                await host.noteFault(fault)
            }
            if part.last { return true }
        }
    }

    /// `node`'s answer went past a bound of `options.traceLimit` (`why`): the rest is refused, the
    /// worker not asked again, and the fault says how much of its trace the merge has.
    private func refuseRestOfTrace(of node: String, _ why: String) async {
        traces.refuse(node)
        await traceMissing("node \(node) \(why) (TWP/1 §9.7): the rest was refused; the merged trace has \(traces.received(from: node)) of its events, and lacks the rest")
    }

    /// A worker's trace that did not arrive (in full): a fault of the run, and a fault line of
    /// the conductor's in the merged trace.
    private func traceMissing(_ text: String) async {
        guard traces.reportLoss(text) else { return }
        await host.noteFault(text)
        recorder.record(.fault(text), controller: ControllerIDs.node(placement.conductor), cause: nil)
    }
}
