import TrellisModel

/// Which UIKit generation's presentation defaults and adaptation table apply (SPEC §3.5, §3.7).
public enum AdaptationProfile: String, Sendable, CaseIterable {
    /// iOS 8 to 12: `automatic` is full screen; sheets adapt to full screen in compact width.
    case ios8
    /// iOS 13 and later: `automatic` is a page sheet; sheets adapt to full screen in compact height.
    case ios13
}

/// What an adaptive presentation delegate answers (R48). Only fullScreen, overFullScreen,
/// formSheet and none are valid; anything else falls back to the default.
public enum AdaptiveAnswer: Sendable, Hashable {
    /// A presentation style.
    case style(ModalPresentationStyle)
    /// An answer that is not a presentation style at all, kept as written.
    case unrecognized(String)

    var validStyle: ModalPresentationStyle? {
        guard case let .style(style) = self else { return nil }
        switch style {
        case .fullScreen, .overFullScreen, .formSheet, .none: return style
        case .automatic, .pageSheet, .currentContext, .custom, .overCurrentContext, .popover: return nil
        }
    }
}

/// The adaptive presentation delegate of a presentation (R48, R49).
public struct AdaptiveDelegate: Sendable, Hashable {
    /// The answer to `adaptivePresentationStyle(for:traitCollection:)`; nil: not implemented.
    public var answer: AdaptiveAnswer?
    /// R49: wrap the presented controller in a navigation controller while adapted.
    public var wrapsInNavigationController: Bool

    /// A delegate answering `answer` and, with `wrapsInNavigationController`, wrapping while adapted.
    public init(answer: AdaptiveAnswer? = nil, wrapsInNavigationController: Bool = false) {
        self.answer = answer
        self.wrapsInNavigationController = wrapsInNavigationController
    }
}

/// The rules of SPEC §3.5–§3.7 that depend only on values: which presentations are refused,
/// style defaults, which styles cover the screen, which remove the presenter's views,
/// adaptation tables and presented sizes. Every rule names every style and profile, with no
/// `default:` arm: a new one does not compile until each rule here has decided for it.
public enum PresentationRules {
    // MARK: Refusals (R30, R31)

    /// R31: why `receiver` may not present `presented`, as UIKit words it; nil when it may.
    /// `collapsedSplits`: the split view controllers collapsed now (the window asks them).
    /// (The popover without a source is `popoverSourceRefusal`, once the style is known.)
    public static func presentationRefusal(
        of presented: HierarchyStructure.Node, on receiver: ControllerID, in structure: HierarchyStructure,
        collapsedSplits: Set<ControllerID> = []
    ) -> String? {
        if presented.id == receiver {
            return "Application tried to present modally a view controller \(presented.id) on itself"
        }
        if let presenting = presented.presenting {
            return "Application tried to present modally a view controller \(presented.id) that is already being presented by \(presenting)"
        }
        if let parent = presented.parent {
            return "Application tried to present modally a view controller \(presented.id) that is a child of \(parent)"
        }
        if presented.id == structure.root {
            return "Application tried to present modally the window's root view controller \(presented.id)"
        }
        // A controller out of the window's tree, or one a container does not show (a tab bar
        // controller's other tabs, a navigation controller's controllers below its top, a
        // collapsed split's secondary): its view is in no window, as UIKit says (its
        // presentation would have no container).
        if !structure.isInWindow(receiver, collapsedSplits: collapsedSplits) {
            return "Attempt to present \(presented.id) on \(receiver) whose view is not in the window hierarchy"
        }
        return nil
    }

    /// R31: a popover needs a source view or rect in regular width (the window's); nil when
    /// this presentation has one or needs none.
    public static func popoverSourceRefusal(
        of presented: HierarchyStructure.Node, style: ModalPresentationStyle, windowTraits: TraitCollection
    ) -> String? {
        guard style == .popover, !presented.hasPopoverSource, windowTraits.horizontalSizeClass != .compact else { return nil }
        return "popover presentation of \(presented.id) needs a sourceView or sourceRect in regular width"
    }

    /// R31: a style no presentation controller presents; nil when `style` has one. `.none` is an
    /// adaptive delegate's answer ("no adaptation", R48), never a presentation's: Apple's
    /// `UIModalPresentationStyle.none` says not to present with it, and UIKit raises
    /// `NSInvalidArgumentException` when asked to (docs/decisions.md).
    public static func styleRefusal(of presented: ControllerID, style: ModalPresentationStyle) -> String? {
        switch style {
        case .none:
            return "presentation of \(presented) with style none: the specified modal presentation style doesn't have a corresponding presentation controller"
        case .automatic, .fullScreen, .pageSheet, .formSheet, .currentContext, .custom, .overFullScreen, .overCurrentContext, .popover:
            return nil
        }
    }

