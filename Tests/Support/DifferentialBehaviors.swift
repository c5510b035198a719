import TrellisModel
import TrellisRuntime

/// The Swift behaviours the differential tester's scenarios name (SPEC §4.1, §7): a view
/// controller that suppresses, one that forwards by hand, one that keeps state across messages,
/// a presentation controller with a frame of its own, and an adaptive delegate that looks at the
/// traits. One registry: the test process decodes and runs with it, its in-process nodes are
/// built with it, and the test runner executable (`trellis-test-runner`) registers the same.
public enum DifferentialBehaviors {
    public static let registry = register(in: BehaviorRegistry())

    /// `registry` with these behaviours added (the test runner's own are registered beside them).
    public static func register(in registry: BehaviorRegistry) -> BehaviorRegistry {
        registry
            .viewController("Suppressing", Suppressing())
            .viewController("Forwarding", Forwarding())
            .viewController("Stashing", Stashing())
            .presentationController("Sidebar", Sidebar())
            .adaptiveDelegate("CompactSheet", CompactSheet())
    }

    public static let viewControllerNames = ["Suppressing", "Forwarding", "Stashing"]
    public static let presentationControllerName = "Sidebar"
    public static let adaptiveDelegateName = "CompactSheet"

    /// R8: in landscape nothing below it hears of a size change; in portrait, super, and a
    /// completion block with the coordinator (SPEC §7: run in its place over nodes too).
    struct Suppressing: ViewControllerBehavior {
        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            guard size.height >= size.width else {
                vc.note("keeps landscape to itself")
                return
            }
            await vc.superViewWillTransition(to: size, with: coordinator)
            coordinator.animate(alongsideTransition: nil, completion: { _ in })
        }
    }

    /// The actions the differential tester's scenarios send (SPEC §4.2); Suppressing handles
    /// none (each is a warning), the others some.
    public static let actionNames = ["tap", "grow", "compact", "keyboard"]

    /// R9: forwards by hand, last child first, a third of the width (floored) to the first.
    /// `grow` asks for a larger preferred content size.
    struct Forwarding: ViewControllerBehavior {
        func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
            guard action == "grow" else { return false }
            vc.setPreferredContentSize(Size(vc.preferredContentSize.width + 100, vc.preferredContentSize.height + 50))
            return true
        }

        func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            for child in vc.children.reversed() {
                await vc.forwardViewWillTransition(toChild: child, size: vc.sizeForChild(child, parentSize: size), with: coordinator)
            }
        }

        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            guard child == vc.children.first else { return vc.superSize(forChild: child, parentSize: parentSize) }
            return Size((parentSize.width / 3).rounded(.down), parentSize.height)
        }
    }

    /// Stashes the incoming traits in `willTransition` and sizes its children by them before R14
    /// makes them its own: 40 % of the width in a regular width, all of it in a compact one; once
    /// they are its own it asks for a layout (`setNeedsLayout`), so that a change of traits
    /// without a new size re-sizes its children too. `compact` sets a compact width on its first
    /// child; `tap` presents nothing but dismisses what it presented.
    struct Stashing: ViewControllerBehavior {
        enum Incoming: BehaviorStateKey {
            static let initialValue: TraitCollection? = nil
        }

        func perform(action: String, value: ActionValue?, in vc: isolated any ViewControllerContext) async -> Bool {
            switch action {
            case "compact":
                guard let child = vc.children.first else { return false }
                vc.setOverrideTraitCollection(TraitCollection(horizontalSizeClass: .compact), forChild: child)
                return true
            case "tap":
                vc.dismiss(animated: false)
                return true
            default:
                return false
            }
        }

        func willTransition(to traits: TraitCollection, with coordinator: TransitionCoordinator, in vc: isolated any ViewControllerContext) async {
            vc.state[Incoming.self] = traits
            await vc.superWillTransition(to: traits, with: coordinator)
        }

        func traitCollectionDidChange(previous: TraitCollection, in vc: isolated any ViewControllerContext) {
            vc.setNeedsLayout()
        }

        func size(forChild child: ControllerID, parentSize: Size, in vc: isolated any ViewControllerContext) -> Size {
            let traits = vc.state[Incoming.self] ?? vc.traitCollection
            guard traits.horizontalSizeClass == .regular else { return parentSize }
            return Size((parentSize.width * 0.4).rounded(.down), parentSize.height)
        }
    }

    /// A right-aligned sidebar a third of the container wide (floored), as WWDC 2014's. A `tap`
    /// (on the dimming view) dismisses it; `keyboard` (a number) moves it up by that much. Its
    /// dimming view fades alongside both transitions (the coordinator's blocks, SPEC §4.2, §7).
    struct Sidebar: PresentationControllerBehavior {
        func presentationTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
            pc.superPresentationTransitionWillBegin()
            pc.transitionCoordinator?.animate(alongsideTransition: { _ in }, completion: { _ in })
        }

        func dismissalTransitionWillBegin(in pc: isolated any PresentationControllerContext) {
            pc.superDismissalTransitionWillBegin()
            pc.transitionCoordinator?.animate(alongsideTransition: { _ in })
        }

        func perform(action: String, value: ActionValue?, in pc: isolated any PresentationControllerContext) async -> Bool {
            switch (action, value) {
            case ("tap", _):
                pc.dismiss()
                return true
            case let ("keyboard", .number(height)?):
                let frame = pc.presentedViewFrame
                pc.setPresentedViewFrame(Rect(x: frame.origin.x, y: frame.origin.y - height, width: frame.size.width, height: frame.size.height))
                return true
            default:
                return false
            }
        }

        func valueType(forAction action: String) -> ActionValueType? {
            action == "keyboard" ? .number : nil
        }

        func size(forPresented child: ControllerID, parentSize: Size, in pc: isolated any PresentationControllerContext) -> Size {
            Size((parentSize.width / 3).rounded(.down), parentSize.height)
        }

        func frameOfPresentedViewInContainerView(in pc: isolated any PresentationControllerContext) -> Rect {
            let bounds = pc.containerViewBounds
            let width = (bounds.size.width / 3).rounded(.down)
            return Rect(x: bounds.size.width - width, y: 0, width: width, height: bounds.size.height)
        }
    }

    /// Over full screen (wrapped in a navigation controller) in a compact width; no adaptation
    /// in a regular one.
    struct CompactSheet: AdaptivePresentationDelegate {
        func adaptivePresentationStyle(for pc: isolated any PresentationControllerContext, traitCollection traits: TraitCollection) -> AdaptiveAnswer? {
            traits.horizontalSizeClass == .compact ? .style(.overFullScreen) : .style(.none)
        }

        func viewControllerForAdaptivePresentationStyle(_ style: ModalPresentationStyle, in pc: isolated any PresentationControllerContext) -> AdaptiveReplacement? {
            style == .overFullScreen ? .navigationController : nil
        }
    }
}
