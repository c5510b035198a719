/// The kinds of Swift code a registry names (SPEC §4.1): each kind has its own names, so
/// "Overlay" may name a presentation controller and a view controller at once.
public enum BehaviorKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A `ViewControllerBehavior`: `"behavior": "Name"` on a controller.
    case viewController
    /// A `PresentationControllerBehavior`: `"behavior": "Name"` in a `presentationController`.
    case presentationController
    /// An `AdaptivePresentationDelegate`: `"adaptiveDelegate": { "behavior": "Name" }`.
    case adaptiveDelegate

    /// Words for messages: "view-controller behaviour", ….
    public var words: String {
        switch self {
        case .viewController: return "view-controller behaviour"
        case .presentationController: return "presentation-controller behaviour"
        case .adaptiveDelegate: return "adaptive delegate"
        }
    }

    /// The words with their article: "a view-controller behaviour", "an adaptive delegate".
    public var wordsWithArticle: String {
        switch self {
        case .viewController, .presentationController: return "a \(words)"
        case .adaptiveDelegate: return "an \(words)"
        }
    }

    public static func < (lhs: BehaviorKind, rhs: BehaviorKind) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// A registered name and the kind it is registered as.
public struct BehaviorName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The kind the name is registered as.
    public var kind: BehaviorKind
    /// The name, as a scenario file writes it.
    public var name: String

    /// The name `name` of kind `kind`.
    public init(_ kind: BehaviorKind, _ name: String) {
        self.kind = kind
        self.name = name
    }

    public var description: String { "\(name) (\(kind.words))" }

    public static func < (lhs: BehaviorName, rhs: BehaviorName) -> Bool {
        (lhs.kind, lhs.name) < (rhs.kind, rhs.name)
    }
}

/// Names → Swift behaviours (SPEC §4.1): what a scenario file's `"behavior": "Name"`, a
/// storyboard's `customClass`, the test kit and a node's SETUP refer to. One registry is built
/// by a runner's `@main` and handed to every tool (`TrellisCLI.main(registry:)`).
///
/// ```swift
/// BehaviorRegistry()
///     .presentationController("Overlay", OverlayPresentation())
///     .viewController("SideBySide", SideBySideContainer())
///     .adaptiveDelegate("SlideOver", SlideOverDelegate())
/// ```
///
/// Each controller built from a name gets its own behaviour, made for it by the registry: a
/// behaviour registered as a value is copied (its per-controller state lives in the context's
/// `state`, SPEC §4); one registered with a `make` closure is made anew for every controller.
/// Registering a name again for the same kind replaces it; a name that no scenario can write
/// (empty, or with white space at either end) and a name registered twice for one kind are
/// kept in `mistakes`, which a runner (`TrellisCLI`) refuses to start with.
public struct BehaviorRegistry: Sendable {
    private var viewControllers: [String: @Sendable () -> any ViewControllerBehavior] = [:]
    private var presentationControllers: [String: @Sendable () -> any PresentationControllerBehavior] = [:]
    private var adaptiveDelegates: [String: @Sendable () -> any AdaptivePresentationDelegate] = [:]
    /// Custom segue classes (SPEC §11): not a `BehaviorKind`, since what they decide is read
    /// with the scenario, before any node builds a controller.
    private var segues: [String: SegueBehavior] = [:]
    /// What `mistakes` says, in the order of registering.
    private var noted: [String] = []
    /// The type each name is registered with, module-qualified (`implementation(of:)`).
    private var types: [BehaviorName: String] = [:]

    /// An empty registry: the plain `trellis` knows no user behaviours.
    public init() {}

    // MARK: Registering

    /// Registers a view controller's (or container's) behaviour under `name`.
    public func viewController(_ name: String, _ behavior: some ViewControllerBehavior) -> BehaviorRegistry {
        viewController(name) { behavior }
    }

    /// Registers a view controller's behaviour made anew for every controller that names it.
    public func viewController<Behavior: ViewControllerBehavior>(_ name: String, make: @escaping @Sendable () -> Behavior) -> BehaviorRegistry {
        var copy = self
        copy.check(name, as: BehaviorKind.viewController.words, registered: viewControllers[name] != nil)
        copy.viewControllers[name] = { make() }
        copy.types[BehaviorName(.viewController, name)] = String(reflecting: Behavior.self)
        return copy
    }

    /// Registers a `custom` presentation's presentation-controller behaviour under `name`.
    public func presentationController(_ name: String, _ behavior: some PresentationControllerBehavior) -> BehaviorRegistry {
        presentationController(name) { behavior }
    }