    /// R30: the warning when `presenter` (after rerouting from `receiver`) already presents a
    /// controller; nil when it presents nothing.
    public static func alreadyPresentingWarning(
        presenting presented: ControllerID, on presenter: ControllerID, from receiver: ControllerID, in structure: HierarchyStructure
    ) -> String? {
        guard let current = structure[presenter]?.presented else { return nil }
        return "Attempt to present \(presented) on \(presenter) (from \(receiver)) which is already presenting \(current)"
    }

    // MARK: Styles (§3.5)

    /// The style used when the presented controller asks for `requested` (nil: the default).
    public static func resolvedStyle(_ requested: ModalPresentationStyle?, profile: AdaptationProfile) -> ModalPresentationStyle {
        let style = requested ?? .automatic
        switch style {
        case .automatic:
            switch profile {
            case .ios8: return .fullScreen
            case .ios13: return .pageSheet
            }
        case .none, .fullScreen, .pageSheet, .formSheet, .currentContext, .custom, .overFullScreen, .overCurrentContext, .popover:
            return style
        }
    }

    /// R35: styles whose presenter must cover the screen.
    public static func needsFullScreenPresenter(_ style: ModalPresentationStyle, customPresentsInFullscreen: Bool) -> Bool {
        switch style {
        case .currentContext, .overCurrentContext: return false
        case .custom: return customPresentsInFullscreen
        case .automatic, .none, .fullScreen, .pageSheet, .formSheet, .overFullScreen, .popover: return true
        }
    }

    /// Whether the presented controller's traits come from the context controller (R18).
    public static func isContextStyle(_ style: ModalPresentationStyle, customPresentsInFullscreen: Bool) -> Bool {
        !needsFullScreenPresenter(style, customPresentsInFullscreen: customPresentsInFullscreen)
    }

    /// R41: fullScreen and currentContext remove the presenter's views; custom as it says.
    public static func removesPresenterViews(_ style: ModalPresentationStyle, customRemovesPresentersView: Bool) -> Bool {
        switch style {
        case .fullScreen, .currentContext: return true
        case .custom: return customRemovesPresentersView
        case .automatic, .none, .pageSheet, .formSheet, .overFullScreen, .overCurrentContext, .popover: return false
        }
    }

    /// The style the profile adapts `style` to in these traits; `.none` when it does not adapt.
    public static func defaultAdaptiveStyle(for style: ModalPresentationStyle, traits: TraitCollection, profile: AdaptationProfile) -> ModalPresentationStyle {
        let compactWidth = traits.horizontalSizeClass == .compact
        let compactHeight = traits.verticalSizeClass == .compact
        switch (profile, style) {
        case (_, .fullScreen), (_, .overFullScreen), (_, .custom), (_, .none), (_, .automatic):
            return .none
        case (.ios8, .popover):
            return compactWidth ? .overFullScreen : .none
        case (.ios8, .formSheet), (.ios8, .pageSheet):
            return compactWidth ? .fullScreen : .none
        case (.ios13, .popover):
            if compactHeight { return .fullScreen }
            return compactWidth ? .formSheet : .none
        case (.ios13, .formSheet), (.ios13, .pageSheet):
            return compactHeight ? .fullScreen : .none
        case (_, .currentContext), (_, .overCurrentContext):
            return compactWidth ? .fullScreen : .none
        }
    }

    /// Whether a presentation asks for an adaptive style at all (R48): full-screen styles never
    /// do, and a custom one only when it has a delegate to answer.
    public static func asksForAdaptiveStyle(_ style: ModalPresentationStyle, hasDelegate: Bool) -> Bool {
        switch style {
        case .fullScreen, .overFullScreen, .none, .automatic: return false
        case .custom: return hasDelegate
        case .pageSheet, .formSheet, .currentContext, .overCurrentContext, .popover: return true
        }
    }

    /// R48: whether a presentation controller's environment changed enough, from `old` to `new`
    /// traits, to ask for its adaptive style again: a change of horizontal size class, or
    /// (`ios13`, which also adapts to compact height) of vertical size class.
    public static func asksAgainForAdaptiveStyle(from old: TraitCollection, to new: TraitCollection, profile: AdaptationProfile) -> Bool {
        let widthChanged = new.horizontalSizeClass != old.horizontalSizeClass
        switch profile {
        case .ios8: return widthChanged
        case .ios13: return widthChanged || new.verticalSizeClass != old.verticalSizeClass
        }
    }

