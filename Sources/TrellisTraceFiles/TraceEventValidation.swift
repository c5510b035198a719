import TrellisJSON
import TrellisModel
import TrellisTrace

/// What both capture readers refuse in an event they could decode (TTF/1 §4.2 and §4.5, TCF/1
/// §4 rule 3): one check for both, so that a compact capture never holds an event that its JSON
/// Lines form could not (a negative step, a completion other than `present`/`dismiss`, a size that
/// is not a number), which `trellis trace convert` would turn into lines no reader accepts.
package enum TraceEventValidation {
    /// The bound of `seq`, `lamport` and `time` (TTF/1 §4.2: "below 1.8×10^19"; JSON Lines reads
    /// numbers as doubles, and this is the largest such bound that keeps them below 2^64).
    package static let counterLimit: UInt64 = 18_000_000_000_000_000_000

    /// Why `event` cannot be in a capture, in the JSON Lines reader's words (`field "<name>": …`),
    /// or nil.
    package static func problem(in event: TraceEvent) -> String? {
        // One comparison per field, no array: a large capture is checked event by event.
        if event.id.sequence >= counterLimit { return tooLarge("seq", event.id.sequence) }
        if event.lamport >= counterLimit { return tooLarge("lamport", event.lamport) }
        if event.time >= counterLimit { return tooLarge("time", event.time) }
        if let transition = event.transition, transition < 0 {
            return "field \"transition\": expected a non-negative integer, got \(transition)"
        }
        if event.step < 0 { return "field \"step\": expected a non-negative integer, got \(event.step)" }
        if case let .completion(action, _) = event.message, action != "present", action != "dismiss" {
            return "field \"payload.action\": expected \"present\" or \"dismiss\", got \(JSONWriter.quoted(action))"
        }
        var check = PayloadCheck()
        _ = TraceMessageSchema.fields(of: event.message, &check)
        return check.problem
    }

    private static func tooLarge(_ key: String, _ value: UInt64) -> String {
        "field \"\(key)\": expected a non-negative integer (below 1.8e19), got \(value)"
    }

    /// Visits a payload's fields (in `TraceMessageSchema`'s order) and keeps the first that JSON
    /// Lines could not hold: a negative integer, a number that is not finite (printed `nan` or
    /// `inf`, which is not JSON).
    private struct PayloadCheck: TraceFieldCoder {
        typealias Failure = Never
        var problem: String?

        private mutating func note(_ key: String, _ text: String) {
            if problem == nil { problem = "field \"payload.\(key)\": \(text)" }
        }

        private mutating func finite(_ key: String, _ allFinite: Bool) {
            if !allFinite { note(key, "a number that is not finite (JSON has none)") }
        }

        mutating func integer(_ key: String, _ value: Int) -> Int {
            if value < 0 { note(key, "expected a non-negative integer, got \(value)") }
            return value
        }

        func text(_ key: String, _ value: String) -> String { value }
        func name(_ key: String, _ value: String) -> String { value }
        func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) -> Value { value }
        func controller(_ key: String, _ value: ControllerID) -> ControllerID { value }
        func controllers(_ key: String, _ value: [ControllerID]) -> [ControllerID] { value }

        mutating func size(_ key: String, _ value: Size) -> Size {
            finite(key, value.width.isFinite && value.height.isFinite)
            return value
        }

        mutating func rect(_ key: String, _ value: Rect) -> Rect {
            finite(key, value.minX.isFinite && value.minY.isFinite && value.size.width.isFinite && value.size.height.isFinite)
            return value
        }

        mutating func frame(_ key: String, _ value: Rect?) -> Rect? {
            if let value { _ = rect(key, value) }
            return value
        }

        mutating func traits(_ key: String, _ value: TraitCollection) -> TraitCollection {
            if !value.displayScale.isFinite { finite(key + ".displayScale", false) }
            return value
        }

        func flag(_ key: String, _ value: Bool) -> Bool { value }
        func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value { value }
        func variant(_ field: String, _ value: Bool) -> Bool { value }
    }
}

