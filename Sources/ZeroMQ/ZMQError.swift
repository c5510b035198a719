import CZeroMQ

/// A failed libzmq call: which call, its errno, and `zmq_strerror`'s text for it.
package struct ZMQError: Error, Sendable, Equatable, CustomStringConvertible {
    package let operation: String
    package let code: Int32
    package let message: String

    /// The error of the libzmq call that just failed on this thread.
    init(_ operation: String) {
        let code = zmq_errno()
        self.init(operation, code: code)
    }

    /// An error with an errno of its own: what a transport beside libzmq reports in its terms.
    package init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = String(cString: zmq_strerror(code))
    }

    /// Would block: a full queue or no peer yet. Backpressure, not a failure.
    package var isAgain: Bool { code == EAGAIN }
    /// The context was terminated.
    package var isTerminated: Bool { code == ETERM }
    /// A signal interrupted the call; it may be repeated.
    package var isInterrupted: Bool { code == EINTR }
    /// `ROUTER_MANDATORY`: the peer's routing id is not connected.
    package var isUnroutable: Bool { code == EHOSTUNREACH }

    package var description: String { "\(operation): \(message) (errno \(code))" }
}
