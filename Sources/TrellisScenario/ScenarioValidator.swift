import TrellisModel
import TrellisRuntime
import TrellisTrace

/// The checks of a decoded scenario that need the whole file: ids, the shape of the tree, and
/// what each step refers to (each event's own checks are with its syntax, `ScenarioSteps.swift`).
struct ScenarioValidator {
    let scenario: Scenario
    let file: String
    let positions: PathPositions

    /// The error at `path`, placed where the file wrote it, else where the file wrote the
    /// nearest member enclosing it (a field a storyboard gave, under a controller the file names).
    func fail(_ path: String, _ message: String) -> ScenarioError {
        // A field a storyboard gave has no place in the file (none, or line 0).
        func written(_ at: Substring) -> (line: Int, column: Int)? { positions[String(at)].flatMap { $0.line > 0 ? $0 : nil } }
        var enclosing = Substring(path)
        var found = written(enclosing)
        while found == nil, let cut = enclosing.lastIndex(where: { $0 == "." || $0 == "[" }) {
            enclosing = enclosing[..<cut]
            found = written(enclosing)
        }
        return ScenarioError(file: file, path: path, line: found?.line ?? 0, column: found?.column ?? 0, message: message)
    }

    func validate() throws(ScenarioError) {
        var byID = ControllerTable(scenario.controllers)
        guard byID[scenario.root] != nil else { throw fail("$.root", "unknown controller \"\(scenario.root)\" (not in $.controllers)") }

        // `seenBy[c]`: the index of the last controller found listing `c` as a child.
        var seenBy = [Int](repeating: -1, count: byID.links.ids.count)
        let recorded = RecordedFields(selected: positions.records(endingWith: ".selected"), layout: positions.records(endingWith: ".layout"))
        for (specIndex, spec) in scenario.controllers.enumerated() {
            let base = "$.controllers.\(spec.id)"
            let parent = byID.position(ofControllerAt: specIndex)
            for (index, child) in spec.children.enumerated() {
                // The path is made only for an error: a root may have a million children.
                func at() -> String { "\(base).children[\(index)]" }
                guard let position = byID.links.position(of: child) else { throw fail(at(), "unknown controller \"\(child)\"") }
                guard seenBy[position] != specIndex else { throw fail(at(), "duplicate child \"\(child)\" of \"\(spec.id)\"") }
                seenBy[position] = specIndex
                if child == scenario.root {
                    // A storyboard's container holding the root the file names: the file's `root` is the mistake.
                    if (positions[at()]?.line ?? 0) == 0, (positions["$.root"]?.line ?? 0) > 0 {
                        throw fail("$.root", "\"\(child)\" is a child of \"\(spec.id)\" in the storyboard: the root is a controller no container holds")
                    }
                    throw fail(at(), "the root \"\(child)\" cannot be a child of \"\(spec.id)\"")
                }
                let other = byID.links.parent[position]
                if other >= 0, other != parent {
                    throw fail(at(), "controller \"\(child)\" is already a child of \"\(byID.links.ids[other])\": a controller has one parent")
                }
                byID.links.link(position, to: parent)
            }
            try validateKind(spec, base, recorded)
            for child in spec.traitOverrides.keys.sorted() where !spec.children.contains(child) {
                throw fail("\(base).traitOverrides.\(child)", "\"\(child)\" is not a child of \"\(spec.id)\"")
            }
            try validateOverrides(spec.overrides, of: spec, in: base)
            try validateBehaviors(spec, base)
            if let source = spec.popoverSource, byID[source.view] == nil {
                throw fail("\(base).popoverSource.view", "unknown controller \"\(source.view)\"")
            }
        }
        try validateAcyclic(byID.links)
        try validateDepth(byID)
        for id in scenario.placement.keys.sorted() where byID[id] == nil {
            throw fail("$.placement.\(id)", "unknown controller \"\(id)\"")
        }
        try validateSegues(byID)
        try validateSteps(byID)
    }

    /// Which controller fields any controller of the file set, so that a file where none does
    /// makes no path string a controller to look them up (a flat scenario has a million).
    private struct RecordedFields {
        var selected: Bool
        var layout: Bool
    }

