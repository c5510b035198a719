/// UIKit's `UIModalPresentationStyle`.
public enum ModalPresentationStyle: String, CaseIterable, Hashable, Sendable {
    case automatic, none, fullScreen, pageSheet, formSheet, currentContext, custom,
         overFullScreen, overCurrentContext, popover
}

/// UIKit's `UIModalTransitionStyle`.
public enum ModalTransitionStyle: String, CaseIterable, Hashable, Sendable {
    case coverVertical, flipHorizontal, crossDissolve, partialCurl
}
