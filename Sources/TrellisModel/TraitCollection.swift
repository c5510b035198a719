/// UIKit's `UIUserInterfaceSizeClass`.
public enum SizeClass: String, CaseIterable, Hashable, Sendable {
    /// `.unspecified`: not set here; a merge takes it from the environment.
    case unspecified
    /// `.compact`: an iPhone's width, or its height in landscape.
    case compact
    /// `.regular`: an iPad's width and height.
    case regular
}

/// UIKit's `UIUserInterfaceIdiom`.
public enum UserInterfaceIdiom: String, CaseIterable, Hashable, Sendable {
    /// `.unspecified`: not set here.
    case unspecified
    /// `.phone`: an iPhone.
    case phone
    /// `.pad`: an iPad.
    case pad
    /// `.tv`: an Apple TV.
    case tv
    /// `.carPlay`: a CarPlay screen.
    case carPlay
    /// `.mac`: a Mac (Catalyst in the Mac idiom).
    case mac
    /// `.vision`: Apple Vision Pro.
    case vision
}

/// UIKit's `UITraitEnvironmentLayoutDirection`.
public enum LayoutDirection: String, CaseIterable, Hashable, Sendable {
    /// `.unspecified`: not set here.
    case unspecified
    /// `.leftToRight`: English, say.
    case leftToRight
    /// `.rightToLeft`: Arabic or Hebrew, say.
    case rightToLeft
}

/// UIKit's `UIUserInterfaceStyle`.
public enum UserInterfaceStyle: String, CaseIterable, Hashable, Sendable {
    /// `.unspecified`: not set here.
    case unspecified
    /// `.light`: light mode.
    case light
    /// `.dark`: dark mode.
    case dark
}

/// UIKit's `UIContentSizeCategory`.
public enum ContentSizeCategory: String, CaseIterable, Hashable, Sendable {
    /// `.unspecified`: not set here.
    case unspecified
    /// `UIContentSizeCategory.extraSmall`.
    case extraSmall
    /// `UIContentSizeCategory.small`.
    case small
    /// `UIContentSizeCategory.medium`.
    case medium
    /// `UIContentSizeCategory.large`: the default text size.
    case large
    /// `UIContentSizeCategory.extraLarge`.
    case extraLarge
    /// `UIContentSizeCategory.extraExtraLarge`.
    case extraExtraLarge
    /// `UIContentSizeCategory.extraExtraExtraLarge`: the largest outside accessibility sizes.
    case extraExtraExtraLarge
    /// `UIContentSizeCategory.accessibilityMedium`: the smallest accessibility size.
    case accessibilityMedium
    /// `UIContentSizeCategory.accessibilityLarge`.
    case accessibilityLarge
    /// `UIContentSizeCategory.accessibilityExtraLarge`.
    case accessibilityExtraLarge
    /// `UIContentSizeCategory.accessibilityExtraExtraLarge`.
    case accessibilityExtraExtraLarge
    /// `UIContentSizeCategory.accessibilityExtraExtraExtraLarge`: the largest of all.
    case accessibilityExtraExtraExtraLarge
}

/// The traits of a controller's environment, as UIKit's `UITraitCollection`.
///
/// Every trait may be unspecified (`displayScale` 0 means unspecified). Merging follows
/// `UITraitCollection(traitsFrom:)`: for each trait the last collection that specifies it wins.
public struct TraitCollection: Hashable, Sendable, CustomStringConvertible {
    // `displayScale` is declared first so that the six one-byte traits pack after it: 14 bytes
    // (a 16-byte stride, optional included) instead of 19 (a 24-byte stride) — a controller
    // keeps two (issue 27 item 7).
    /// `displayScale`: points to pixels (2 or 3 on today's iPhones); 0 is unspecified.
    public var displayScale: Double
    /// `horizontalSizeClass`: compact on an iPhone in portrait, regular on an iPad's full width.
    public var horizontalSizeClass: SizeClass
    /// `verticalSizeClass`: compact on most iPhones in landscape.
    public var verticalSizeClass: SizeClass
    /// `userInterfaceIdiom`: which kind of device.
    public var userInterfaceIdiom: UserInterfaceIdiom
    /// `layoutDirection`: left to right or right to left.
    public var layoutDirection: LayoutDirection
    /// `userInterfaceStyle`: light or dark mode.
    public var userInterfaceStyle: UserInterfaceStyle
    /// `preferredContentSizeCategory`: the user's text size.
    public var preferredContentSizeCategory: ContentSizeCategory

