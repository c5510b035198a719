import TrellisJSON

/// A random scenario file and the placement it spreads its controllers with: what the
/// differential tester runs in one process and over several, and what it writes down when the
/// two traces differ.
public struct GeneratedScenario: Sendable {
    /// The seed it was made from: the same seed makes the same file.
    public var seed: UInt64
    /// The scenario file (`Protocols/scenario-format.md`), `placement` included.
    public var text: String
    /// The `placement` member, in the file's order: controller id → node name.
    public var placement: [(controller: String, node: String)]

    /// The placement as one line, for reports.
    public var placementDescription: String {
        placement.map { "\($0.controller)=\($0.node)" }.joined(separator: " ")
    }
}

/// Makes random scenario files that `ScenarioDecoder` accepts by construction (ids exist, every
/// child has one parent, presented controllers are nobody's child, steps name what they may),
/// with every container kind, every presentation style, overrides, trait overrides, grants, every
/// kind of step, and a random placement over 2–4 nodes (SPEC §5, §7). Small on purpose: at most
/// 12 controllers and 8 steps, so that a mismatch is readable. Deterministic from the seed
/// (`SplitMix64`), never from the system's random source.
public struct ScenarioGenerator {
    public static let maxControllers = 12
    public static let maxSteps = 8
    /// The nodes a placement uses: the conductor's (the root is never placed) and up to three more.
    public static let nodeNames = ["main", "b", "c", "d"]

    private var random: SplitMix64
    private var controllers: [Draft] = []
    /// Controllers outside the tree: what steps present, show and push.
    private var detached: [String] = []
    /// What the steps made so far present.
    private var presentedSoFar: [String] = []
    /// The window's horizontal size class as the steps made so far leave it (about: a trait
    /// override or a transition may say otherwise), so that trait steps mostly change it.
    private var windowIsCompact = false

    /// One controller while it is being made.
    private struct Draft {
        var id: String
        var kind: String
        var children: [String] = []
        var parent: String?
        var members: [(String, JSONValue)] = []
    }

    public static func scenario(seed: UInt64) -> GeneratedScenario {
        var generator = ScenarioGenerator(random: SplitMix64(seed: seed))
        return generator.make(seed: seed)
    }

    /// The seed's scenario with some of its declarative rules replaced by the Swift behaviours of
    /// `DifferentialBehaviors` (SPEC §4.1): `"behavior"` on controllers in place of their
    /// `overrides`, in presentation controllers in place of their size and frame rules, in
    /// adaptive delegates in place of their answer. The same hierarchy, steps and placement as
    /// `scenario(seed:)`: the choices come from a second generator, so the first is untouched.
    public static func scenarioNamingBehaviors(seed: UInt64) -> GeneratedScenario {
        var generator = ScenarioGenerator(random: SplitMix64(seed: seed))
        generator.naming = SplitMix64(seed: seed ^ 0x6E61_6D65_6400)
        return generator.make(seed: seed)
    }

    /// Where the choices of `scenarioNamingBehaviors` come from; nil: the file names none.
    private var naming: SplitMix64?

    /// The seed's scenario with a `segues` map and `performSegue` steps among its steps (SPEC
    /// §11): the same hierarchy, steps and placement as `scenario(seed:)`, the segues chosen by a
    /// third generator, so that adding segues leaves the plain seeds' scenarios as they were.
    /// Every node makes the same copies (TSF/1 §6.5), the Python node too.
    public static func scenarioPerformingSegues(seed: UInt64) -> GeneratedScenario {
        var generator = ScenarioGenerator(random: SplitMix64(seed: seed))
        generator.segueing = SplitMix64(seed: seed ^ 0x7365_6775_6573)
        return generator.make(seed: seed)
    }

    /// Where the choices of `scenarioPerformingSegues` come from; nil: the file has no segues.
    private var segueing: SplitMix64?

    private init(random: SplitMix64) {
        self.random = random
    }

