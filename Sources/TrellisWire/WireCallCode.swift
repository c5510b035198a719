/// The operation a CALL asks of the controller it targets (one octet in the CALL body).
///
/// Each case lists the values the CALL carries, in order, and what its RETURN carries; a call
/// whose RETURN is not described returns no values. `cause` is an event ref, or none. The
/// protocol document (Protocols/wire-protocol.md §8) is the normative table.
public enum WireCallCode: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// `viewWillTransition(to:with:)`: size, transition, cause.
    case viewWillTransition = 0x01
    /// A trait transition with the new effective traits: traits, bool deliver, transition, cause.
    case traitTransition = 0x02
    /// Applies the traits of the trait transition and sends `traitCollectionDidChange`: cause.
    case applyPendingTraits = 0x03
    /// The layout pass: cause.
    case layout = 0x04
    /// A child's preferred content size changed: string child, size preferred, cause.
    case preferredContentSizeDidChange = 0x05
    /// A child's fitting size changed: string child, cause.
    case systemLayoutFittingSizeDidChange = 0x06
    /// The first size and traits before any step: size or none, traits, cause.
    case initialLayout = 0x07
    /// An appearance callback: string callback name, cause.
    case appearance = 0x08
    /// Becomes visible again with its container's size and traits: size, traits, cause.
    case refresh = 0x09
    /// Reads the controller's state: no arguments; returns size, traits, size preferredContentSize.
    case snapshot = 0x20
    /// Sets the controller's `preferredContentSize`: size, cause.
    case setPreferredContentSize = 0x21
    /// The controller's fitting size changed: cause.
    case notifySystemLayoutFittingSizeDidChange = 0x22
    /// `setOverrideTraitCollection(_:forChild:)`: traits or none, string child, transition, cause.
    case setOverrideTraits = 0x23
    /// Sets (or clears) the container that receives the controller's requests: address or none.
    case setContainer = 0x24
    /// Attaches the presentation controller of what it presents: address pc, bool inheritsPresenterTraits.
    case attachPresentation = 0x25
    /// Detaches its presentation: no arguments.
    case detachPresentation = 0x26
    /// Appends a child: address.
    case appendChild = 0x27
    /// Removes its last child (a pop): no arguments.
    case removeLastChild = 0x28
    /// Replaces the child at an index: int index, address.
    case replaceChild = 0x29
    /// Selects a tab: int index, cause.
    case select = 0x2A
    /// A child becomes visible, sized and laid out: int index, cause.
    case showChild = 0x2B
    /// Reads the frame the target container gives a child (R60): string child; returns rect or none.
    case childFrame = 0x2C
    /// Creates a presentation controller for the target (the presented controller): string style,
    /// size containerSize, traits, size windowSize, cause; returns address pc.
    case makePresentationController = 0x40
    /// A presentation controller adapts when presenting into a compact environment: cause.
    case adaptForPresentation = 0x41
    /// A presentation controller gives what it displays its traits before it appears: no arguments.
    case prepareDisplayed = 0x42
    /// A presentation transition callback: string callback name, bool value, cause.
    case presentationCallback = 0x43
    /// A presentation controller sizes and lays out what it displays the first time: cause.
    case initialPresentationLayout = 0x44
    /// Reads a presentation controller's state: no arguments; returns bool removesPresenterViews,
    /// string displayedID.
    case presentationState = 0x45
    /// An appearance callback to what a presentation controller displays: string callback name, cause.
    case displayedAppearance = 0x46
    /// Tells the conductor that an adaptive wrapper came or went: string presented id, address
    /// wrapper or none.
    case wrapperChanged = 0x60
    /// Asks the conductor's window where a popover's source is now, in window coordinates
    /// (R62): string presented id; returns rect or none.
    case popoverSourceRect = 0x61
    /// Asks the conductor's window for a transition that a controller starts by itself (a
    /// receipt, R25): bool animated; returns the transition, numbered by the window, towards the
    /// window's size and traits as they are now.
    case windowTransition = 0x62

    /// The Swift case name, as the protocol document spells it.
    public var description: String {
        switch self {
        case .viewWillTransition: "viewWillTransition"
        case .traitTransition: "traitTransition"
        case .applyPendingTraits: "applyPendingTraits"
        case .layout: "layout"
        case .preferredContentSizeDidChange: "preferredContentSizeDidChange"
        case .systemLayoutFittingSizeDidChange: "systemLayoutFittingSizeDidChange"
        case .initialLayout: "initialLayout"
        case .appearance: "appearance"
        case .refresh: "refresh"
        case .snapshot: "snapshot"
        case .setPreferredContentSize: "setPreferredContentSize"
        case .notifySystemLayoutFittingSizeDidChange: "notifySystemLayoutFittingSizeDidChange"
        case .setOverrideTraits: "setOverrideTraits"
        case .setContainer: "setContainer"
        case .attachPresentation: "attachPresentation"
        case .detachPresentation: "detachPresentation"
        case .appendChild: "appendChild"
        case .removeLastChild: "removeLastChild"
        case .replaceChild: "replaceChild"
        case .select: "select"
        case .showChild: "showChild"
        case .childFrame: "childFrame"
        case .makePresentationController: "makePresentationController"
        case .adaptForPresentation: "adaptForPresentation"
        case .prepareDisplayed: "prepareDisplayed"
        case .presentationCallback: "presentationCallback"
        case .initialPresentationLayout: "initialPresentationLayout"
        case .presentationState: "presentationState"
        case .displayedAppearance: "displayedAppearance"
        case .wrapperChanged: "wrapperChanged"
        case .popoverSourceRect: "popoverSourceRect"
        case .windowTransition: "windowTransition"
        }
    }
}