    /// Registers a presentation-controller behaviour made anew for every presentation controller.
    public func presentationController<Behavior: PresentationControllerBehavior>(
        _ name: String, make: @escaping @Sendable () -> Behavior
    ) -> BehaviorRegistry {
        var copy = self
        copy.check(name, as: BehaviorKind.presentationController.words, registered: presentationControllers[name] != nil)
        copy.presentationControllers[name] = { make() }
        copy.types[BehaviorName(.presentationController, name)] = String(reflecting: Behavior.self)
        return copy
    }

    /// Registers an adaptive presentation delegate under `name`.
    public func adaptiveDelegate(_ name: String, _ delegate: some AdaptivePresentationDelegate) -> BehaviorRegistry {
        adaptiveDelegate(name) { delegate }
    }

    /// Registers an adaptive delegate made anew for every controller that names it.
    public func adaptiveDelegate<Delegate: AdaptivePresentationDelegate>(_ name: String, make: @escaping @Sendable () -> Delegate) -> BehaviorRegistry {
        var copy = self
        copy.check(name, as: BehaviorKind.adaptiveDelegate.words, registered: adaptiveDelegates[name] != nil)
        copy.adaptiveDelegates[name] = { make() }
        copy.types[BehaviorName(.adaptiveDelegate, name)] = String(reflecting: Delegate.self)
        return copy
    }

    /// Registers what performing a custom segue of class `name` (its storyboard `customClass`)
    /// does (SPEC §11); without it, a scenario that performs such a segue is refused.
    public func segue(_ name: String, _ behavior: SegueBehavior) -> BehaviorRegistry {
        var copy = self
        copy.check(name, as: "custom segue", registered: segues[name] != nil)
        copy.segues[name] = behavior
        return copy
    }

    /// Notes a registration's mistake (`mistakes`).
    private mutating func check(_ name: String, as kind: String, registered: Bool) {
        if name.isEmpty {
            noted.append("a \(kind) is registered under an empty name, which no scenario can name")
        } else if name.first?.isWhitespace == true || name.last?.isWhitespace == true {
            noted.append("the \(kind) \"\(name)\" has white space at an end of its name, which no scenario can name")
        }
        if registered {
            noted.append("\"\(name)\" is registered twice as a \(kind): the later one replaces the earlier")
        }
    }

    // MARK: Looking up

    /// The type `name` is registered with as a `kind` — module-qualified, as
    /// `String(reflecting:)` writes it (`MyRunner.OverlayPresentation`) — or nil when it is not
    /// registered. What tells two runners that register the same names apart (TWP/1 §7.2: a
    /// hand-started node of another runner refuses its SETUP).
    public func implementation(of name: String, as kind: BehaviorKind) -> String? {
        types[BehaviorName(kind, name)]
    }

    /// The mistakes made registering, one sentence each, in order: names no scenario can
    /// write, names registered twice for one kind. Empty for a registry built as intended.
    public var mistakes: [String] { noted }

    /// A new view-controller behaviour for one controller, or nil when `name` is not registered.
    public func viewControllerBehavior(named name: String) -> (any ViewControllerBehavior)? {
        viewControllers[name]?()
    }

    /// A new presentation-controller behaviour for one presentation controller, or nil.
    public func presentationControllerBehavior(named name: String) -> (any PresentationControllerBehavior)? {
        presentationControllers[name]?()
    }

    /// A new adaptive delegate for one controller, or nil.
    public func adaptiveDelegate(named name: String) -> (any AdaptivePresentationDelegate)? {
        adaptiveDelegates[name]?()
    }

    /// What performing a custom segue of class `name` does, or nil when it is not registered.
    public func segueBehavior(named name: String) -> SegueBehavior? {
        segues[name]
    }

    /// The custom segue classes registered, sorted.
    public var segueNames: [String] {
        segues.keys.sorted()
    }

    /// Whether `name` is registered as `kind`.
    public func contains(_ name: String, as kind: BehaviorKind) -> Bool {
        switch kind {
        case .viewController: return viewControllers[name] != nil
        case .presentationController: return presentationControllers[name] != nil
        case .adaptiveDelegate: return adaptiveDelegates[name] != nil
        }
    }

    /// The names registered as `kind`, sorted.
    public func names(of kind: BehaviorKind) -> [String] {
        switch kind {
        case .viewController: return viewControllers.keys.sorted()
        case .presentationController: return presentationControllers.keys.sorted()
        case .adaptiveDelegate: return adaptiveDelegates.keys.sorted()
        }
    }

    /// Every registered name with its kind, sorted by kind then name (for `--help`, SETUP and
    /// messages).
    public var names: [BehaviorName] {
        BehaviorKind.allCases.flatMap { kind in names(of: kind).map { BehaviorName(kind, $0) } }
    }

    /// Whether nothing is registered (the plain `trellis`).
    public var isEmpty: Bool {
        viewControllers.isEmpty && presentationControllers.isEmpty && adaptiveDelegates.isEmpty && segues.isEmpty
    }
}
