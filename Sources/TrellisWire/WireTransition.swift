import TrellisModel

/// A transition on the wire: what a remote controller needs to build its transition coordinator.
public struct WireTransition: Hashable, Sendable {
    /// The transition's id, as trace events name it.
    public var id: Int64
    /// Whether the transition is animated.
    public var animated: Bool
    /// Its duration in simulated seconds.
    public var duration: Double
    /// The window's traits after the transition (what presented controllers inherit).
    public var windowTraits: TraitCollection
    /// The window's size after the transition (what full-screen presentations get).
    public var windowSize: Size

    /// A transition from its parts.
    public init(id: Int64, animated: Bool, duration: Double, windowTraits: TraitCollection, windowSize: Size) {
        self.id = id
        self.animated = animated
        self.duration = duration
        self.windowTraits = windowTraits
        self.windowSize = windowSize
    }
}