    // MARK: The file

    private mutating func make(seed: UInt64) -> GeneratedScenario {
        let profile = random.chance(70) ? "ios8" : "ios13"
        let window = makeWindow()
        makeHierarchy()
        decorateControllers()
        var steps = makeSteps()
        let placement = makePlacement()
        nameBehaviors()
        steps = addActions(to: steps)
        let segues = addSegues(to: &steps)
        let controllerMembers = controllers.map { draft -> (String, JSONValue) in
            var members: [(String, JSONValue)] = [("kind", .string(draft.kind))]
            if !draft.children.isEmpty { members.append(("children", .array(draft.children.map { JSONNode(.string($0)) }))) }
            return (draft.id, object(members + draft.members))
        }
        var members: [(String, JSONValue)] = [
            ("scenario", .string(naming == nil ? "generated-\(seed)" : "generated-named-\(seed)")),
            ("profile", .string(profile)),
            ("window", window),
            ("root", .string("R")),
            ("controllers", object(controllerMembers)),
            ("placement", object(placement.map { ($0.controller, .string($0.node)) })),
        ]
        if let segues { members.append(("segues", segues)) }
        members.append(("steps", .array(steps.map { JSONNode($0) })))
        let file = object(members)
        return GeneratedScenario(seed: seed, text: JSONWriter.write(file), placement: placement)
    }

    private mutating func makeWindow() -> JSONValue {
        let (size, horizontal, vertical, idiom) = random.pick([
            ([320, 568], "compact", "regular", "phone"), ([568, 320], "compact", "compact", "phone"),
            ([1024, 768], "regular", "regular", "pad"), ([768, 1024], "regular", "regular", "pad"),
            ([900, 700], "regular", "regular", "pad"), ([414, 896], "compact", "regular", "phone"),
        ])
        windowIsCompact = horizontal == "compact"
        var traits: [(String, JSONValue)] = [
            ("horizontalSizeClass", .string(horizontal)), ("verticalSizeClass", .string(vertical)),
            ("userInterfaceIdiom", .string(idiom)), ("displayScale", .number(Double(random.between(1, 3)))),
        ]
        if random.chance(20) { traits.append(("userInterfaceStyle", .string(random.pick(["light", "dark"])))) }
        return object([("size", sizeValue(size[0], size[1])), ("traits", object(traits))])
    }

    // MARK: The hierarchy

    /// The root "R" and controllers "C1"…: each either a child of an earlier controller that
    /// takes one more, or detached (presented, shown or pushed by the steps, with a subtree of
    /// its own). Containers left without children become plain view controllers.
    private mutating func makeHierarchy() {
        let count = random.between(3, Self.maxControllers)
        controllers.append(Draft(id: "R", kind: randomKind(rootLike: true)))
        for index in 1..<count {
            let id = "C\(index)"
            let kind = randomKind(rootLike: false)
            let parents = controllers.indices.filter { controllers[$0].kind != "split" || controllers[$0].children.count < 2 }
            if detached.count < 3, random.chance(detached.isEmpty ? 45 : 25) || parents.isEmpty {
                detached.append(id)
                controllers.append(Draft(id: id, kind: kind))
                continue
            }
            let parent = random.pick(parents)
            controllers[parent].children.append(id)
            controllers.append(Draft(id: id, kind: kind, parent: controllers[parent].id))
        }
        for index in controllers.indices where controllers[index].children.isEmpty {
            controllers[index].kind = "view"
        }
    }

    private mutating func randomKind(rootLike: Bool) -> String {
        let roll = random.below(100)
        if rootLike {
            return roll < 40 ? "view" : roll < 60 ? "navigation" : roll < 80 ? "split" : "tab"
        }
        return roll < 55 ? "view" : roll < 70 ? "navigation" : roll < 85 ? "split" : "tab"
    }

    private var ids: [String] { controllers.map(\.id) }