    /// A collection with the traits given; every other trait unspecified.
    public init(
        horizontalSizeClass: SizeClass = .unspecified,
        verticalSizeClass: SizeClass = .unspecified,
        userInterfaceIdiom: UserInterfaceIdiom = .unspecified,
        displayScale: Double = 0,
        layoutDirection: LayoutDirection = .unspecified,
        userInterfaceStyle: UserInterfaceStyle = .unspecified,
        preferredContentSizeCategory: ContentSizeCategory = .unspecified
    ) {
        self.horizontalSizeClass = horizontalSizeClass
        self.verticalSizeClass = verticalSizeClass
        self.userInterfaceIdiom = userInterfaceIdiom
        self.displayScale = displayScale
        self.layoutDirection = layoutDirection
        self.userInterfaceStyle = userInterfaceStyle
        self.preferredContentSizeCategory = preferredContentSizeCategory
    }

    /// A collection with every trait unspecified.
    public static let unspecified = TraitCollection()

    /// The largest `displayScale` a collection may have (scenario files refuse more; today's
    /// screens are at most 3).
    public static let maximumDisplayScale = 100.0

    /// What is wrong with these traits, nil when nothing is: a `displayScale` that is not a number,
    /// negative or above `maximumDisplayScale` (a NaN scale would make the collection unequal to
    /// itself, so every comparison would see a change). One rule for scenario files and Swift code.
    public var problem: String? {
        guard !(displayScale >= 0 && displayScale <= Self.maximumDisplayScale) else { return nil }
        return "displayScale must be between 0 and \(Int(Self.maximumDisplayScale)), got \(displayScale)"
    }

    /// `UITraitCollection(traitsFrom:)`: the traits each collection specifies, later ones winning.
    public init(traitsFrom collections: [TraitCollection]) {
        self = collections.reduce(.unspecified) { $0.overlaid(with: $1) }
    }

    /// These traits with every trait that `other` specifies taken from `other`.
    public func overlaid(with other: TraitCollection) -> TraitCollection {
        var merged = self
        if other.horizontalSizeClass != .unspecified { merged.horizontalSizeClass = other.horizontalSizeClass }
        if other.verticalSizeClass != .unspecified { merged.verticalSizeClass = other.verticalSizeClass }
        if other.userInterfaceIdiom != .unspecified { merged.userInterfaceIdiom = other.userInterfaceIdiom }
        if other.displayScale != 0 { merged.displayScale = other.displayScale }
        if other.layoutDirection != .unspecified { merged.layoutDirection = other.layoutDirection }
        if other.userInterfaceStyle != .unspecified { merged.userInterfaceStyle = other.userInterfaceStyle }
        if other.preferredContentSizeCategory != .unspecified {
            merged.preferredContentSizeCategory = other.preferredContentSizeCategory
        }
        return merged
    }

    /// Canonical trace form (SPEC §6): the four core axes in order, `h=… v=… idiom=… scale=…`,
    /// then `style=…`, `direction=…` and `category=…` for each of those axes that is specified,
    /// so that a dark-mode change is visible and traces without them are unchanged.
    public var description: String {
        var text = "h=\(horizontalSizeClass.rawValue) v=\(verticalSizeClass.rawValue) idiom=\(userInterfaceIdiom.rawValue) scale=\(CanonicalNumber.format(displayScale))"
        if userInterfaceStyle != .unspecified { text += " style=\(userInterfaceStyle.rawValue)" }
        if layoutDirection != .unspecified { text += " direction=\(layoutDirection.rawValue)" }
        if preferredContentSizeCategory != .unspecified { text += " category=\(preferredContentSizeCategory.rawValue)" }
        return text
    }

    /// Only the traits this collection specifies, `name=value` separated by spaces
    /// (`v=compact`), as a step header prints a partial trait change.
    public var specifiedDescription: String {
        var parts: [String] = []
        if horizontalSizeClass != .unspecified { parts.append("h=\(horizontalSizeClass.rawValue)") }
        if verticalSizeClass != .unspecified { parts.append("v=\(verticalSizeClass.rawValue)") }
        if userInterfaceIdiom != .unspecified { parts.append("idiom=\(userInterfaceIdiom.rawValue)") }
        if displayScale != 0 { parts.append("scale=\(CanonicalNumber.format(displayScale))") }
        if layoutDirection != .unspecified { parts.append("layoutDirection=\(layoutDirection.rawValue)") }
        if userInterfaceStyle != .unspecified { parts.append("style=\(userInterfaceStyle.rawValue)") }
        if preferredContentSizeCategory != .unspecified {
            parts.append("contentSize=\(preferredContentSizeCategory.rawValue)")
        }
        return parts.isEmpty ? "none" : parts.joined(separator: " ")
    }
}
