/// The capability bits of HELLO (TWP/1 §7.1): optional features the sender supports. A receiver
/// ignores bits it does not know; a sender uses a feature with a peer only when that peer's
/// HELLO announced it (§11).
public struct WireCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Bit 0 (since 1.2): the sender reads TRACE-DATA in the compact form (§7.8): a worker may
    /// answer its TRACE-REQUESTs with TCF/1 captures instead of JSON Lines.
    public static let compactTrace = WireCapabilities(rawValue: 1 << 0)
}
