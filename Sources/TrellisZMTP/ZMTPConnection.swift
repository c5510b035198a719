/// One stream socket speaking ZMTP, owned by a `ZMTPDealer` or `ZMTPRouter` on one thread: the
/// handshake, the bytes waiting to be written, the bytes read and not yet decoded. It makes
/// system calls and keeps bytes; what the bytes mean is `ZMTPHandshake`'s and
/// `ZMTPFrameDecoder`'s.
final class ZMTPConnection {
    /// How a read went.
    enum ReadOutcome {
        /// Bytes arrived (or none were waiting): decode them.
        case open
        /// The peer closed its end, or the connection failed.
        case closed
    }

    let fd: Int32
    private(set) var handshake: ZMTPHandshake
    private var decoder: ZMTPFrameDecoder
    private var inbound = ZMTPInboundBuffer()
    /// Bytes to write, from `outboundStart` on: the greeting and READY, then messages and PONGs.
    private var outbound: [UInt8]
    private var outboundStart = 0
    /// Messages encoded before the handshake finished: they go out once the peer is known.
    private var pending: [UInt8] = []
    /// A non-blocking connect still being made.
    private(set) var connecting: Bool
    /// How long the peer may take over each step of its handshake.
    let handshakeTimeout: Duration
    /// When the peer's next handshake step must have come: `handshakeTimeout` after its last
    /// step (see `noteHandshakeProgress`).
    private(set) var handshakeDeadline: ContinuousClock.Instant
    /// The peer's handshake steps seen so far: the connection made, its signature and version, its whole
    /// greeting.
    private var stepsSeen: Int
    /// The peer, once its READY was read.
    private(set) var peer: ZMTPHandshake.Peer?
    /// The index of this connection's descriptor in the current turn's poll set.
    var pollIndex = -1
    private var closed = false
    /// The opening's bytes after the signature and version (12 bytes: the mechanism on), held
    /// until the peer's first 12 bytes have come. libzmq queues its own mechanism once it has
    /// read 11 of our bytes but writes it only after its read loop stops; a read that takes our
    /// whole greeting ends in a mechanism mismatch first, and the connection closes with its
    /// mechanism never sent (a CURVE peer then looks like a hang-up, and libzmq does not try
    /// again). Its 12th byte (its minor version) goes out with its mechanism, so from then on
    /// ours may follow: a CURVE peer is named as one (docs/decisions.md "zmtp3"). Two peers of
    /// this module each send 12 bytes at once, so neither waits for the other.
    private var greetingRest: [UInt8]
    static let greetingFirstPart = 12
    static let peerFirstPart = 12

    init(fd: Int32, handshake: ZMTPHandshake, limits: ZMTPLimits, connecting: Bool, handshakeTimeout: Duration, now: ContinuousClock.Instant) {
        self.fd = fd
        self.handshake = handshake
        decoder = ZMTPFrameDecoder(limits: limits)
        let opening = handshake.opening
        outbound = Array(opening.prefix(Self.greetingFirstPart))
        greetingRest = Array(opening.dropFirst(Self.greetingFirstPart))
        self.connecting = connecting
        self.handshakeTimeout = handshakeTimeout
        handshakeDeadline = now.advanced(by: handshakeTimeout)
        stepsSeen = connecting ? 0 : 1
    }

    deinit {
        close()
    }

    /// Whether bytes read from the kernel wait to be decoded: messages among them do not make the
    /// descriptor readable again, so an owner that stopped decoding at its receive bound must
    /// come back for them without waiting for the poll.
    var hasBufferedInput: Bool { inbound.count > 0 }

    /// Bytes queued and not yet written: what the owner's write bound counts.
    var queuedBytes: Int { outbound.count - outboundStart + pending.count }

    /// Whether the next poll should wait for the socket to be writable.
    var wantsWrite: Bool { connecting || outboundStart < outbound.count }

    /// Queues one message (its frames): behind the handshake until the peer is known.
    func enqueue(_ parts: [[UInt8]]) {
        if peer == nil {
            ZMTPFrame.appendMessage(parts, to: &pending)
        } else {
            ZMTPFrame.appendMessage(parts, to: &outbound)
        }
    }

    /// A non-blocking connect finished (the socket became writable): 0 when it was made, else
    /// its errno. A connection made is the handshake's first step.
    func finishConnecting(at now: ContinuousClock.Instant) -> Int32 {
        guard connecting else { return 0 }
        connecting = false
        let code = ZMTPSystem.connectResult(fd)
        if code == 0 { noteHandshakeProgress(at: now) }
        return code
    }

    /// Whether the handshake is over its deadline: the peer has not come a step further for
    /// `handshakeTimeout`.
    func handshakeExpired(at now: ContinuousClock.Instant) -> Bool {
        peer == nil && now >= handshakeDeadline
    }

