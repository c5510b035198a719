import TrellisModel
import TrellisRuntime

/// A scenario file (SPEC §5, `Protocols/scenario-format.md`): a window, a controller hierarchy
/// and the steps to drive it, with `expect` steps that assert what happened.
public struct Scenario: Sendable {
    /// The file's `name`: what the run is about.
    public var name: String
    /// `profile`: which UIKit generation's presentation defaults and adaptation apply.
    public var profile: AdaptationProfile
    /// The window's size in points.
    public var windowSize: Size
    /// The window's traits.
    public var windowTraits: TraitCollection
    /// The id of the root controller.
    public var root: ControllerID
    /// In the order the file lists them.
    public var controllers: [ControllerSpec]
    /// Controller id → node name, for distributed runs.
    public var placement: [ControllerID: String]
    /// The storyboard segues `performSegue` steps name (SPEC §11), in the order the file lists them.
    public var segues: [SegueSpec] = []
    /// Each controller a `performSegue` step made (`DEST~N`, SPEC §11), and the file's
    /// controller it copies; the copies themselves are in `controllers`, after the file's own.
    public var copiedFrom: [ControllerID: ControllerID] = [:]
    /// The steps, in order: window events and `expect` checks.
    public var steps: [ScenarioStep]
    /// Where the scenario came from, for messages.
    public var source: String
    /// Where each step is written in `source`, by index (SPEC §5: an `expect` failure names its
    /// step's `FILE:LINE:COLUMN`, as every other scenario error does); empty for a scenario made
    /// in code.
    public var stepPositions: [SourcePosition] = []
    /// The Swift behaviours the file's `"behavior"` names were checked against when it was
    /// decoded (SPEC §4.1), and that its controllers are built with: a scenario carries the
    /// registry of the runner that read it, so every tool that runs it (in-process, the screen
    /// picture, a node) builds the same controllers.
    public var registry = BehaviorRegistry()
    /// What a storyboard the scenario names stands in for (SPEC §11: custom classes without a
    /// behaviour, preview-device geometry, stand-in anchor rects), for standard error.
    public var notices: [String] = []

    /// The controller `id` describes; nil when the file has none.
    public func controller(_ id: ControllerID) -> ControllerSpec? {
        controllers.first { $0.id == id }
    }

    /// The segue whose id is `id`, if the scenario declares one.
    public func segue(_ id: String) -> SegueSpec? {
        segues.first { $0.id == id }
    }

    /// The Swift behaviours the file names, sorted, each once: what a run of it needs its
    /// runner (and, distributed, each of its nodes) to register.
    public var behaviorNames: [BehaviorName] {
        Set(controllers.flatMap(\.behaviorNames)).sorted()
    }
}

/// A place in a scenario file: 1-based line and column, as `TrellisJSON` and the YAML reader keep them.
public struct SourcePosition: Sendable, Equatable {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// A place at `line` and `column`, both from 1.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// One controller of a scenario, as the file describes it.
public struct ControllerSpec: Sendable {
    /// `id`: the controller's id, unique in the file.
    public var id: ControllerID
    /// `kind`: a built-in container or a plain `view`.
    public var kind: ContainerKind
    /// `children`: its children, in order.
    public var children: [ControllerID]
    /// `selected`: the selected child of a tab bar controller.
    public var selected: Int
    /// `modalPresentationStyle`: the style it asks for when presented (nil: the profile's default).
    public var modalPresentationStyle: ModalPresentationStyle?
    /// `modalTransitionStyle`: the transition style it asks for when presented.
    public var modalTransitionStyle: ModalTransitionStyle?
    /// `preferredContentSize`: the size it asks its container for.
    public var preferredContentSize: Size?
    /// `definesPresentationContext` (R37; nil: UIKit's default).
    public var definesPresentationContext: Bool?
    /// `providesPresentationContextTransitionStyle` (R38).
    public var providesPresentationContextTransitionStyle: Bool?
    /// `traitOverrides`: traits it sets on its children, by child.
    public var traitOverrides: [ControllerID: TraitCollection]
    /// `presentationController`: its presentation controller when presented with `custom`.
    public var presentationController: CustomPresentationSpec? {
        get { rare?.fields.presentationController }
        set { updateRare { $0.presentationController = newValue } }
    }
    /// `adaptiveDelegate`: the adaptive delegate of its presentations (R48, R49).
    public var adaptiveDelegate: AdaptiveDelegateSpec? {
        get { rare?.fields.adaptiveDelegate }
        set { updateRare { $0.adaptiveDelegate = newValue } }
    }
    /// `popoverSource`: where a popover presentation of it points from.
    public var popoverSource: PopoverSourceSpec? {
        get { rare?.fields.popoverSource }
        set { updateRare { $0.popoverSource = newValue } }
    }
    /// `overrides`: its declarative overrides of UIKit's forwarding.
    public var overrides: OverrideSpec {
        get { rare?.fields.overrides ?? OverrideSpec() }
        set { updateRare { $0.overrides = newValue } }
    }
    /// How a `view` container places its children (R61; `layout`).
    public var layout: ChildLayout = .overlay
    /// `"behavior": "Name"`: the registered Swift behaviour of this controller (SPEC §4.1), in
    /// place of declarative `overrides`.
    public var behavior: String?