    private func draft(_ id: String) -> Draft? {
        controllers.first { $0.id == id }
    }

    // MARK: Controller members

    private mutating func decorateControllers() {
        for index in controllers.indices {
            var draft = controllers[index]
            let isDetached = detached.contains(draft.id)
            decoratePresentation(&draft, detached: isDetached)
            decorateContainer(&draft)
            if random.chance(25) {
                draft.members.append(("preferredContentSize", randomPreferredSize()))
            }
            if random.chance(20) {
                draft.members.append(("definesPresentationContext", .bool(random.chance(75))))
            }
            if random.chance(15) {
                draft.members.append(("modalTransitionStyle", .string(random.pick(["coverVertical", "flipHorizontal", "crossDissolve", "partialCurl"]))))
            }
            if random.chance(10) {
                draft.members.append(("providesPresentationContextTransitionStyle", .bool(true)))
            }
            controllers[index] = draft
        }
    }

    private static let styles = [
        "automatic", "none", "fullScreen", "pageSheet", "formSheet", "currentContext", "custom", "overFullScreen",
        "overCurrentContext", "popover",
    ]

    /// What matters when the controller is presented: its style, presentation controller,
    /// adaptive delegate and popover source.
    private mutating func decoratePresentation(_ draft: inout Draft, detached: Bool) {
        var style: String?
        if random.chance(detached ? 90 : 10) {
            // Presentations with a presentation controller of their own are the interesting ones.
            style = random.chance(35) ? random.pick(["custom", "popover", "formSheet", "currentContext"]) : random.pick(Self.styles)
            draft.members.append(("modalPresentationStyle", .string(style ?? "automatic")))
        }
        if style == "popover" || random.chance(detached ? 25 : 5) {
            var source: [(String, JSONValue)] = [("view", .string(random.pick(ids)))]
            if random.chance(70) {
                source.append(("rect", .array([random.between(-20, 300), random.between(-20, 500), random.between(0, 60), random.between(0, 60)]
                    .map { JSONNode(.number(Double($0))) })))
            }
            draft.members.append(("popoverSource", object(source)))
        }
        if random.chance(style == "custom" ? 90 : detached ? 20 : 3) {
            draft.members.append(("presentationController", presentationController(for: draft.id)))
        }
        if random.chance(detached ? 25 : 3) {
            var delegate: [(String, JSONValue)] = []
            if random.chance(80) {
                delegate.append(("style", .string(random.pick(["fullScreen", "overFullScreen", "formSheet", "none", "pageSheet", "sideways"]))))
            }
            if random.chance(40) { delegate.append(("wrapIn", .string("navigation"))) }
            draft.members.append(("adaptiveDelegate", object(delegate)))
        }
    }