    private func validateKind(_ spec: ControllerSpec, _ base: String, _ recorded: RecordedFields) throws(ScenarioError) {
        if let refusal = ContainerRules.childCountRefusal(spec.kind, count: spec.children.count) {
            throw fail("\(base).children", refusal)
        }
        if recorded.selected, positions["\(base).selected"] != nil {
            guard ContainerRules.hasSelection(spec.kind) else { throw fail("\(base).selected", "\"selected\" applies to tab controllers only") }
            guard spec.children.indices.contains(spec.selected) else {
                throw fail("\(base).selected", "index \(spec.selected) is out of range for \(spec.children.count) children")
            }
        }
        // R61: navigation, tab and split controllers place their children themselves.
        if recorded.layout, let written = positions["\(base).layout"], !ContainerRules.takesLayoutRule(spec.kind) {
            // A storyboard's container views gave the layout (no place in the file): the file's `kind` is what changed.
            if written.line == 0, (positions["\(base).kind"]?.line ?? 0) > 0 {
                throw fail("\(base).kind", "a \(spec.kind.rawValue) controller places its children itself, but the storyboard lays this one's out in container views (a \"layout\")")
            }
            throw fail("\(base).layout", "\"layout\" applies to view controllers only; a \(spec.kind.rawValue) controller places its children itself")
        }
        if case let .origins(points) = spec.layout {
            for child in points.keys.sorted(by: { $0.name < $1.name }) where !spec.children.contains(child) {
                throw fail("\(base).layout.origins.\(child.name)", "\"\(child)\" is not a child of \"\(spec.id)\"")
            }
        }
    }

    /// The overrides of the controller at path `controller`; their paths are made only for an
    /// error (a flat scenario's million leaves have none).
    private func validateOverrides(_ overrides: OverrideSpec, of spec: ControllerSpec, in controller: String) throws(ScenarioError) {
        try validateForwarding(overrides.viewWillTransition, "viewWillTransition", of: spec, in: controller)
        try validateForwarding(overrides.willTransition, "willTransition", of: spec, in: controller)
        if case let .perChild(sizes) = overrides.sizeForChild {
            for child in sizes.keys.sorted() where !spec.children.contains(child) {
                throw fail("\(controller).overrides.sizeForChild", "\"\(child)\" is not a child of \"\(spec.id)\"")
            }
        }
    }

    private func validateForwarding(_ forwarding: ForwardingOverride, _ key: String, of spec: ControllerSpec, in controller: String) throws(ScenarioError) {
        guard case let .forwardTo(targets) = forwarding else { return }
        var seen = Set<ControllerID>()
        for (index, target) in targets.enumerated() {
            let at = "\(controller).overrides.\(key).forwardTo[\(index)]"
            guard spec.children.contains(target.child) else { throw fail(at, "\"\(target.child)\" is not a child of \"\(spec.id)\"") }
            guard seen.insert(target.child).inserted else { throw fail(at, "\"\(target.child)\" is listed twice") }
        }
    }

    /// SPEC §4.1: every `"behavior"` name is registered as its kind by the runner reading the
    /// file, and stands alone: the declarative rules it would replace are not beside it.
    private func validateBehaviors(_ spec: ControllerSpec, _ base: String) throws(ScenarioError) {
        if let name = spec.behavior {
            try validateBehavior(name, .viewController, at: "\(base).behavior", replacing: ["overrides"], in: base)
        }
        if let name = spec.presentationController?.behavior {
            try validateBehavior(name, .presentationController, at: "\(base).presentationController.behavior",
                                 replacing: ["sizeForChild", "frame", "overrides", "grant"], in: "\(base).presentationController")
        }
        if let name = spec.adaptiveDelegate?.behavior {
            try validateBehavior(name, .adaptiveDelegate, at: "\(base).adaptiveDelegate.behavior",
                                 replacing: ["style", "wrapIn"], in: "\(base).adaptiveDelegate")
        }
    }

    private func validateBehavior(
        _ name: String, _ kind: BehaviorKind, at path: String, replacing rules: [String], in object: String
    ) throws(ScenarioError) {
        let registry = scenario.registry
        guard registry.contains(name, as: kind) else {
            // At the first, and naming every other this program lacks: one run to learn them all.
            let others = scenario.behaviorNames.filter { !registry.contains($0.name, as: $0.kind) && $0 != BehaviorName(kind, name) }
            let more = others.isEmpty ? "" : "; the file also names \(others.map(\.description).joined(separator: ", ")), which it does not register either"
            throw fail(path, BehaviorAdvice.unknown(name, kind, in: registry) + more)
        }
        for rule in rules where positions["\(object).\(rule)"] != nil {
            throw fail("\(object).\(rule)", "declarative \"\(rule)\" beside the \(kind.words) \"\(name)\": the Swift behaviour decides what \"\(rule)\" would; remove one of them")
        }
    }

    private func validateAcyclic(_ links: HierarchyLinks) throws(ScenarioError) {
        guard let cycle = HierarchyCycle.first(in: links), let first = cycle.first else { return }
        throw fail("$.controllers.\(first).children", "cycle in the hierarchy: \(cycle.map(\.name).joined(separator: " -> "))")
    }

