import TrellisModel
import TrellisRuntime
import TrellisTrace

/// SPEC §11: what each `performSegue` step does, decided as the file's steps are read in
/// order. UIKit instantiates a segue's destination afresh each time it is performed, so every
/// performance that brings a controller in copies the destination's subtree: the Nth copy of a
/// controller `X` that the steps make is `X~N` (N counts per controller, from 1, whether `X` is
/// copied as a destination or inside one), and the copies' children, trait overrides, layout
/// origins and overrides name the copies. A copy takes the segue's style, transition style and
/// anchor, as UIKit's segue sets them on the destination. A segue's source (and a popover's
/// anchor view) is the latest copy of its `from` made by an earlier step, else `from` itself:
/// the scene the user sees. A custom segue does what the runner's registered `SegueBehavior`
/// of its class says, and is refused without one. The copies are ordinary controllers of the
/// scenario, so every tool — the validator, placement, the runtime, the distributed conductor —
/// handles them as it handles the file's own (`docs/decisions.md`, *Segues*).
struct SegueCopies {
    /// SPEC §10 (bounded memory on any input): at most this many copies in one scenario. Each
    /// performance copies a whole subtree, so a short file could otherwise ask for billions
    /// (`docs/decisions.md`, *Segues*).
    static let maximumCopies = 100_000

    private var segues: [String: SegueSpec] = [:]
    private var originals: [ControllerID: ControllerSpec] = [:]
    private var placement: [ControllerID: String] = [:]
    private var registry = BehaviorRegistry()
    /// How many copies of each controller the steps so far made.
    private var counts: [ControllerID: Int] = [:]
    /// The latest copy of each controller.
    private var latest: [ControllerID: ControllerID] = [:]
    /// The copies made, in the order the steps made them, each subtree parent first.
    private(set) var copies: [ControllerSpec] = []
    /// Each copy and the file's controller it copies.
    private(set) var copiedFrom: [ControllerID: ControllerID] = [:]
    /// The placement of each copy whose original the file places (SPEC §5 `placement`).
    private(set) var copiedPlacement: [ControllerID: String] = [:]

    init() {}

    init(_ scenario: Scenario, registry: BehaviorRegistry) {
        self.registry = registry
        for segue in scenario.segues { segues[segue.id] = segue }
        for spec in scenario.controllers where originals[spec.id] == nil { originals[spec.id] = spec }
        placement = scenario.placement
    }

    /// Why performing `id` is refused (an unknown segue, an unregistered custom one, a copy
    /// whose name the file already uses, too many copies), else what it does.
    mutating func perform(_ id: String) -> Result<SegueAction, SegueRefusal> {
        guard let segue = segues[id] else { return .failure(.unknown(id, known: segues.keys.sorted())) }
        let source = current(segue.from)
        let action: (ControllerID, ControllerID) -> SegueAction
        var style = segue.style
        switch segue.kind {
        case .unwind: return .success(.unwind(from: source))
        case .custom:
            // SPEC §11: only the runner knows what the class's code does.
            switch segue.customClass.flatMap({ registry.segueBehavior(named: $0) }) {
            case nil: return .failure(.custom(segue, registered: registry.segueNames))
            case .unwind?: return .success(.unwind(from: source))
            case let .present(registered)?:
                action = SegueAction.present
                style = registered ?? style
            case .show?: action = SegueAction.show
            case .showDetail?: action = SegueAction.showDetail
            }
        case .presentation, .modal, .popoverPresentation: action = SegueAction.present
        case .show, .push: action = SegueAction.show
        case .showDetail: action = SegueAction.showDetail
        }
        // The validator names a missing or unknown destination: there is nothing to copy.
        guard let destination = segue.destination, originals[destination] != nil else {
            return .success(action(segue.destination ?? source, source))
        }
        return copySubtree(of: destination, for: segue, style: style).map { action($0, source) }
    }

    /// The controller the window shows for the file's `id`: its latest copy, else itself.
    private func current(_ id: ControllerID) -> ControllerID {
        latest[id] ?? id
    }

    /// Copies `destination`'s subtree (iteratively: a deep file must not exhaust the stack; each
    /// controller once, so that a cycle the validator will name ends here) and returns the copy
    /// of `destination`.
    private mutating func copySubtree(
        of destination: ControllerID, for segue: SegueSpec, style: ModalPresentationStyle?
    ) -> Result<ControllerID, SegueRefusal> {
        var order: [ControllerID] = []
        var renamed: [ControllerID: ControllerID] = [:]
        var pending = [destination]
        while let id = pending.popLast() {
            guard renamed[id] == nil, let spec = originals[id] else { continue }
            let number = (counts[id] ?? 0) + 1
            let name = ControllerID("\(id.name)~\(number)")
            if originals[name] != nil { return .failure(.nameTaken(segue.id, name)) }
            counts[id] = number
            renamed[id] = name
            order.append(id)
            guard copies.count + order.count <= Self.maximumCopies else { return .failure(.tooManyCopies(segue.id)) }
            pending.append(contentsOf: spec.children.reversed())
        }
        for id in order {
            guard var spec = originals[id], let name = renamed[id] else { continue }
            spec = Self.renamed(spec, to: name, by: renamed)
            if id == destination { spec = configured(spec, by: segue, style: style) }
            copies.append(spec)
            copiedFrom[name] = id
            latest[id] = name
            if let node = placement[id] { copiedPlacement[name] = node }
        }
        return .success(renamed[destination] ?? destination)
    }

