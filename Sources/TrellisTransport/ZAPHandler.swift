import ZeroMQ

/// The ZAP handler (ZeroMQ RFC 27) of a node that uses CURVE: libzmq asks it, over
/// `inproc://zeromq.zap.01`, whether each client that completed a CURVE handshake may connect;
/// it allows exactly the public keys on the node's allow-list (SPEC §7, security), and gives each
/// connection it allows the user id of the node that key belongs to (TWP §10 rule 3): the inbox
/// then drops what a key's holder sends under another node's name (`NodeIOLoop`).
struct ZAPHandler {
    let socket: ZMQSocket
    /// Public key (Z85) → the node name it belongs to.
    let allowedKeys: [String: String]

    /// Binds the handler in `context`: it must exist before a socket there uses CURVE.
    init(in context: ZMQContext, allowing allowedKeys: [String: String]) throws(ZMQError) {
        let socket = try context.socket(.rep)
        do {
            try socket.set(ZMQOption.linger, 0)
            try socket.bind("inproc://zeromq.zap.01")
        } catch {
            // Closed now, not whenever the last reference goes: the context cannot end before.
            socket.close()
            throw error
        }
        self.socket = socket
        self.allowedKeys = allowedKeys
    }

    /// Answers one pending request, if any. Returns the refused client's key (or its mechanism,
    /// in parentheses, when it did not use CURVE), nil when it was allowed or nothing was asked.
    func answer() -> String? {
        guard let request = try? socket.receive(dontWait: true), request.count >= 7 else { return nil }
        let version = request[0], requestID = request[1]
        let mechanism = String(decoding: request[5], as: UTF8.self)
        let key = mechanism == "CURVE" ? Z85.encode(request[6]) : nil
        let node = key.flatMap { allowedKeys[$0] }
        let status = node == nil ? "400" : "200"
        _ = try? socket.send([version, requestID, Array(status.utf8), Array((node == nil ? "key not allowed" : "OK").utf8),
                              Array((node ?? "").utf8), []], dontWait: false)
        return node != nil ? nil : key ?? "(\(mechanism))"
    }

    func close() {
        socket.close()
    }
}