    /// Whether these traits are compact for adaptation: compact width, or (`ios13`) compact height.
    public static func isCompactForAdaptation(_ traits: TraitCollection, profile: AdaptationProfile) -> Bool {
        let compactWidth = traits.horizontalSizeClass == .compact
        switch profile {
        case .ios8: return compactWidth
        case .ios13: return compactWidth || traits.verticalSizeClass == .compact
        }
    }

    /// The adaptive style a presentation ends up with: the delegate's valid answer, else the
    /// profile's default (R48); `.none` means "no adaptation". Regular width never adapts, except
    /// the `ios13` compact-height rule.
    public static func adaptiveStyle(
        for style: ModalPresentationStyle, traits: TraitCollection, profile: AdaptationProfile, answer: AdaptiveAnswer?
    ) -> ModalPresentationStyle {
        let fallback = defaultAdaptiveStyle(for: style, traits: traits, profile: profile)
        guard isCompactForAdaptation(traits, profile: profile) else { return .none }
        if style == .custom, answer == nil { return .none }
        return answer?.validStyle ?? fallback
    }

    /// The size a built-in presentation controller gives its presented controller (SPEC §3.5),
    /// whatever size it received: `container` is the presenter's (or context's) new size.
    public static func presentedSize(
        style: ModalPresentationStyle, windowSize: Size, containerSize: Size, preferredContentSize: Size, traits: TraitCollection
    ) -> Size {
        let regularWidth = traits.horizontalSizeClass != .compact
        func clamped(_ size: Size) -> Size {
            Size(min(size.width, windowSize.width), min(size.height, windowSize.height))
        }
        func preferred(or fallback: Size) -> Size {
            preferredContentSize.width > 0 && preferredContentSize.height > 0 ? preferredContentSize : fallback
        }
        switch style {
        case .fullScreen, .overFullScreen, .automatic:
            return windowSize
        case .currentContext, .overCurrentContext, .custom, .none:
            return containerSize
        case .formSheet:
            return regularWidth ? clamped(preferred(or: Size(540, 620))) : windowSize
        case .pageSheet:
            return regularWidth ? clamped(Size(768, windowSize.height)) : windowSize
        case .popover:
            return clamped(preferred(or: Size(320, 480)))
        }
    }

    /// The default grant of a built-in presentation controller (R24): a popover grants
    /// (clamped to the screen), a form sheet grants in regular width, full-screen styles ignore.
    public static func defaultGrant(style: ModalPresentationStyle, windowSize: Size, traits: TraitCollection) -> GrantPolicy {
        switch style {
        case .popover: return .clamp(windowSize)
        case .formSheet: return traits.horizontalSizeClass != .compact ? .clamp(windowSize) : .none
        case .automatic, .none, .fullScreen, .pageSheet, .currentContext, .custom, .overFullScreen, .overCurrentContext: return .none
        }
    }

    // MARK: Frames (§3.9)

    /// R62: the bounds of a presentation's container view, in its own coordinates: it covers the
    /// window for full-screen styles and the context controller for current-context styles.
    public static func containerBounds(
        style: ModalPresentationStyle, customPresentsInFullscreen: Bool, windowSize: Size, contextSize: Size
    ) -> Rect {
        Rect(isContextStyle(style, customPresentsInFullscreen: customPresentsInFullscreen) ? contextSize : windowSize)
    }

    /// R64: whether the style puts a dimming view over the container view, under the presented
    /// view: the sheets and custom presentations (the seed's sidebar dims); popovers do not, and
    /// the full-screen and current-context styles cover what is below.
    public static func dims(_ style: ModalPresentationStyle) -> Bool {
        switch style {
        case .formSheet, .pageSheet, .custom: return true
        case .automatic, .none, .fullScreen, .currentContext, .overFullScreen, .overCurrentContext, .popover: return false
        }
    }

    /// R62: UIKit's `frameOfPresentedViewInContainerView` for the style in effect (the adaptive
    /// style while adapted), in the container view's coordinates. `presentedSize` is the size the
    /// presentation controller's `sizeForChild` gave the presented controller (SPEC §3.5);
    /// `popoverSource` is a popover's source rect, in the container's coordinates (the window's).
    /// A custom presentation's frame is its behaviour's; UIKit's default is the container's bounds.
    public static func frameOfPresentedView(
        style: ModalPresentationStyle, container: Rect, presentedSize: Size, popoverSource: Rect?
    ) -> Rect {
        switch style {
        case .fullScreen, .overFullScreen, .currentContext, .overCurrentContext, .custom, .none, .automatic:
            return container
        case .formSheet, .pageSheet:
            return Rect(
                origin: Point(x: container.midX - presentedSize.width / 2, y: container.midY - presentedSize.height / 2),
                size: presentedSize)
        case .popover:
            return popoverFrame(size: presentedSize, source: popoverSource ?? Rect(origin: Point(x: container.midX, y: container.midY), .zero), window: container)
        }
    }

