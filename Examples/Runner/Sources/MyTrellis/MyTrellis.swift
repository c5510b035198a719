import TrellisCLI
import TrellisRuntime

/// `my-trellis`: every `trellis` command, with the behaviours of this package by name.
@main struct MyTrellis {
    static func main() async {
        await TrellisCLI.main(registry: BehaviorRegistry()
            .presentationController("Overlay", OverlayPresentation())
            .viewController("SideBySide", SideBySideContainer())
            .adaptiveDelegate("SlideOver", SlideOverDelegate())
            .presentationController("Panel", PanelPresentation())
            .presentationController("BottomSheet", BottomSheetPresentation()))
    }
}