    private mutating func presentationController(for id: String) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if random.chance(65) {
            let rule: JSONValue
            switch random.below(3) {
            case 0: rule = object([("fraction", .array([fraction(), fraction()].map { JSONNode(.number($0)) }))])
            case 1: rule = object([("fixed", randomPreferredSize())])
            default: rule = object([("perChild", object([(id, randomPreferredSize())]))])
            }
            members.append(("sizeForChild", rule))
        }
        if random.chance(50) {
            if random.chance(75) {
                members.append(("frame", object([("align", .string(random.pick(["left", "right", "center", "top", "bottom"])))])))
            } else {
                let rect = [random.between(-10, 100), random.between(-10, 100), random.between(0, 600), random.between(0, 600)]
                members.append(("frame", object([("fixed", .array(rect.map { JSONNode(.number(Double($0))) }))])))
            }
        }
        if random.chance(50) { members.append(("shouldPresentInFullscreen", .bool(random.chance(50)))) }
        if random.chance(30) { members.append(("shouldRemovePresentersView", .bool(random.chance(60)))) }
        if random.chance(30) { members.append(("overrideTraits", randomTraits())) }
        var overrides: [(String, JSONValue)] = []
        if random.chance(15) { overrides.append(("viewWillTransition", .string("noSuper"))) }
        if random.chance(15) { overrides.append(("willTransition", .string("noSuper"))) }
        if !overrides.isEmpty { members.append(("overrides", object(overrides))) }
        if random.chance(35) { members.append(("grant", randomGrant())) }
        return object(members)
    }

    /// What matters for a container: its selection, trait overrides, layout and overrides.
    private mutating func decorateContainer(_ draft: inout Draft) {
        let children = draft.children
        if draft.kind == "tab", random.chance(50) {
            draft.members.append(("selected", .number(Double(random.below(children.count)))))
        }
        if !children.isEmpty, random.chance(25) {
            let child = random.pick(children)
            draft.members.append(("traitOverrides", object([(child, randomTraits())])))
        }
        if draft.kind == "view", !children.isEmpty, random.chance(40) {
            switch random.below(3) {
            case 0: draft.members.append(("layout", .string("row")))
            case 1: draft.members.append(("layout", .string("column")))
            default:
                let origins = subset(of: children).map { ($0, sizeValue(random.between(-20, 200), random.between(-20, 300))) }
                draft.members.append(("layout", object([("origins", object(origins))])))
            }
        }
        var overrides: [(String, JSONValue)] = []
        if let forwarding = forwardingOverride(children: children, sized: true) { overrides.append(("viewWillTransition", forwarding)) }
        if let forwarding = forwardingOverride(children: children, sized: false) { overrides.append(("willTransition", forwarding)) }
        if !children.isEmpty, random.chance(20) {
            switch random.below(3) {
            case 0: overrides.append(("sizeForChild", object([("fraction", .array([fraction(), fraction()].map { JSONNode(.number($0)) }))])))
            case 1: overrides.append(("sizeForChild", object([("fixed", randomPreferredSize())])))
            default:
                let listed = subset(of: children).map { ($0, randomPreferredSize()) }
                overrides.append(("sizeForChild", object([("perChild", object(listed))])))
            }
        }
        if random.chance(30) { overrides.append(("grant", randomGrant())) }
        if !overrides.isEmpty { draft.members.append(("overrides", object(overrides))) }
    }

    private mutating func forwardingOverride(children: [String], sized: Bool) -> JSONValue? {
        let roll = random.below(100)
        if roll < 8 { return .string("noSuper") }
        guard roll < 16, !children.isEmpty else { return nil }
        let targets = subset(of: children).map { child -> JSONNode in
            if sized, random.chance(30) {
                return JSONNode(object([("child", .string(child)), ("size", randomPreferredSize())]))
            }
            return JSONNode(.string(child))
        }
        return object([("forwardTo", .array(targets))])
    }

    // MARK: Named behaviours

    /// In `scenarioNamingBehaviors`: about half the controllers name a view-controller behaviour
    /// (their `overrides` go), most presentation controllers and adaptive delegates name theirs
    /// (the rules a named one decides go; the rest stay), and at least one name is used.
    private mutating func nameBehaviors() {
        guard var naming else { return }
        defer { self.naming = naming }
        let replaced: [String: Set<String>] = [
            "presentationController": ["sizeForChild", "frame", "overrides", "grant"],
            "adaptiveDelegate": ["style", "wrapIn"],
        ]
        var named = 0
        for index in controllers.indices {
            var members = controllers[index].members
            if naming.chance(50) || (index == controllers.count - 1 && named == 0) {
                members.removeAll { $0.0 == "overrides" }
                members.append(("behavior", .string(naming.pick(DifferentialBehaviors.viewControllerNames))))
                named += 1
            }
            for (position, member) in members.enumerated() {
                guard let dropped = replaced[member.0], case let .object(fields) = member.1, naming.chance(70) else { continue }
                let name = member.0 == "adaptiveDelegate" ? DifferentialBehaviors.adaptiveDelegateName : DifferentialBehaviors.presentationControllerName
                let kept = fields.filter { !dropped.contains($0.key) }.map { ($0.key, $0.value.value) }
                members[position] = (member.0, object(kept + [("behavior", .string(name))]))
            }
            controllers[index].members = members
        }
    }

    /// In `scenarioNamingBehaviors`: one to three `action` steps (SPEC §4.2) among the steps, on
    /// controllers and presentation controllers (a keyboard height may have a 4th decimal, which
    /// must cross the wire exactly), some handled by the named behaviours (their
    /// requests carried out), some not (a warning), some on what is not in the window.
    private mutating func addActions(to steps: [JSONValue]) -> [JSONValue] {
        guard var naming else { return steps }
        defer { self.naming = naming }
        var steps = steps
        for _ in 0..<naming.between(1, 3) {
            let name = naming.pick(DifferentialBehaviors.actionNames)
            let target = naming.chance(40) && !detached.isEmpty ? "pc:" + naming.pick(detached) : naming.pick(ids)
            var step: [(String, JSONValue)] = [("action", .string(name)), ("on", .string(target))]
            if name == "keyboard" { step.append(("value", .number(naming.pick([0, 100, 216, 216.0004])))) }
            steps.insert(object(step), at: naming.between(0, steps.count))
        }
        return steps
    }

    /// In `scenarioPerformingSegues`: one to three segues of every kind but custom (whose class
    /// Trellis cannot perform) between controllers of the file — in the tree, so that a child is
    /// copied fresh, or detached —, and one to three `performSegue` steps, so that a destination
    /// is often copied twice and an unwind finds a presentation or none. Returns the map.
    private mutating func addSegues(to steps: inout [JSONValue]) -> JSONValue? {
        guard var segueing else { return nil }
        defer { self.segueing = segueing }
        let kinds = ["presentation", "popoverPresentation", "show", "showDetail", "push", "modal", "unwind"]
        let destinations = Array(ids.dropFirst())
        var segues: [(String, JSONValue)] = []
        for index in 1...segueing.between(1, 3) {
            let kind = segueing.pick(kinds)
            var members: [(String, JSONValue)] = [("kind", .string(kind)), ("from", .string(segueing.pick(ids)))]
            if kind != "unwind" || segueing.chance(30), !destinations.isEmpty {
                members.append(("destination", .string(segueing.pick(destinations))))
            } else if kind != "unwind" {
                members[0] = ("kind", .string("unwind"))
            }
            if kind == "presentation" || kind == "modal", segueing.chance(60) {
                members.append(("style", .string(segueing.pick(Self.styles))))
                if segueing.chance(40) { members.append(("transitionStyle", .string(segueing.pick(["coverVertical", "flipHorizontal", "crossDissolve"])))) }
            }
            if kind == "popoverPresentation", segueing.chance(80) {
                let rect = [segueing.between(0, 300), segueing.between(0, 500), segueing.between(1, 60), segueing.between(1, 60)]
                members.append(("anchor", object([("view", .string(segueing.pick(ids))), ("rect", .array(rect.map { JSONNode(.number(Double($0))) }))])))
            }
            segues.append(("s\(index)", object(members)))
        }
        for _ in 0..<segueing.between(1, 3) {
            steps.insert(object([("performSegue", .string(segueing.pick(segues).0))]), at: segueing.between(0, steps.count))
        }
        return object(segues)
    }

    // MARK: Steps

    private mutating func makeSteps() -> [JSONValue] {
        let count = random.between(1, Self.maxSteps)
        var steps: [JSONValue] = []
        // Most bugs need a presentation (or a chain of them) first, then a change of the environment.
        if !detached.isEmpty, random.chance(70) { steps.append(presentStep()) }
        if detached.count > 1, random.chance(40) { steps.append(presentStep()) }
        while steps.count < count {
            if let step = randomStep() { steps.append(step) }
        }
        return steps
    }

    private mutating func randomStep() -> JSONValue? {
        switch random.below(15) {
        case 0, 1: return object([("resizeWindow", randomWindowSize())])
        case 2:
            guard random.chance(50) else { return object([("setTraits", randomTraits())]) }
            // A change of horizontal size class adapts presentations (R48).
            windowIsCompact.toggle()
            return object([("setTraits", object([("horizontalSizeClass", .string(windowIsCompact ? "compact" : "regular"))]))])
        case 3, 4: return object([("transition", object([("size", randomWindowSize()), ("traits", randomSizeClasses())]))])
        case 5, 6: return detached.isEmpty ? nil : presentStep()
        case 7:
            var step: [(String, JSONValue)] = [("dismiss", .string(random.pick(ids)))]
            if random.chance(30) { step.append(("animated", .bool(false))) }
            return object(step)
        case 8: return object([(random.chance(50) ? "show" : "showDetail", .string(randomMovable())), ("from", .string(randomReceiver()))])
        case 9:
            let navigations = controllers.filter { $0.kind == "navigation" }.map(\.id)
            guard !navigations.isEmpty else { return nil }
            if random.chance(50) { return object([("pop", .string(random.pick(navigations)))]) }
            return object([("push", .string(randomMovable())), ("onto", .string(random.pick(navigations)))])
        case 10:
            let tabs = controllers.filter { $0.kind == "tab" }
            guard !tabs.isEmpty else { return nil }
            let tab = random.pick(tabs)
            return object([("select", object([("tab", .string(tab.id)), ("index", .number(Double(random.below(tab.children.count))))]))])
        case 11, 12:
            return object([("setPreferredContentSize", object([("controller", .string(random.pick(ids))), ("size", randomPreferredSize())]))])
        case 13:
            // View and tab controllers keep their children whatever the steps do, so the child
            // is still theirs when the step runs.
            let containers = controllers.filter { ($0.kind == "view" || $0.kind == "tab") && !$0.children.isEmpty }
            guard !containers.isEmpty else { return nil }
            let container = random.pick(containers)
            let traits: JSONValue = random.chance(20) ? .null : randomTraits()
            return object([("setTraitOverride", object([
                ("container", .string(container.id)), ("child", .string(random.pick(container.children))), ("traits", traits),
            ]))])
        default:
            return object([("systemLayoutFittingSizeDidChange", .string(random.pick(ids)))])
        }
    }

    private mutating func presentStep() -> JSONValue {
        let fresh = detached.filter { !presentedSoFar.contains($0) }
        let presented = !fresh.isEmpty && random.chance(85) ? random.pick(fresh) : random.pick(detached)
        var step: [(String, JSONValue)] = [("present", .string(presented)), ("from", .string(randomReceiver()))]
        presentedSoFar.append(presented)
        if random.chance(25) { step.append(("animated", .bool(false))) }
        if random.chance(20) { step.append(("style", .string(random.pick(Self.styles)))) }
        return object(step)
    }

    /// The controller a `present`, `show` or `showDetail` is called on: mostly one in the window's
    /// tree or in the subtree of a controller an earlier step presented (so that presentations
    /// chain), sometimes any.
    private mutating func randomReceiver() -> String {
        let presentedTrees = presentedSoFar.flatMap { subtree(of: $0) }
        let roll = random.below(100)
        if roll < 45 || (roll < 80 && presentedTrees.isEmpty) { return random.pick(subtree(of: "R")) }
        return roll < 80 ? random.pick(presentedTrees) : random.pick(ids)
    }

    /// A controller and its descendants in the file.
    private func subtree(of id: String) -> [String] {
        var found = [id]
        var index = 0
        while index < found.count {
            found += draft(found[index])?.children ?? []
            index += 1
        }
        return found
    }

    /// What `show`, `showDetail` and `push` move: mostly a detached controller, sometimes any
    /// (which the runtime may refuse, as it should).
    private mutating func randomMovable() -> String {
        !detached.isEmpty && random.chance(80) ? random.pick(detached) : random.pick(ids)
    }

    // MARK: Placement

    /// Every controller but the root on one of 2–4 nodes, or left to live with its parent (or the
    /// controller its first step names); at least one controller away from the conductor.
    private mutating func makePlacement() -> [(controller: String, node: String)] {
        let nodes = Array(Self.nodeNames.prefix(random.between(2, 4)))
        var placement: [(controller: String, node: String)] = []
        for id in ids.dropFirst() where random.chance(75) {
            placement.append((id, random.pick(nodes)))
        }
        if !placement.contains(where: { $0.node != "main" }), let last = ids.last {
            placement.removeAll { $0.controller == last }
            placement.append((last, random.pick(Array(nodes.dropFirst()))))
        }
        return placement
    }

    // MARK: Values

    private mutating func randomWindowSize() -> JSONValue {
        let size = random.pick([[320, 568], [568, 320], [1024, 768], [768, 1024], [900, 700], [700, 900], [414, 896], [896, 414]])
        return sizeValue(size[0], size[1])
    }

    private mutating func randomPreferredSize() -> JSONValue {
        let size = random.pick([[200, 300], [300, 400], [320, 480], [400, 500], [540, 620], [600, 400], [0, 0], [250, 250]])
        return sizeValue(size[0], size[1])
    }

    private mutating func randomSizeClasses() -> JSONValue {
        windowIsCompact = random.chance(50)
        return object([
            ("horizontalSizeClass", .string(windowIsCompact ? "compact" : "regular")),
            ("verticalSizeClass", .string(random.pick(["compact", "regular"]))),
        ])
    }

    /// One to three trait axes, size classes most often (they drive adaptation).
    private mutating func randomTraits() -> JSONValue {
        var members: [(String, JSONValue)] = []
        let axes = random.between(1, 3)
        var used = Set<Int>()
        for _ in 0..<axes {
            let axis = random.chance(60) ? random.below(2) : random.below(6)
            guard used.insert(axis).inserted else { continue }
            switch axis {
            case 0: members.append(("horizontalSizeClass", .string(random.pick(["compact", "regular"]))))
            case 1: members.append(("verticalSizeClass", .string(random.pick(["compact", "regular"]))))
            case 2: members.append(("displayScale", .number(random.pick([1, 1.5, 2, 3]))))
            case 3: members.append(("userInterfaceStyle", .string(random.pick(["light", "dark"]))))
            case 4: members.append(("layoutDirection", .string(random.pick(["leftToRight", "rightToLeft"]))))
            default: members.append(("preferredContentSizeCategory", .string(random.pick(["large", "extraLarge", "accessibilityMedium"]))))
            }
        }
        return object(members)
    }

    private mutating func randomGrant() -> JSONValue {
        switch random.below(4) {
        case 0: return .string("all")
        case 1: return .string("none")
        case 2: return object([("clamp", randomPreferredSize())])
        default: return object([("fraction", .number(random.pick([0, 0.25, 0.5, 1])))])
        }
    }

    private mutating func fraction() -> Double {
        Double(random.between(2, 10)) / 10
    }

    /// A non-empty selection of `elements`, in a random order.
    private mutating func subset(of elements: [String]) -> [String] {
        var remaining = elements
        var chosen: [String] = []
        let count = random.between(1, elements.count)
        for _ in 0..<count {
            chosen.append(remaining.remove(at: random.below(remaining.count)))
        }
        return chosen
    }

    private func sizeValue(_ width: Int, _ height: Int) -> JSONValue {
        .array([JSONNode(.number(Double(width))), JSONNode(.number(Double(height)))])
    }

    private func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(members.map { (key: $0.0, value: JSONNode($0.1)) })
    }
}