    /// The Swift behaviours this controller names: its own, its presentation controller's, its
    /// adaptive delegate's.
    public var behaviorNames: [BehaviorName] {
        [behavior.map { BehaviorName(.viewController, $0) },
         presentationController?.behavior.map { BehaviorName(.presentationController, $0) },
         adaptiveDelegate?.behavior.map { BehaviorName(.adaptiveDelegate, $0) }].compactMap { $0 }
    }

    /// A controller with UIKit's defaults, which the file's fields then change.
    public init(id: ControllerID, kind: ContainerKind = .view) {
        self.id = id
        self.kind = kind
        self.children = []
        self.selected = 0
        self.traitOverrides = [:]
    }

    /// The fields few controllers set, out of line and nil until one is: inline they made every
    /// spec about 450 bytes, 450 MB for a flat scenario of a million plain controllers (issue 27).
    private var rare: RareControllerFields?

    private mutating func updateRare(_ change: (inout RareControllerFields.Fields) -> Void) {
        var fields = rare?.fields ?? RareControllerFields.Fields()
        change(&fields)
        rare = RareControllerFields(fields)
    }
}

/// `ControllerSpec`'s rarely set fields. Immutable, so copies of a spec share it safely; a
/// change makes a new one (only the decoder changes them, once a field).
private final class RareControllerFields: Sendable {
    struct Fields: Sendable {
        var presentationController: CustomPresentationSpec?
        var adaptiveDelegate: AdaptiveDelegateSpec?
        var popoverSource: PopoverSourceSpec?
        var overrides = OverrideSpec()
    }

    let fields: Fields

    init(_ fields: Fields) {
        self.fields = fields
    }
}

/// The declarative overrides of a controller or custom presentation controller.
public struct OverrideSpec: Sendable, Equatable {
    /// `viewWillTransition`: super, no super, or manual forwarding.
    public var viewWillTransition: ForwardingOverride = .callSuper
    /// `willTransition`: super, no super, or manual forwarding.
    public var willTransition: ForwardingOverride = .callSuper
    /// `sizeForChild`: the sizes it gives its children (nil: the container's default).
    public var sizeForChild: SizeRule?
    /// `grant`: how it answers a child's preferred-size request (nil: the container's default).
    public var grant: GrantPolicy?
    /// A custom presentation controller's `"containerViewWillLayoutSubviews": "super"` (R63): it
    /// keeps UIKit's default, which leaves the presented view where it is (autoresized), even
    /// with a `frame` rule — whose controller otherwise places the view again, as the seed's does.
    public var containerLayoutCallsSuper = false

    /// No override: every message calls super.
    public init() {}
}

/// What an override of a forwarding message does about super.
public enum ForwardingOverride: Sendable, Equatable {
    /// `"super"`: UIKit's default.
    case callSuper
    /// `"noSuper"`: nothing below this controller hears of the message (R8).
    case noSuper
    /// `{ "forwardTo": [...] }`: no super, but these children are messaged (R9).
    case forwardTo([ForwardTarget])
}

/// A child an override forwards to manually, with the size it chooses (else the SFC answer).
public struct ForwardTarget: Sendable, Equatable {
    /// The child.
    public var child: ControllerID
    /// The size it is sent (nil: what `size(forChild:)` answers).
    public var size: Size?