    /// R62: a popover of `size` beside `source`: below it when it fits between the source's
    /// bottom edge and the window's (centred horizontally on the source), else above it, else to
    /// its right, else to its left (centred vertically); then moved the least distance that puts
    /// it inside the window.
    public static func popoverFrame(size: Size, source: Rect, window: Rect) -> Rect {
        var origin: Point
        if source.maxY + size.height <= window.maxY {
            origin = Point(x: source.midX - size.width / 2, y: source.maxY)
        } else if source.minY - size.height >= window.minY {
            origin = Point(x: source.midX - size.width / 2, y: source.minY - size.height)
        } else if source.maxX + size.width <= window.maxX {
            origin = Point(x: source.maxX, y: source.midY - size.height / 2)
        } else {
            origin = Point(x: source.minX - size.width, y: source.midY - size.height / 2)
        }
        func inside(_ value: Double, _ low: Double, _ high: Double) -> Double {
            max(low, min(value, max(low, high)))
        }
        origin.x = inside(origin.x, window.minX, window.maxX - size.width)
        origin.y = inside(origin.y, window.minY, window.maxY - size.height)
        return Rect(origin: origin, size: size)
    }

    /// R63: whether the style's presentation controller places the presented view at its frame
    /// again in every layout pass (its `containerViewWillLayoutSubviews`): UIKit's built-in ones
    /// do; a custom one's default does not (WWDC 2014's sidebar overrides it to).
    public static func reappliesFrameOnLayout(_ style: ModalPresentationStyle) -> Bool {
        switch style {
        case .custom: return false
        case .automatic, .none, .fullScreen, .pageSheet, .formSheet, .currentContext, .overFullScreen, .overCurrentContext, .popover:
            return true
        }
    }

    /// R63: the presented view's frame after the container view's bounds go from `old` to `new`
    /// and nothing places it again — autoresized as a view controller's view is by default
    /// (flexible width and height): its margins kept, its size changed by the container's,
    /// never below zero.
    public static func autoresizedFrame(_ frame: Rect, from old: Size, to new: Size) -> Rect {
        Rect(
            origin: frame.origin,
            size: Size(max(0, frame.size.width + new.width - old.width), max(0, frame.size.height + new.height - old.height)))
    }

    /// R63's warning: a custom presentation's presented view has a frame whose size is not the
    /// one its `sizeForChild` told the presented controller; the text says where the frame came from.
    public static func frameWarning(_ presented: ControllerID, frame: Rect, told: Size, source: PresentedFrameSource) -> String {
        switch source {
        case .query:
            return "frameOfPresentedViewInContainerView gives \(presented) \(frame.size), but sizeForChild gave \(told)"
        case .autoresized:
            return "\(presented) keeps its frame \(frame), autoresized with the container view, but sizeForChild gave \(told): "
                + "containerViewWillLayoutSubviews does not place it again"
        case .setByBehavior:
            return "the frame set for \(presented) is \(frame), but sizeForChild gave \(told)"
        }
    }

    /// A custom presentation's frame as the scenario's `frame` rule places it: the size its
    /// `sizeForChild` gave, aligned in the container (SPEC §5).
    public static func alignedFrame(_ alignment: FrameAlignment, size: Size, in container: Rect) -> Rect {
        let x: Double, y: Double
        switch alignment {
        case .left: (x, y) = (container.minX, container.midY - size.height / 2)
        case .right: (x, y) = (container.maxX - size.width, container.midY - size.height / 2)
        case .center: (x, y) = (container.midX - size.width / 2, container.midY - size.height / 2)
        case .top: (x, y) = (container.midX - size.width / 2, container.minY)
        case .bottom: (x, y) = (container.midX - size.width / 2, container.maxY - size.height)
        }
        return Rect(origin: Point(x: x, y: y), size: size)
    }
}

/// Where a custom presentation's `frame` rule puts the presented view in its container (SPEC §5).
public enum FrameAlignment: String, Sendable, CaseIterable {
    /// Against the container's left edge.
    case left
    /// Against the container's right edge.
    case right
    /// In the container's centre.
    case center
    /// Against the container's top edge.
    case top
    /// Against the container's bottom edge.
    case bottom
}

/// Where a presented view's frame came from, for R63's warning.
public enum PresentedFrameSource: Sendable {
    /// `frameOfPresentedViewInContainerView`, asked by the layout or the transition.
    case query
    /// Kept from before and autoresized with the container view: nothing placed it again.
    case autoresized
    /// Set by the presentation controller's own code (`setPresentedViewFrame`).
    case setByBehavior
}
