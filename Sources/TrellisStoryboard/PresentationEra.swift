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

    /// The notice for `main` when it was saved by Xcode 11 or later and one of its segues
    /// presents; nil otherwise (older files, or nothing presented through a segue).
    static func advice(_ main: StoryboardFile, controllers: [MappedController], segues: [MappedSegue]) -> String? {
        guard let tools = main.document["toolsVersion"],
              let major = Int(tools.prefix { $0 != "." }), major >= firstToolsVersionOfIOS13SDK,
              segues.contains(where: SeguePresence(controllers: controllers, segues: segues).presents) else { return nil }
        return "\(main.path) was saved by Xcode 11 or later (toolsVersion \(tools)), whose apps present with iOS 13's defaults, "
            + "but a scenario naming no \"profile\" runs the ios8 profile, where a presentation without a style is full screen "
            + "and sheets and popovers adapt to full screen in compact width; add \"profile\": \"ios13\" for page sheets"
    }
}

/// Which segues present a controller when performed: those of the presenting kinds, and a
/// `show` (or `push`) or `showDetail` that nothing handles, which the window's root presents
/// (R55–R57) — told from the storyboard alone. A `show` is handled when a navigation controller
/// is found from its source by walking parents (relationships and container views), then a
/// presented or pushed controller's source (the controller a presenting segue was performed
/// from is its presenter; a pushed one's parent is its source's navigation controller); a
/// `showDetail` when a split controller is. A segue some path reaches a handler from counts as
/// handled: the notice is for apps that certainly present. (Which kind handles which is R55's
/// and R56's rule, `ContainerRules.handlesShow`/`handlesShowDetail` in TrellisRuntime, which
/// the importer does not link: a storyboard is read without the runtime.)
struct SeguePresence {
    /// Where the walk goes on from each controller: its parents, and the sources of the segues
    /// that present or push it.
    private var onwards: [String: [String]] = [:]
    private var kinds: [String: MappedKind] = [:]

    init(controllers: [MappedController], segues: [MappedSegue]) {
        for controller in controllers {
            kinds[controller.id] = controller.kind
            for child in controller.children { onwards[child.id, default: []].append(controller.id) }
        }
        for segue in segues {
            guard let destination = segue.destination, segue.kind != "unwind" else { continue }
            onwards[destination, default: []].append(segue.from)
        }
    }

    /// Whether performing `segue` presents a controller.
    func presents(_ segue: MappedSegue) -> Bool {
        switch segue.kind {
        case "presentation", "modal", "popoverPresentation": true
        case "show", "push": !reaches(.navigation, from: segue.from)
        case "showDetail": !reaches(.split, from: segue.from)
        default: false
        }
    }

    /// Whether a controller of `kind` is `start` or found walking on from it.
    private func reaches(_ kind: MappedKind, from start: String) -> Bool {
        var seen: Set<String> = [start]
        var next = [start]
        while let id = next.popLast() {
            if kinds[id] == kind { return true }
            for onward in onwards[id, default: []] where seen.insert(onward).inserted { next.append(onward) }
        }
        return false
    }
}