    /// The most one read takes. A turn makes at most four reads and then decodes, so the
    /// inbound buffer holds at most four reads beyond the frame being assembled.
    static let readSize = 64 << 10

    /// Reads what is waiting, at most four reads' worth, so that one busy peer can neither hold
    /// the thread nor make the buffer grow past what decoding needs. A read that took less than
    /// it was offered emptied the socket: the next would find nothing, and asking room for it
    /// made every connection's first read beyond a few bytes double its 64 KiB buffer
    /// (docs/decisions.md "zmtp3"). What came after it, an end of the stream too, wakes the
    /// next poll.
    func read() -> ReadOutcome {
        for _ in 0..<4 {
            var offered = 0
            let count = inbound.fill(minimum: Self.readSize) { space in
                let room = UnsafeMutableRawBufferPointer(rebasing: space.prefix(Self.readSize))
                offered = room.count
                return ZMTPSystem.readBytes(fd, room)
            }
            if count >= offered, count > 0 { continue }
            if count > 0 { return .open }
            if count == 0 { return .closed }
            return ZMTPSystem.wouldBlock ? .open : .closed
        }
        return .open
    }

    /// Advances the handshake with the bytes read; the peer when it has just been made. A step
    /// the peer made (its first 12 bytes, its greeting) restarts the deadline, at `now`.
    func advanceHandshake(at now: ContinuousClock.Instant) throws(ZMTPError) -> ZMTPHandshake.Peer? {
        guard peer == nil else { return nil }
        defer { noteHandshakeProgress(at: now) }
        if !greetingRest.isEmpty, inbound.count >= Self.peerFirstPart || handshake.state != .awaitingGreeting {
            outbound.append(contentsOf: greetingRest)
            greetingRest = []
        }
        let made: ZMTPHandshake.Peer
        do {
            guard let peer = try handshake.advance(&inbound, decoder: &decoder) else { return nil }
            made = peer
        } catch {
            // Our greeting still goes out before the connection closes: the peer then sees why
            // (a mechanism mismatch) rather than a hang-up.
            _ = flush()
            throw error
        }
        peer = made
        if !pending.isEmpty {
            outbound.append(contentsOf: pending)
            pending.removeAll()
        }
        return made
    }

    /// The peer's steps so far: the connection made, its signature and version read (our
    /// greeting's rest then sent), its whole greeting read.
    private var peerSteps: Int {
        switch handshake.state {
        case .awaitingGreeting: connecting ? 0 : greetingRest.isEmpty ? 2 : 1
        case .awaitingReady, .established, .failed: 3
        }
    }

    /// Restarts the deadline when the peer has come a step further. The deadline judges the
    /// peer, not the thread that serves it: a step found waiting in the socket when that thread
    /// comes late (seconds late on a loaded machine) was made in time. Timed out then, the
    /// connection would close just after our READY went out, and a libzmq peer that had taken
    /// its first message for the connection would lose it (the 1 MB stall of
    /// `ZMTPInteropTests`, docs/decisions.md "zmtp2"). One deadline a step, four at most: a peer
    /// that trickles its bytes is still dropped within bounds.
    private func noteHandshakeProgress(at now: ContinuousClock.Instant) {
        let steps = peerSteps
        guard steps > stepsSeen else { return }
        stepsSeen = steps
        handshakeDeadline = now.advanced(by: handshakeTimeout)
    }

    /// The next whole message read, answering a PING (RFC 37 "Connection Heartbeating") and
    /// passing over other commands on the way; nil when none is complete.
    func nextMessage() throws(ZMTPError) -> [[UInt8]]? {
        guard peer != nil else { return nil }
        while let item = try decoder.next(from: &inbound) {
            switch item {
            case .message(let parts):
                return parts
            case .command(.ping(_, let context)):
                outbound.append(contentsOf: ZMTPCommand.pong(context: context).frame)
            case .command(.pong), .command(.other):
                continue
            case .command(.ready), .command(.error):
                throw .badCommand("READY or ERROR after the handshake")
            }
        }
        return nil
    }

    /// Writes what it can; false when the connection failed.
    func flush() -> Bool {
        guard !connecting else { return true }
        while outboundStart < outbound.count {
            let start = outboundStart
            let written = outbound.withUnsafeBytes { ZMTPSystem.sendBytes(fd, UnsafeRawBufferPointer(rebasing: $0[start...])) }
            if written > 0 {
                outboundStart += written
                continue
            }
            return ZMTPSystem.wouldBlock
        }
        outbound.removeAll(keepingCapacity: outbound.capacity <= 1 << 20)
        outboundStart = 0
        return true
    }

    func close() {
        guard !closed else { return }
        closed = true
        ZMTPSystem.closeDescriptor(fd)
    }
}
