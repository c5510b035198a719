import TrellisJSON
import TrellisModel
import TrellisTrace

/// A trace in the Chrome / Perfetto Trace Event Format (opens in ui.perfetto.dev): one process
/// per node, one track per controller, a slice per handled message, flow arrows from each event
/// to the events it caused, instants for suppressions, warnings, errors, faults and notes, and a
/// global instant per step header.
///
/// Time is causal, not wall-clock: an event's timestamp is its Lamport clock in microseconds, so
/// the picture is the same for every run of a scenario and for in-process and distributed runs.
/// A slice lasts from its event to the last event it caused (at least 1 µs), so a delivery
/// visibly spans the subtree it reached.
public enum PerfettoExport {
    public static func json(_ events: [TraceEvent]) -> String {
        json(CausalTree(events))
    }

    /// The export of a trace already read as a tree: linear in its size, however deep or wide.
    public static func json(_ tree: CausalTree) -> String {
        let events = tree.events
        // Process and track numbers by dictionary: a wide trace has many controllers per node.
        var pids: [String: Int] = [:]
        var nodes: [String] = []
        var tids: [String: [ControllerID: Int]] = [:]
        var tracks: [String: [ControllerID]] = [:]
        for event in events where !isStep(event) {
            let node = event.id.node
            if pids[node] == nil {
                nodes.append(node)
                pids[node] = nodes.count
            }
            if tids[node, default: [:]][event.controller] == nil {
                tracks[node, default: []].append(event.controller)
                tids[node, default: [:]][event.controller] = tracks[node, default: []].count
            }
        }
        func pid(_ node: String) -> Int { pids[node] ?? 1 }
        func tid(_ event: TraceEvent) -> Int { tids[event.id.node]?[event.controller] ?? 1 }
        let lastClocks = tree.lastEffectClocks()

        var out: [String] = []
        for node in nodes {
            out.append(object(["name": .string("process_name"), "ph": .string("M"), "pid": .number(Double(pid(node))), "tid": .number(0),
                               "ts": .number(0), "args": .object([("name", JSONNode(.string("node " + node)))])]))
            for (index, controller) in (tracks[node] ?? []).enumerated() {
                out.append(object(["name": .string("thread_name"), "ph": .string("M"), "pid": .number(Double(pid(node))),
                                   "tid": .number(Double(index + 1)), "ts": .number(0),
                                   "args": .object([("name", JSONNode(.string(controller.name)))])]))
            }
        }
        var flows = 0
        for (position, event) in events.enumerated() {
            let ts = Double(event.lamport)
            if isStep(event) {
                out.append(object(["name": .string(event.canonicalLine), "ph": .string("i"), "s": .string("g"), "pid": .number(1),
                                   "tid": .number(0), "ts": .number(ts)]))
                continue
            }
            let args: JSONValue = .object([
                ("line", JSONNode(.string(event.canonicalLine))), ("step", JSONNode(.number(Double(event.step)))),
                ("lamport", JSONNode(.number(Double(event.lamport)))), ("event", JSONNode(.string(event.id.description))),
                ("transition", JSONNode(event.transition.map { .number(Double($0)) } ?? .null)),
            ])
            var fields: [String: JSONValue] = [
                "name": .string(event.message.name), "cat": .string(event.message.kind),
                "pid": .number(Double(pid(event.id.node))), "tid": .number(Double(tid(event))), "ts": .number(ts), "args": args,
            ]
            if isInstant(event) {
                fields["ph"] = .string("i")
                fields["s"] = .string("t")
            } else {
                let end = Double(lastClocks[position])
                fields["ph"] = .string("X")
                fields["dur"] = .number(max(1, end - ts + 1))
            }
            out.append(object(fields))
            // The flow arrow from the cause to this event, when the cause is in the trace.
            if let cause = event.cause, let origin = tree.position(of: cause), !isStep(events[origin]) {
                flows += 1
                let start = events[origin]
                out.append(object(["name": .string("cause"), "cat": .string("flow"), "ph": .string("s"), "id": .number(Double(flows)),
                                   "pid": .number(Double(pid(start.id.node))), "tid": .number(Double(tid(start))), "ts": .number(Double(start.lamport))]))
                out.append(object(["name": .string("cause"), "cat": .string("flow"), "ph": .string("f"), "bp": .string("e"),
                                   "id": .number(Double(flows)), "pid": .number(Double(pid(event.id.node))),
                                   "tid": .number(Double(tid(event))), "ts": .number(ts)]))
            }
        }
        return "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n" + out.joined(separator: ",\n") + "\n]}\n"
    }

    /// Whether the event is a step header (a global instant).
    public static func isStep(_ event: TraceEvent) -> Bool {
        if case .step = event.message { return true }
        return false
    }

    /// Events drawn as instants: what did not happen or went wrong, and notes.
    public static func isInstant(_ event: TraceEvent) -> Bool {
        switch event.message {
        case .suppressed, .warning, .error, .fault, .note: return true
        default: return false
        }
    }

    /// One JSON object with its members in a stable (sorted) order.
    private static func object(_ fields: [String: JSONValue]) -> String {
        JSONWriter.write(.object(fields.keys.sorted().map { ($0, JSONNode(fields[$0] ?? .null)) }))
    }
}