    /// An `expect` line's receiver must be able to receive something in this scenario (a
    /// controller, its presentation controller `pc:X`, its navigation wrapper `wrap:X`, or a node
    /// `node:N` of the run) and its kind must be a message events carry: a typo would otherwise
    /// only show when the expectation fails at run time.
    private func validateExpected(_ lines: [String], at base: String, _ byID: ControllerTable) throws(ScenarioError) {
        let nodes = Set(scenario.placement.values).union(["main"])
        for (index, line) in lines.enumerated() {
            let at = "\(base)[\(index)]"
            guard let kind = ExpectedLine.kind(of: line), let space = line.firstIndex(of: " ") else { continue }
            let receiver = String(line[..<space])
            let known: Bool
            if let node = receiver.dropPrefix("node:") {
                known = nodes.contains(node)
            } else {
                let id = receiver.dropPrefix("pc:") ?? receiver.dropPrefix("wrap:") ?? receiver
                known = byID[ControllerID(id)] != nil
            }
            guard known else { throw fail(at, "unknown receiver \"\(receiver)\" (not a controller of $.controllers, pc:ID, wrap:ID or node:NAME)") }
            guard TraceMessage.eventNames.contains(kind) else {
                throw fail(at, "unknown message \"\(kind)\"" + NearestName.hint(kind, among: TraceMessage.eventNames))
            }
        }
    }

    /// SPEC §10: no input may crash the tool. The levels a run can chain — the root's tree, and
    /// below it the tree of every controller a step presents, shows or pushes (each counted at
    /// every such step, so that the bound holds whatever the runtime does) — are at most
    /// `HierarchyDepth.maximum` (`docs/decisions.md`, *Hierarchy depth*).
    private func validateDepth(_ byID: ControllerTable) throws(ScenarioError) {
        let limit = HierarchyDepth.maximum
        let heightAt = HierarchyDepth.heights(in: byID.links)
        func heights(_ id: ControllerID) -> Int? {
            byID.links.position(of: id).map { heightAt[$0] }.flatMap { $0 > 0 ? $0 : nil }
        }
        var levels = heights(scenario.root) ?? 1
        guard levels <= limit else {
            throw fail("$.root", "the hierarchy under \"\(scenario.root)\" is \(levels) levels deep; at most \(limit) are supported")
        }
        for (index, step) in scenario.steps.enumerated() {
            guard case let .event(event) = step, let added = event.introduced?.controller else { continue }
            levels += heights(added) ?? 1
            guard levels <= limit else {
                throw fail("$.steps[\(index)]", "with \"\(added)\" the hierarchy could be \(levels) levels deep (children and presentations chained); at most \(limit) are supported")
            }
        }
    }

    private func validateSteps(_ byID: ControllerTable) throws(ScenarioError) {
        // Controllers an earlier step may have made a child (a push, a `show`, a `showDetail`):
        // which container took them is the run's to decide (R55–R57), and the run checks it.
        var joined: Set<ControllerID> = []
        for (index, step) in scenario.steps.enumerated() {
            let at = "$.steps[\(index)]"
            switch step {
            case let .event(event):
                try validate(event, at: at, byID, joined: joined)
                if let child = Self.childJoining(by: event) { joined.insert(child) }
            case let .expect(lines): try validateExpected(lines, at: "\(at).expect", byID)
            }
        }
    }
}

extension ScenarioValidator {
    /// The controller `event` may make a child of a container: what it pushes or shows.
    static func childJoining(by event: WindowEvent) -> ControllerID? {
        switch event {
        case let .push(pushed, _): return pushed
        case let .show(shown, _), let .showDetail(shown, _): return shown
        case let .performSegue(_, action):
            switch action {
            case let .show(copy, _), let .showDetail(copy, _): return copy
            case .present, .unwind: return nil
            }
        case .resizeWindow, .setTraits, .transition, .setPreferredContentSize, .setTraitOverride, .systemLayoutFittingSizeDidChange,
             .present, .dismiss, .pop, .select, .action:
            return nil
        }
    }
}

private extension String {
    /// The rest after `prefix`, or nil when the string does not start with it or is only it.
    func dropPrefix(_ prefix: String) -> String? {
        guard hasPrefix(prefix), count > prefix.count else { return nil }
        return String(dropFirst(prefix.count))
    }
}

/// The scenario's controllers by id, as positions in `Scenario.controllers` rather than copies
/// of each (a copy of a million `ControllerSpec`s took hundreds of megabytes, issue 27), with
/// the parent links the validator finds.
struct ControllerTable {
    let controllers: [ControllerSpec]
    /// Each id once; the links are added as the children are checked.
    var links: HierarchyLinks
    /// By position in `links.ids`: the index in `controllers` of the last controller of that id.
    private let specAt: [Int]
    /// By index in `controllers`: the position of its id in `links.ids`; nil while every id is
    /// new where it comes (each at its own index: no array of a million positions).
    private let positionOf: [Int]?