    /// A manual forward to `child`.
    public init(child: ControllerID, size: Size? = nil) {
        self.child = child
        self.size = size
    }
}

/// A `sizeForChild` override.
public enum SizeRule: Sendable, Equatable {
    /// Fractions of the parent size, rounded as UIKit code rounds its own arithmetic (`round`;
    /// nil: not rounded).
    case fraction(width: Double, height: Double, round: FractionRounding? = nil)
    /// The same size for every child.
    case fixed(Size)
    /// Listed children get these sizes; the others the default answer.
    case perChild([ControllerID: Size])
}

/// How a `fraction` rule rounds the sizes it gives (SPEC §5 `round`): WWDC 2014's sidebar is
/// `floorf(width / 3)`.
public enum FractionRounding: String, Sendable, Equatable, CaseIterable {
    /// Down, as C's `floorf`.
    case floor
    /// Up, as C's `ceilf`.
    case ceil
    /// To the nearest whole number, halves away from zero, as C's `roundf`.
    case nearest

    /// `value` rounded this way (`nearest`: halves away from zero, as C's `roundf`). A value
    /// within a millionth of a whole number is that number first: a third written to twelve
    /// decimals gives 255.99999999974 of 768, where UIKit's `floorf(768 / 3)` is 256.
    public func apply(_ value: Double) -> Double {
        let whole = value.rounded()
        if abs(value - whole) < 1e-6 { return whole }
        switch self {
        case .floor: return value.rounded(.down)
        case .ceil: return value.rounded(.up)
        case .nearest: return value.rounded(.toNearestOrAwayFromZero)
        }
    }
}

/// The presentation controller of a `custom` presentation.
public struct CustomPresentationSpec: Sendable, Equatable {
    /// R35: whether a presentation that covers the screen needs a full-screen presenter.
    public var shouldPresentInFullscreen: Bool = true
    /// R41: whether the presenter's views are removed once it is presented.
    public var shouldRemovePresentersView: Bool = false
    /// R18: traits laid over the presented controller's inherited traits.
    public var overrideTraits: TraitCollection?
    /// The presentation controller's declarative overrides.
    public var overrides = OverrideSpec()
    /// Where the presented view goes in the container view (R62; `frame`); nil: UIKit's default,
    /// the container's bounds.
    public var frame: FrameRule?
    /// `"behavior": "Name"`: the registered Swift presentation-controller behaviour (SPEC §4.1),
    /// in place of `sizeForChild`, `frame`, `overrides` and `grant`.
    public var behavior: String?

    /// A presentation controller with UIKit's defaults, which the file's fields then change.
    public init() {}
}

/// The adaptive presentation delegate of a presented controller.
public struct AdaptiveDelegateSpec: Sendable, Equatable {
    /// The style it answers, as written: it may be invalid on purpose (R48).
    public var style: String?
    /// `"navigation"` to wrap the presented controller in a navigation controller (R49).
    public var wrapIn: ContainerKind?
    /// `"behavior": "Name"`: the registered Swift adaptive delegate (SPEC §4.1), in place of
    /// `style` and `wrapIn`.
    public var behavior: String?
}

/// A controller's `popoverSource` or a segue's `anchor` in a scenario (SPEC §5).
public typealias PopoverSourceSpec = PopoverSource

/// One step of a scenario: something done to the window, or a check of what the step before
/// did. A step's name, fields and checks are in `ScenarioSteps.swift`; its header text and
/// what it does are the event's (`WindowEvent`, `Window.swift`).
public enum ScenarioStep: Sendable, Equatable {
    /// A window event, performed with its header `== step N: <event>`.
    case event(WindowEvent)
    /// SPEC §5 `expect`: the canonical lines the step before must have caused, compared by the
    /// message kinds they use.
    case expect([String])
}

/// A custom presentation controller's `frameOfPresentedViewInContainerView` as a scenario file
/// describes it (SPEC §5, R62).
public enum FrameRule: Sendable, Equatable {
    /// The size `sizeForChild` gave, aligned in the container view.
    case align(FrameAlignment)
    /// A fixed frame in the container view's coordinates.
    case fixed(Rect)
}
