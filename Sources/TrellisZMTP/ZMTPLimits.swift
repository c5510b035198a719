/// What one connection accepts from its peer at most: the decoder checks a frame's size as soon
/// as its header arrives, so a hostile size costs an error, never the memory it names.
public struct ZMTPLimits: Equatable, Sendable {
    /// The largest frame (message part or command) accepted.
    public var maximumFrameBytes: Int
    /// The most parts one multipart message may have.
    public var maximumParts: Int
    /// The most bytes (all parts together) one message may have.
    public var maximumMessageBytes: Int

    /// 64 MiB messages of at most 64 parts: what the node transport's libzmq sockets accept
    /// (`WireLimits.maxMessageBytes`, `ZMQSocket.receive`'s `maximumFrames`).
    public static let standard = ZMTPLimits(maximumFrameBytes: 64 << 20, maximumParts: 64, maximumMessageBytes: 64 << 20)

    /// Limits of one's own; each is raised to its floor (a frame of 255 bytes, one part) so that
    /// the READY every peer sends always fits.
    public init(maximumFrameBytes: Int, maximumParts: Int, maximumMessageBytes: Int) {
        self.maximumFrameBytes = max(maximumFrameBytes, 255)
        self.maximumParts = max(maximumParts, 1)
        self.maximumMessageBytes = max(maximumMessageBytes, 0)
    }
}
