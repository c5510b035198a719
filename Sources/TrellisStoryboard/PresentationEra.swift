/// Which UIKit generation's presentation defaults a storyboard's app runs with, told from the
/// Xcode that saved it (SPEC §3.5, §3.7: the `ios8` profile, the default, and `ios13`). Xcode 11
/// brought the iOS 13 SDK, and an app built with it presents a controller without a style as a
/// page sheet and lets sheets and popovers stay sheets on iPhone; the `ios8` profile presents
/// it full screen. A scenario naming no profile runs `ios8`, so a storyboard of that era is told
/// so once (docs/decisions.md, "Storyboards of Xcode 11 and later").
enum PresentationEra {
    /// The first `toolsVersion` of Xcode 11: Xcode 10.3 saved 14490, Xcode 11 15505 (with
    /// `appearance` on `<device>`, iOS 13's dark mode).
    static let firstToolsVersionOfIOS13SDK = 15000

    /// The segue kinds that present a controller (SPEC §11).
    static let presentingKinds: Set<String> = ["presentation", "modal", "popoverPresentation"]

    /// The notice for `main` when it was saved by Xcode 11 or later and one of its segues
    /// presents; nil otherwise (older files, or nothing presented through a segue).
    static func advice(_ main: StoryboardFile, segues: [MappedSegue]) -> String? {
        guard let tools = main.document["toolsVersion"],
              let major = Int(tools.prefix { $0 != "." }), major >= firstToolsVersionOfIOS13SDK,
              segues.contains(where: { presentingKinds.contains($0.kind) }) else { return nil }
        return "\(main.path) was saved by Xcode 11 or later (toolsVersion \(tools)), whose apps present with iOS 13's defaults, "
            + "but a scenario naming no \"profile\" runs the ios8 profile, where a presentation without a style is full screen "
            + "and sheets and popovers adapt to full screen in compact width; add \"profile\": \"ios13\" for page sheets"
    }
}
