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
    /// What each answer brought so far, by reply key, counted as each part arrives: past
    /// `limit` the rest is not even kept, so the parts waiting to be read stay within the
    /// bound too.
    private var tallies: [String: TraceDataLimit.Tally] = [:]
    /// The bound an answer went past, by reply key, and which of its parts went past it.
    private var overruns: [String: (part: Int, exceeded: String)] = [:]

    init(limit: TraceDataLimit) {
        self.limit = limit
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
    /// Every node's events so far, merged by causality.
    package func mergedEvents() async -> [TraceEvent] {
        for node in workers {
            // Nothing is lost silently: a node that cannot send its trace is a fault of the run
            // and a fault line in the merged trace, saying how much of it arrived.
            guard !transport.isGone(node) else {
                let what = stoppedNodes.contains(node) ? "stopped" : "is gone"
                await traceMissing("node \(node) \(what): its trace is missing from the merged trace")
                continue
            }
            guard !traces.refused.contains(node) else { continue }
            let correlation = takeCorrelation()
            let key = Self.replyKey(node, correlation)
            awaitedReplies.insert(key)
            await transport.send(.traceRequest, to: node, correlationID: correlation)
            await collectTrace(of: node, key: key)
            awaitedReplies.remove(key)
            traces.finish(key)
            await control.discard(key)
        }
        return TraceMerge.merge([recorder.events] + workers.map { traces.events[$0] ?? [] })
    }

    /// Takes the parts of `node`'s answer (reply key `key`) until the one marked last, or until
    /// a bound of `options.traceLimit` is passed, a part does not come, or one cannot be read.
    private func collectTrace(of node: String, key: String) async {
        var more = true
        var taken = 0
        let deadline = ContinuousClock.now.advanced(by: options.traceLimit.time)
        while more {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                await refuseRestOfTrace(of: node, "took more than \(options.traceLimit.time) to answer one TRACE-REQUEST, the most the conductor waits")
                break
            }
            guard let reply = await control.wait(for: key, timeout: min(.seconds(10), left)),
                  TraceDataCodec.messageBytes(of: reply.body) != nil else {
                if ContinuousClock.now < deadline {
                    await traceMissing("node \(node) did not send its trace: the merged trace has \(traces.received(from: node)) of its events, and lacks the rest")
                    break
                }
                continue  // the whole answer's time is up: said above
            }
            // Counted as it arrived: the part that went past the limit is not taken, and
            // whatever followed it was dropped (no longer awaited).
            taken += 1
            if let exceeded = traces.overrun(of: key, atPart: taken) {
                await refuseRestOfTrace(of: node, "sent \(exceeded) in answer to one TRACE-REQUEST, the most the conductor takes")
                break
            }
            guard let part = TraceDataCodec.read(reply.body, from: node, runID: scenario.name) else { break }
            more = !part.last
            traces.add(part, from: node)
            for fault in part.faults {
                await host.noteFault(fault)
            }
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
