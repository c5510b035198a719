import CZeroMQ

/// One event of a libzmq socket monitor (`zmq_socket_monitor`, a stable API of libzmq 4.3): what
/// happened (`ZMQ_EVENT_*`), its value (for a handshake that failed, the ZAP status code or a
/// `ZMQ_PROTOCOL_ERROR_*` code). (The endpoint it happened on, the monitor's second frame, is
/// not kept: each watched socket has its own monitor, which says whose event it is.)
package struct ZMQMonitorEvent: Sendable, Equatable {
    package var event: Int32
    package var value: UInt32

    package init(event: Int32, value: UInt32) {
        self.event = event
        self.value = value
    }

    /// The events of a CURVE handshake that failed: no detail, a protocol error (a key that does
    /// not decrypt, a mechanism mismatch), or the server's ZAP handler refusing the client.
    package static let handshakeFailures: Int32 =
        ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH
    /// The event of a handshake that succeeded (with CURVE, or with no security at all).
    package static let handshakeSucceeded: Int32 = ZMQ_EVENT_HANDSHAKE_SUCCEEDED

    package var isHandshakeSucceeded: Bool { event == ZMQ_EVENT_HANDSHAKE_SUCCEEDED }
    package var isHandshakeFailedProtocol: Bool { event == ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL }
    package var isHandshakeFailedAuth: Bool { event == ZMQ_EVENT_HANDSHAKE_FAILED_AUTH }

    /// A protocol error that says the CURVE boxes did not open: the peer used another key than
    /// the one it should (a client with a wrong server key, or the other way round).
    package var isCryptographicError: Bool {
        isHandshakeFailedProtocol && value == UInt32(bitPattern: ZMQ_PROTOCOL_ERROR_ZMTP_CRYPTOGRAPHIC)
    }

    /// A protocol error that says one side uses CURVE and the other does not.
    package var isMechanismMismatch: Bool {
        isHandshakeFailedProtocol && value == UInt32(bitPattern: ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH)
    }

    /// Reads an event from a monitor's two frames: 2 octets event, 4 octets value (host order),
    /// then the endpoint. Nil for anything else.
    package init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        let head = frames[0]
        let event = head.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt16.self) }
        let value = head.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 2, as: UInt32.self) }
        self.init(event: Int32(event), value: value)
    }
}

extension ZMQSocket {
    /// Starts libzmq's monitor of this socket for `events`, published at `address` (an
    /// `inproc://` name unique in `context`), and returns the PAIR socket that receives them
    /// (`ZMQMonitorEvent(frames:)`). Close the PAIR before the monitored socket's context ends.
    package func monitor(at address: String, events: Int32, in context: ZMQContext) throws(ZMQError) -> ZMQSocket {
        guard zmq_socket_monitor(handle, address, events) == 0 else { throw ZMQError("zmq_socket_monitor \(address)") }
        let pair: ZMQSocket
        do {
            pair = try context.socket(.pair)
        } catch {
            stopMonitor()
            throw error
        }
        do {
            try pair.set(ZMQ_LINGER, 0)
            try pair.connect(address)
        } catch {
            // Nothing half made is left behind: the monitor stops and its PAIR closes now.
            pair.close()
            stopMonitor()
            throw error
        }
        return pair
    }

    /// Stops the monitor started on this socket (its PAIR then receives nothing more).
    package func stopMonitor() {
        _ = zmq_socket_monitor(handle, nil, 0)
    }
}
