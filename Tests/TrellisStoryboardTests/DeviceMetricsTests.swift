import Testing
import TrellisModel
import TrellisStoryboard

/// SPEC §11: Interface Builder's device ids → the window, from Apple's published metrics.
@Suite("device metrics")
struct DeviceMetricsTests {
    @Test("the iPhone and iPad ids of the last decade of Xcode are known", arguments: [
        "retina3_5", "retina4_0", "retina4_7", "retina5_5", "retina5_9", "retina6_1", "retina6_5", "retina6_12", "retina6_72",
        "ipad9_7", "ipad10_2", "ipad11", "ipad12_9",
    ])
    func known(_ id: String) throws {
        let device = try #require(DeviceMetrics.named(id))
        #expect(device.portraitSize.width < device.portraitSize.height)
        #expect(device.scale == 2 || device.scale == 3)
    }

    @Test("size classes per orientation: large iPhones are regular wide in landscape, the others compact; iPads regular both ways")
    func sizeClasses() throws {
        let xr = try #require(DeviceMetrics.named("retina6_1"))
        #expect(xr.traits(.portrait) == TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2))
        #expect(xr.traits(.landscape) == TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .compact, userInterfaceIdiom: .phone, displayScale: 2))
        #expect(xr.size(.landscape) == Size(896, 414))
        let fifteen = try #require(DeviceMetrics.named("retina6_12"))
        #expect(fifteen.size(.portrait) == Size(393, 852))
        #expect(fifteen.traits(.landscape).horizontalSizeClass == .compact)
        #expect(fifteen.traits(.landscape).verticalSizeClass == .compact)
        #expect(DeviceMetrics.named("retina6_72")?.portraitSize == Size(430, 932))
        #expect(DeviceMetrics.named("retina4_7")?.traits(.landscape).horizontalSizeClass == .compact)
        #expect(DeviceMetrics.named("retina5_5")?.traits(.landscape).horizontalSizeClass == .regular)
        let pad = try #require(DeviceMetrics.named("ipad12_9"))
        #expect(pad.traits(.landscape) == TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2))
        #expect(pad.size(.landscape) == Size(1366, 1024))
        #expect(DeviceMetrics.named("watch44") == nil)
        #expect(Set(DeviceMetrics.table.map(\.id)).count == DeviceMetrics.table.count)
    }

    @Test("current Xcode's rounded iPads: their point sizes, regular both ways", arguments: [
        ("ipad10_9rounded", Size(820, 1180)), ("ipad11_0rounded", Size(834, 1194)), ("ipad13_0rounded", Size(1032, 1376)),
    ])
    func roundedPads(_ id: String, _ size: Size) throws {
        let device = try #require(DeviceMetrics.named(id))
        #expect(device.portraitSize == size)
        #expect(device.traits(.landscape) == TraitCollection(horizontalSizeClass: .regular, verticalSizeClass: .regular, userInterfaceIdiom: .pad, displayScale: 2))
    }
}
