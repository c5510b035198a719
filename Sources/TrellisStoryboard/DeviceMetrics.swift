import TrellisModel

/// How a storyboard's preview device is held (`<device orientation=…>`, `--orientation`).
public enum DeviceOrientation: String, Sendable, CaseIterable {
    /// Held upright: the device's portrait size.
    case portrait
    /// Turned a quarter: width and height swapped.
    case landscape
}

/// A device Interface Builder previews on (`<device id="retina6_1">`): its screen in points in
/// portrait, idiom, scale, and size classes in each orientation, from Apple's published device
/// metrics (Human Interface Guidelines, "Layout": device screen sizes and size classes). A
/// storyboard's window (SPEC §11) is its device's screen.
public struct DeviceMetrics: Sendable, Equatable {
    /// Interface Builder's id (`retina6_1`).
    public var id: String
    /// Width × height in points, held in portrait.
    public var portraitSize: Size
    /// Phone or pad.
    public var idiom: UserInterfaceIdiom
    /// Points to pixels (2 or 3).
    public var scale: Double
    /// Width in landscape: regular on the large iPhones ("Plus", "Max", XR and 11), compact on
    /// the others; an iPad is regular both ways in both orientations.
    public var landscapeWidthClass: SizeClass

    /// The window size in `orientation`.
    public func size(_ orientation: DeviceOrientation) -> Size {
        switch orientation {
        case .portrait: return portraitSize
        case .landscape: return Size(portraitSize.height, portraitSize.width)
        }
    }

    /// The window's traits in `orientation`.
    public func traits(_ orientation: DeviceOrientation) -> TraitCollection {
        // The table holds phones and pads only: anything but a phone is regular both ways.
        var (horizontal, vertical) = (SizeClass.regular, SizeClass.regular)
        if idiom == .phone {
            switch orientation {
            case .portrait: (horizontal, vertical) = (.compact, .regular)
            case .landscape: (horizontal, vertical) = (landscapeWidthClass, .compact)
            }
        }
        return TraitCollection(horizontalSizeClass: horizontal, verticalSizeClass: vertical, userInterfaceIdiom: idiom, displayScale: scale)
    }

    /// Interface Builder's device ids of the iPhones and iPads of the last decade of Xcode.
    public static let table: [DeviceMetrics] = [
        phone("retina3_5", 320, 480, 2, .compact),   // iPhone 4s
        phone("retina4_0", 320, 568, 2, .compact),   // iPhone 5s, SE (1st)
        phone("retina4_7", 375, 667, 2, .compact),   // iPhone 6, 7, 8, SE (2nd, 3rd)
        phone("retina5_5", 414, 736, 3, .regular),   // iPhone 6 Plus, 7 Plus, 8 Plus
        phone("retina5_9", 375, 812, 3, .compact),   // iPhone X, XS, 11 Pro
        phone("retina5_4", 375, 812, 3, .compact),   // iPhone 12 mini, 13 mini
        phone("retina6_1", 414, 896, 2, .regular),   // iPhone XR, 11
        phone("retina6_5", 414, 896, 3, .regular),   // iPhone XS Max, 11 Pro Max
        phone("retina6_0", 390, 844, 3, .compact),   // iPhone 12, 12 Pro, 13, 13 Pro, 14
        phone("retina6_7", 428, 926, 3, .regular),   // iPhone 12 Pro Max, 13 Pro Max, 14 Plus
        phone("retina6_12", 393, 852, 3, .compact),  // iPhone 14 Pro, 15, 15 Pro, 16
        phone("retina6_72", 430, 932, 3, .regular),  // iPhone 14 Pro Max, 15 Plus, 15 Pro Max, 16 Plus
        phone("retina6_3", 402, 874, 3, .compact),   // iPhone 16 Pro
        phone("retina6_9", 440, 956, 3, .regular),   // iPhone 16 Pro Max
        pad("ipad9_7", 768, 1024),                   // iPad 9.7", iPad mini (to 5th)
        pad("ipad10_2", 810, 1080),                  // iPad 10.2" (7th–9th)
        pad("ipad10_5", 834, 1112),                  // iPad Pro 10.5", iPad Air (3rd)
        pad("ipad10_9", 820, 1180),                  // iPad Air (4th, 5th), iPad (10th)
        pad("ipad11", 834, 1194),                    // iPad Pro 11"
        pad("ipad12_9", 1024, 1366),                 // iPad Pro 12.9"
        pad("ipad12_9rounded", 1024, 1366),          // iPad Pro 12.9" (3rd and later)
        pad("ipad8_3", 744, 1133),                   // iPad mini (6th)
        // The ids of current Xcode, whose iPads have rounded screens: sizes are Apple's published
        // pixel resolutions at 2x (docs/decisions.md, "Storyboard device ids").
        pad("ipad10_9rounded", 820, 1180),           // iPad Air 10.9"/11" (4th and later), iPad (10th and later): 2360x1640
        pad("ipad11_0rounded", 834, 1194),           // iPad Pro 11" (1st to 4th): 2388x1668
        pad("ipad13_0rounded", 1032, 1376),          // iPad Pro 13" (M4): 2752x2064
    ]

    /// The device of Interface Builder's `id`, if the table has it.
    public static func named(_ id: String) -> DeviceMetrics? {
        table.first { $0.id == id }
    }

    private static func phone(_ id: String, _ width: Double, _ height: Double, _ scale: Double, _ landscapeWidth: SizeClass) -> DeviceMetrics {
        DeviceMetrics(id: id, portraitSize: Size(width, height), idiom: .phone, scale: scale, landscapeWidthClass: landscapeWidth)
    }

    private static func pad(_ id: String, _ width: Double, _ height: Double) -> DeviceMetrics {
        DeviceMetrics(id: id, portraitSize: Size(width, height), idiom: .pad, scale: 2, landscapeWidthClass: .regular)
    }
}
