import TrellisModel
import TrellisRuntime

/// A scenario file (SPEC §5, `Protocols/scenario-format.md`): a window, a controller hierarchy
/// and the steps to drive it, with `expect` steps that assert what happened.
public struct Scenario: Sendable {
    public var name: String
    public var profile: AdaptationProfile
    public var windowSize: Size
    public var windowTraits: TraitCollection
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
    public var steps: [ScenarioStep]
    /// Where the scenario came from, for messages.
    public var source: String
    /// The Swift behaviours the file's `"behavior"` names were checked against when it was
    /// decoded (SPEC §4.1), and that its controllers are built with: a scenario carries the
    /// registry of the runner that read it, so every tool that runs it (in-process, the screen
    /// picture, a node) builds the same controllers.
    public var registry = BehaviorRegistry()
    /// What a storyboard the scenario names stands in for (SPEC §11: custom classes without a
    /// behaviour, preview-device geometry, stand-in anchor rects), for standard error.
    public var notices: [String] = []

    public func controller(_ id: ControllerID) -> ControllerSpec? {
        controllers.first { $0.id == id }
    }

    public func segue(_ id: String) -> SegueSpec? {
        segues.first { $0.id == id }
    }

    /// The Swift behaviours the file names, sorted, each once: what a run of it needs its
    /// runner (and, distributed, each of its nodes) to register.
    public var behaviorNames: [BehaviorName] {
        Set(controllers.flatMap(\.behaviorNames)).sorted()
    }
}

/// One controller of a scenario, as the file describes it.
public struct ControllerSpec: Sendable {
    public var id: ControllerID
    public var kind: ContainerKind
    public var children: [ControllerID]
    public var selected: Int
    public var modalPresentationStyle: ModalPresentationStyle?
    public var modalTransitionStyle: ModalTransitionStyle?
    public var preferredContentSize: Size?
    public var definesPresentationContext: Bool?
    public var providesPresentationContextTransitionStyle: Bool?
    public var traitOverrides: [ControllerID: TraitCollection]
    public var presentationController: CustomPresentationSpec?
    public var adaptiveDelegate: AdaptiveDelegateSpec?
    public var popoverSource: PopoverSourceSpec?
    public var overrides: OverrideSpec
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

    public init(id: ControllerID, kind: ContainerKind = .view) {
        self.id = id
        self.kind = kind
        self.children = []
        self.selected = 0
        self.traitOverrides = [:]
        self.overrides = OverrideSpec()
    }
}

/// The declarative overrides of a controller or custom presentation controller.
public struct OverrideSpec: Sendable, Equatable {
    public var viewWillTransition: ForwardingOverride = .callSuper
    public var willTransition: ForwardingOverride = .callSuper
    public var sizeForChild: SizeRule?
    public var grant: GrantPolicy?

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
    public var child: ControllerID
    public var size: Size?

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
    case fixed(Size)
    /// Listed children get these sizes; the others the default answer.
    case perChild([ControllerID: Size])
}

/// How a `fraction` rule rounds the sizes it gives (SPEC §5 `round`): WWDC 2014's sidebar is
/// `floorf(width / 3)`.
public enum FractionRounding: String, Sendable, Equatable, CaseIterable {
    case floor, ceil, nearest

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
    public var shouldPresentInFullscreen: Bool = true
    public var shouldRemovePresentersView: Bool = false
    public var overrideTraits: TraitCollection?
    public var overrides = OverrideSpec()
    /// Where the presented view goes in the container view (R62; `frame`); nil: UIKit's default,
    /// the container's bounds.
    public var frame: FrameRule?
    /// `"behavior": "Name"`: the registered Swift presentation-controller behaviour (SPEC §4.1),
    /// in place of `sizeForChild`, `frame`, `overrides` and `grant`.
    public var behavior: String?

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

/// Where a popover points from.
public struct PopoverSourceSpec: Sendable, Equatable {
    public var view: ControllerID
    public var rect: Rect

    public init(view: ControllerID, rect: Rect) {
        self.view = view
        self.rect = rect
    }
}

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
