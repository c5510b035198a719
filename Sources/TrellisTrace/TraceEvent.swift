import TrellisModel

/// The identity of one event: the node that recorded it and its per-node sequence number.
public struct EventRef: Hashable, Sendable, CustomStringConvertible {
    public var node: String
    public var sequence: UInt64

    public init(node: String, sequence: UInt64) {
        self.node = node
        self.sequence = sequence
    }

    /// `node#sequence`, how the inspection tools name an event.
    public var description: String { "\(node)#\(sequence)" }
}

/// One trace event (SPEC §6): a delivery, query, suppression, warning, error, fault, layout or
/// coordinator callback, or a step header.
public struct TraceEvent: Sendable, Equatable {
    public var id: EventRef
    /// Lamport clock: larger than the clock of its cause, so a merge can order by causality.
    public var lamport: UInt64
    /// The event during whose handling this one happened; nil for step headers and for what a
    /// step or the initial layout starts directly.
    public var cause: EventRef?
    /// The controller that received the message or raised the event (`pc:P` for presentation controllers).
    public var controller: ControllerID
    public var transition: Int?
    /// The scenario step (0 for the initial layout).
    public var step: Int
    public var message: TraceMessage
    /// Monotonic nanoseconds since the recorder started: for viewers, never for ordering.
    public var time: UInt64

    public init(
        id: EventRef, lamport: UInt64, cause: EventRef?, controller: ControllerID, transition: Int?,
        step: Int, message: TraceMessage, time: UInt64
    ) {
        self.id = id
        self.lamport = lamport
        self.cause = cause
        self.controller = controller
        self.transition = transition
        self.step = step
        self.message = message
        self.time = time
    }

    /// The canonical line (SPEC §6): `<receiver> <message>`, or the step header.
    public var canonicalLine: String {
        if case .step = message { return message.canonicalText }
        return controller.name + " " + message.canonicalText
    }
}
