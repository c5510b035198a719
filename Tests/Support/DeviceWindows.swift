import TrellisModel
import TrellisRuntime

/// The phone of SPEC §5, the device most rule tests run on: 320×568 in portrait, compact width,
/// regular height, scale 2; 568×320 and compact both ways in landscape.
public enum Phone {
    public static let size = Size(320, 568)
    public static let landscapeSize = Size(568, 320)
    public static let traits = TraitCollection(
        horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2)
    public static let landscapeTraits = TraitCollection(
        horizontalSizeClass: .compact, verticalSizeClass: .compact, userInterfaceIdiom: .phone, displayScale: 2)
    /// The traits as canonical lines print them.
    public static let portrait = traits.description
    public static let landscape = landscapeTraits.description

    /// The `"window"` member of an inline scenario (SPEC §5).
    public static let window = """
        "window": { "size": [320, 568], "traits": { "horizontalSizeClass": "compact", "verticalSizeClass": "regular",
                                                    "userInterfaceIdiom": "phone", "displayScale": 2 } }
        """

    /// A hierarchy on this phone, in portrait.
    public static func hierarchy(_ controllers: [ControllerDescription], root: ControllerID = "R") -> HierarchyDescription {
        HierarchyDescription(windowSize: size, windowTraits: traits, root: root, controllers: controllers)
    }
}

/// An iPad in landscape: 1024×768, regular in both directions, scale 2.
public enum Pad {
    public static let size = Size(1024, 768)
    public static let traits = TraitCollection(
        horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2)
    /// The traits as canonical lines print them, regular and with a compact width override.
    public static let regular = traits.description
    public static let compactWidth = "h=compact v=regular idiom=pad scale=2"

    /// The `"window"` member of an inline scenario (SPEC §5).
    public static let window = """
        "window": { "size": [1024, 768], "traits": { "horizontalSizeClass": "regular", "verticalSizeClass": "regular",
                                                     "userInterfaceIdiom": "pad", "displayScale": 2 } }
        """
}