    init(_ controllers: [ControllerSpec]) {
        self.controllers = controllers
        // Each id hashed once here: where it is, both ways, is learned as it is placed.
        var specAt = [Int](repeating: 0, count: controllers.count)
        var positionOf: [Int]?
        links = HierarchyLinks(order: controllers.map(\.id)) { index, position in
            specAt[position] = index
            if positionOf == nil, position != index { positionOf = Array(0..<index) }
            positionOf?.append(position)
        }
        specAt.removeLast(specAt.count - links.ids.count)
        self.specAt = specAt
        self.positionOf = positionOf
    }

    /// The position in `links.ids` of the id of `controllers[index]`.
    func position(ofControllerAt index: Int) -> Int {
        positionOf?[index] ?? index
    }

    /// The controller `id`, nil when the scenario has none.
    subscript(id: ControllerID) -> ControllerSpec? {
        links.position(of: id).map { controllers[specAt[$0]] }
    }
}

extension ScenarioValidator {
    /// UIKit uses the transitioning delegate, and so the presentation controller it vends, when
    /// the presented controller's `modalPresentationStyle` is `custom` (Apple's documentation of
    /// `UIViewController.transitioningDelegate`): a `presentationController` on a controller that
    /// no step or segue of the file presents with `custom` is never used, a mistake worth a notice
    /// (not an error: a behaviour's Swift code may still present it with `custom`).
    /// What a file most likely did not mean though it may (notices, not errors): the two below.
    func notices() -> [String] {
        unusedPresentationControllerNotices() + unhandledActionNotices() + emptyExpectNotices()
    }

    /// An `expect` compares only the kinds of message its lines name, so one with no line
    /// checks nothing and always holds: the file is told, at the step.
    func emptyExpectNotices() -> [String] {
        scenario.steps.indices.compactMap { index in
            guard case .expect([]) = scenario.steps[index] else { return nil }
            let path = "$.steps[\(index)]"
            let position = positions[path] ?? (0, 0)
            return "\(file):\(position.line):\(position.column): \(path): an expect with no line checks nothing (it compares only "
                + "the kinds of message its lines name), so it always holds: name the lines the step before it records"
        }
    }

    /// SPEC §4.2: an `action` is delivered to a Swift behaviour's `perform`; on a controller (or
    /// the presentation controller of one) that names none, nothing can handle it, and the run
    /// says only that it was not handled: the file is told why, at the step.
    func unhandledActionNotices() -> [String] {
        var actions: [(index: Int, action: String, target: ControllerID, presented: ControllerID?)] = []
        for (index, step) in scenario.steps.enumerated() {
            guard case let .event(.action(action, on: target, _)) = step else { continue }
            actions.append((index, action, target, BehaviorRequests.presentedID(ofPresentationController: target)))
        }
        guard !actions.isEmpty else { return [] }
        // One pass over the controllers, whatever their number, for the few that actions name.
        let named = Set(actions.map { $0.presented ?? $0.target })
        var specs: [ControllerID: ControllerSpec] = [:]
        for spec in scenario.controllers where named.contains(spec.id) { specs[spec.id] = spec }
        var notices: [String] = []
        for (index, action, target, presented) in actions {
            guard let spec = specs[presented ?? target] else { continue }
            let named = presented == nil ? spec.behavior : spec.presentationController?.behavior
            guard named == nil else { continue }
            let path = "$.steps[\(index)]"
            let position = positions[path] ?? (0, 0)
            let remedy = presented == nil ? "give \(spec.id) one with \"behavior\"" : "give \(spec.id)'s presentationController one with \"behavior\""
            notices.append("\(file):\(position.line):\(position.column): \(path): action \(action) on \(target): \(target) has no Swift behaviour "
                + "to handle it (\(remedy)), so the trace will say it was not handled")
        }
        return notices
    }

    func unusedPresentationControllerNotices() -> [String] {
        let described = scenario.controllers.filter { $0.presentationController != nil && $0.modalPresentationStyle != .custom }
        guard !described.isEmpty else { return [] }
        var customs = Set<ControllerID>()
        for step in scenario.steps {
            if case let .event(.present(presented, _, _, style: .custom)) = step { customs.insert(presented) }
        }
        for segue in scenario.segues where segue.style == .custom {
            if let destination = segue.destination { customs.insert(destination) }
        }
        return described.filter { !customs.contains($0.id) }.map { spec in
            let path = "$.controllers.\(spec.id).presentationController"
            let position = positions[path] ?? (0, 0)
            let style = spec.modalPresentationStyle.map { "its modalPresentationStyle is \($0.rawValue)" }
                ?? "it has no modalPresentationStyle (the profile's default)"
            return "\(file):\(position.line):\(position.column): \(path) is used only when \(spec.id) is presented with the custom style, "
                + "and \(style) and no step or segue of this file presents it with style custom: its presentations use the built-in "
                + "presentation controller of their style (unless a behaviour's Swift code presents it with custom)"
        }
    }
}
