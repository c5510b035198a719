/// What the workers' TRACE-DATA parts brought a conductor (TWP/1 §9.7): how many parts, how
/// many bytes on the wire (whole messages, header frames included) and how many events — to
/// compare the two forms of §7.8.
package struct TraceDataStatistics: Sendable, Equatable {
    package var parts = 0
    package var messageBytes = 0
    package var events = 0

    package init() {}

    /// Bytes on the wire per event (0 before any event).
    package var bytesPerEvent: Double {
        events == 0 ? 0 : Double(messageBytes) / Double(events)
    }

    mutating func add(_ part: TraceDataCodec.Part) {
        parts += 1
        messageBytes += part.messageBytes
        events += part.events.count
    }
}
