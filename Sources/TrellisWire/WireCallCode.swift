/// The operation a CALL asks of the controller it targets (one octet in the CALL body).
///
/// The protocol document (Protocols/wire-protocol.md §8) is the normative table. Each call's
/// arguments and results, in order, where a node serves it and what it does are declared once,
/// in TrellisTransport's `ControllerCalls`, which a test holds to that table: a new call is a
/// case here and a declaration there.
public enum WireCallCode: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// `viewWillTransition(to:with:)`.
    case viewWillTransition = 0x01
    /// A trait transition with the new effective traits.
    case traitTransition = 0x02
    /// Applies the traits of the trait transition and sends `traitCollectionDidChange`.
    case applyPendingTraits = 0x03
    /// The layout pass, with the frame the container gives the target.
    case layout = 0x04
    /// A child's preferred content size changed.
    case preferredContentSizeDidChange = 0x05
    /// A child's fitting size changed.
    case systemLayoutFittingSizeDidChange = 0x06
    /// The first frame and traits, before any step or when the target is first shown.
    case initialLayout = 0x07
    /// An appearance callback.
    case appearance = 0x08
    /// Becomes visible again with the frame and traits its container gives it.
    case refresh = 0x09
    /// A user action for the target's Swift behaviour (SPEC §4.2).
    case performAction = 0x0A
    /// Runs the target behaviour's next alongside or completion block of a transition (SPEC §7).
    case coordinatorBlock = 0x0B
    /// Reads the controller's state: size, traits, preferred content size, frame.
    case snapshot = 0x20
    /// Sets the controller's `preferredContentSize`.
    case setPreferredContentSize = 0x21
    /// The controller's fitting size changed.
    case notifySystemLayoutFittingSizeDidChange = 0x22
    /// `setOverrideTraitCollection(_:forChild:)`.
    case setOverrideTraits = 0x23
    /// Sets (or clears) the container that receives the controller's requests.
    case setContainer = 0x24
    /// Attaches the presentation controller of what it presents.
    case attachPresentation = 0x25
    /// Detaches its presentation.
    case detachPresentation = 0x26
    /// Appends a child.
    case appendChild = 0x27
    /// Removes its last child (a pop).
    case removeLastChild = 0x28
    /// Replaces the child at an index.
    case replaceChild = 0x29
    /// Selects a tab.
    case select = 0x2A
    /// A child becomes visible, sized and laid out.
    case showChild = 0x2B
    /// Reads the frame the target container gives a child (R60).
    case childFrame = 0x2C
    /// Lays the target out again at its frame (a behaviour's `setNeedsLayout`, since 1.6).
    case layOutAgain = 0x2D
    /// Creates a presentation controller for the target (the presented controller).
    case makePresentationController = 0x40
    /// A presentation controller adapts when presenting into a compact environment.
    case adaptForPresentation = 0x41
    /// A presentation controller gives what it displays its traits before it appears.
    case prepareDisplayed = 0x42
    /// A presentation transition callback.
    case presentationCallback = 0x43
    /// A presentation controller sizes and lays out what it displays the first time.
    case initialPresentationLayout = 0x44
    /// Reads a presentation controller's state.
    case presentationState = 0x45
    /// An appearance callback to what a presentation controller displays.
    case displayedAppearance = 0x46
    /// A presentation controller's behaviour set its presented view's frame (SPEC §4.2).
    case setPresentedViewFrame = 0x47
    /// Tells the conductor that an adaptive wrapper came or went.
    case wrapperChanged = 0x60
    /// Asks the conductor's window where a popover's source is now, in window coordinates (R62).
    case popoverSourceRect = 0x61
    /// Asks the conductor's window for a transition that a controller starts by itself (a
    /// receipt, R25), numbered by the window, towards its size and traits as they are now.
    case windowTransition = 0x62
    /// A request a behaviour on this node made (SPEC §4.2), for the conductor's window to carry out.
    case behaviorRequest = 0x63
    /// Tells the conductor's window of blocks a behaviour on this node registered with a
    /// transition's coordinator, so that it runs them in their place when the transition ends.
    case coordinatorRegistration = 0x64
    /// A transition a controller on this node started (with `windowTransition`) is over: the
    /// conductor's window runs the coordinator blocks registered for it, on every node.
    case endTransition = 0x65

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
        case .performAction: "performAction"
        case .coordinatorBlock: "coordinatorBlock"
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
        case .layOutAgain: "layOutAgain"
        case .makePresentationController: "makePresentationController"
        case .adaptForPresentation: "adaptForPresentation"
        case .prepareDisplayed: "prepareDisplayed"
        case .presentationCallback: "presentationCallback"
        case .initialPresentationLayout: "initialPresentationLayout"
        case .presentationState: "presentationState"
        case .displayedAppearance: "displayedAppearance"
        case .setPresentedViewFrame: "setPresentedViewFrame"
        case .wrapperChanged: "wrapperChanged"
        case .popoverSourceRect: "popoverSourceRect"
        case .windowTransition: "windowTransition"
        case .behaviorRequest: "behaviorRequest"
        case .coordinatorRegistration: "coordinatorRegistration"
        case .endTransition: "endTransition"
        }
    }
}
