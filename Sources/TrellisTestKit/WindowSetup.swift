import TrellisModel

/// A window's size and traits: the device the test simulates.
public struct WindowSetup: Sendable, Equatable {
    /// The window's size in points.
    public var size: Size
    /// The window's traits: the device's.
    public var traits: TraitCollection

    /// A window of `size` with `traits`.
    public init(size: Size, traits: TraitCollection) {
        self.size = size
        self.traits = traits
    }

    /// iPhone SE-sized portrait: 320×568, compact width, regular height, scale 2.
    public static let iPhonePortrait = WindowSetup(
        size: Size(320, 568),
        traits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2))
    /// The same phone rotated: 568×320, compact in both directions.
    public static let iPhoneLandscape = WindowSetup(
        size: Size(568, 320),
        traits: TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .compact, userInterfaceIdiom: .phone, displayScale: 2))
    /// iPad landscape: 1024×768, regular in both directions, scale 2.
    public static let iPadLandscape = WindowSetup(
        size: Size(1024, 768),
        traits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2))
    /// iPad portrait: 768×1024, regular in both directions, scale 2.
    public static let iPadPortrait = WindowSetup(
        size: Size(768, 1024),
        traits: TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2))
}