    /// The segue's style (or a custom segue's registered one), transition style and anchor on
    /// its destination's copy.
    private func configured(_ spec: ControllerSpec, by segue: SegueSpec, style: ModalPresentationStyle?) -> ControllerSpec {
        var spec = spec
        if let style { spec.modalPresentationStyle = style }
        if let transition = segue.transitionStyle { spec.modalTransitionStyle = transition }
        if segue.kind == .popoverPresentation {
            spec.modalPresentationStyle = .popover
            if var anchor = segue.anchor {
                anchor.view = current(anchor.view)
                spec.popoverSource = anchor
            }
        }
        return spec
    }

    /// `spec` as the copy `name`, naming the copies of the controllers it refers to.
    private static func renamed(_ spec: ControllerSpec, to name: ControllerID, by renamed: [ControllerID: ControllerID]) -> ControllerSpec {
        func copy(_ id: ControllerID) -> ControllerID { renamed[id] ?? id }
        var spec = spec
        spec.id = name
        spec.children = spec.children.map(copy)
        spec.traitOverrides = Dictionary(spec.traitOverrides.map { (copy($0.key), $0.value) }) { first, _ in first }
        if case let .origins(points) = spec.layout {
            spec.layout = .origins(Dictionary(points.map { (copy($0.key), $0.value) }) { first, _ in first })
        }
        spec.overrides = renamedOverrides(spec.overrides, copy)
        if var source = spec.popoverSource {
            source.view = copy(source.view)
            spec.popoverSource = source
        }
        return spec
    }

    private static func renamedOverrides(_ overrides: OverrideSpec, _ copy: (ControllerID) -> ControllerID) -> OverrideSpec {
        var overrides = overrides
        func forwarding(_ rule: ForwardingOverride) -> ForwardingOverride {
            switch rule {
            case .callSuper, .noSuper: return rule
            case let .forwardTo(targets): return .forwardTo(targets.map { ForwardTarget(child: copy($0.child), size: $0.size) })
            }
        }
        overrides.viewWillTransition = forwarding(overrides.viewWillTransition)
        overrides.willTransition = forwarding(overrides.willTransition)
        if case let .perChild(sizes)? = overrides.sizeForChild {
            overrides.sizeForChild = .perChild(Dictionary(sizes.map { (copy($0.key), $0.value) }) { first, _ in first })
        }
        return overrides
    }
}

/// Why a `performSegue` step cannot be performed, found as the file is read.
enum SegueRefusal: Error {
    case unknown(String, known: [String])
    /// SPEC §11: a custom segue's class decides what it does, and the runner registers no
    /// segue behaviour that says what (the classes it does register).
    case custom(SegueSpec, registered: [String])
    /// The copy's name is a controller id the file declares.
    case nameTaken(String, ControllerID)
    /// The performance would take the scenario past `SegueCopies.maximumCopies`.
    case tooManyCopies(String)

    var message: String {
        switch self {
        case let .unknown(id, known):
            guard !known.isEmpty else { return "unknown segue \"\(id)\": the scenario declares no segues" }
            let hint = NearestName.hint(id, among: Set(known))
            return "unknown segue \"\(id)\"\(hint); the scenario's segues are: \(known.joined(separator: ", "))"
        case let .custom(segue, registered):
            let name = segue.customClass ?? ""
            let known = registered.isEmpty ? "it registers none" : "it registers: " + registered.joined(separator: ", ")
            return "segue \"\(segue.id)\" is a custom segue of class \"\(name)\", whose Swift code decides what performing it does: "
                + "run the scenario with a runner that registers a segue behaviour named \"\(name)\" (BehaviorRegistry.segue; \(known))"
        case let .nameTaken(id, name):
            return "performing segue \"\(id)\" makes a copy named \"\(name)\", which $.controllers already declares (ID~N names the Nth copy of ID)"
        case let .tooManyCopies(id):
            return "performing segue \"\(id)\" would take the copies this scenario's steps make past \(SegueCopies.maximumCopies); at most \(SegueCopies.maximumCopies) are supported"
        }
    }
}
