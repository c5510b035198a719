/// UIKit's `UIModalPresentationStyle`.
public enum ModalPresentationStyle: String, CaseIterable, Hashable, Sendable {
    /// `.automatic`: the system picks (a page sheet from iOS 13, full screen before).
    case automatic
    /// `.none`: no adaptation, as an adaptation table or an adaptive delegate answers it.
    case none
    /// `.fullScreen`: covers the screen and removes the presenter's view.
    case fullScreen
    /// `.pageSheet`: a card on regular width, full screen on compact.
    case pageSheet
    /// `.formSheet`: a centred form on regular width, full screen on compact.
    case formSheet
    /// `.currentContext`: covers the controller that defines the presentation context.
    case currentContext
    /// `.custom`: a presentation controller of your own decides size and adaptation.
    case custom
    /// `.overFullScreen`: covers the screen and keeps the presenter's view.
    case overFullScreen
    /// `.overCurrentContext`: covers the context and keeps the views below it.
    case overCurrentContext
    /// `.popover`: anchored to a source on regular width, adapted on compact.
    case popover
}

/// UIKit's `UIModalTransitionStyle`.
public enum ModalTransitionStyle: String, CaseIterable, Hashable, Sendable {
    /// `.coverVertical`: slides up from the bottom (the default).
    case coverVertical
    /// `.flipHorizontal`: flips the presenter over.
    case flipHorizontal
    /// `.crossDissolve`: fades in.
    case crossDissolve
    /// `.partialCurl`: curls the presenter's view up.
    case partialCurl
}
