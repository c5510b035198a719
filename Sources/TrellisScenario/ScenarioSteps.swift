import TrellisJSON
import TrellisModel
import TrellisRuntime
import TrellisTrace

// The steps of a scenario file (SPEC §5, `Protocols/scenario-format.md`), one vocabulary from
// file to window: every step but `expect` is a `WindowEvent`. Here is each step's name, how its
// fields are read, what it must refer to, and what it brings into the window; its header text
// and what the window does with it are the event's own, in `Sources/TrellisRuntime/Window.swift`.
// A new step is a case in each of those two files; every switch below names every case, so a
// step left out anywhere does not compile.

/// The name a step object carries: `{ "<name>": <value>, <fields beside it>… }`.
enum StepName: String, CaseIterable {
    case resizeWindow, setTraits, transition, present, dismiss, show, showDetail, push, pop, select
    case setPreferredContentSize, setTraitOverride, systemLayoutFittingSizeDidChange, action, performSegue, expect
}

/// One step object while it is read: its name, its value (the member the name keys) and where
/// both are.
struct StepSyntax {
    var name: StepName
    /// The whole step object, which holds the fields beside the name.
    var node: JSONNode
    var path: String
    /// The value the name keys (`"B"` in `{ "push": "B", "onto": "N" }`).
    var value: JSONNode
    /// The value's path (`$.steps[2].push`).
    var at: String
}

extension Reader {
    /// A step object naming no step: its keys, with the step name nearest one of them.
    static func unknownStep(keys: [String]) -> String {
        let known = Set(StepName.allCases.map(\.rawValue))
        let named = keys.isEmpty ? "no step in {}" : "unknown step " + keys.map { "\"\($0)\"" }.joined(separator: ", ")
        let hint = keys.lazy.map { NearestName.hint($0, among: known) }.first { !$0.isEmpty } ?? ""
        return named + hint + "; expected one of: " + StepName.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// One step: an object naming exactly one step, with the fields that step allows beside it.
    mutating func step(_ node: JSONNode, _ path: String) throws(ScenarioError) -> ScenarioStep {
        guard case let .object(members) = node.value else { throw fail(node, path, "expected a step object, got \(node.value.typeName)") }
        let names = members.compactMap { StepName(rawValue: $0.key) }
        guard names.count == 1, let name = names.first else {
            throw fail(node, path, names.isEmpty
                ? Self.unknownStep(keys: members.map(\.key))
                : "a step names exactly one action, found: \(names.map(\.rawValue).joined(separator: ", "))")
        }
        let step = StepSyntax(name: name, node: node, path: path, value: node[name.rawValue] ?? node, at: path + "." + name.rawValue)
        switch name {
        case .resizeWindow:
            _ = try beside(step)
            return .event(.resizeWindow(try size(step.value, step.at)))
        case .setTraits:
            _ = try beside(step)
            return .event(.setTraits(try traits(step.value, step.at)))
        case .transition: return .event(try transition(step))
        case .present: return .event(try present(step))
        case .dismiss:
            var animated = true
            for (key, member) in try beside(step, ["animated"]) where key == "animated" {
                animated = try bool(member, step.path + ".animated")
            }
            return .event(.dismiss(try id(step.value, step.at), animated: animated))
        case .show:
            let (shown, from) = try id(step, with: "from")
            return .event(.show(shown, from: from))
        case .showDetail:
            let (shown, from) = try id(step, with: "from")
            return .event(.showDetail(shown, from: from))
        case .push:
            let (pushed, onto) = try id(step, with: "onto")
            return .event(.push(pushed, onto: onto))
        case .pop:
            _ = try beside(step)
            return .event(.pop(try id(step.value, step.at)))
        case .select: return .event(try select(step))
        case .setPreferredContentSize: return .event(try setPreferredContentSize(step))
        case .setTraitOverride: return .event(try setTraitOverride(step))
        case .systemLayoutFittingSizeDidChange:
            _ = try beside(step)
            return .event(.systemLayoutFittingSizeDidChange(try id(step.value, step.at)))
        case .action: return .event(try action(step))
        case .performSegue: return .event(try performSegue(step))
        case .expect: return .expect(try expectedLines(step))
        }
    }

    /// The step object's members, the name and these fields allowed beside it.
    func beside(_ step: StepSyntax, _ fields: Set<String> = [], required: [String] = []) throws(ScenarioError) -> [(key: String, value: JSONNode)] {
        try members(step.node, step.path, allowed: fields.union([step.name.rawValue]), required: required)
    }

    /// `{ "<step>": "A", "<field>": "B" }`: the step's controller and the one its field names.
    func id(_ step: StepSyntax, with field: String) throws(ScenarioError) -> (ControllerID, ControllerID) {
        var other: ControllerID = ""
        for (key, member) in try beside(step, [field], required: [field]) where key == field {
            other = try id(member, step.path + "." + field)
        }
        return (try id(step.value, step.at), other)
    }

    /// `{ "transition": { "size": [w, h], "traits": {…} } }`, one of them at least.
    func transition(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        _ = try beside(step)
        var newSize: Size?
        var newTraits: TraitCollection?
        for (key, member) in try members(step.value, step.at, allowed: ["size", "traits"]) {
            if key == "size" { newSize = try size(member, step.at + ".size") } else { newTraits = try traits(member, step.at + ".traits") }
        }
        guard newSize != nil || newTraits != nil else { throw fail(step.value, step.at, "a transition needs \"size\", \"traits\" or both") }
        return .transition(size: newSize, traits: newTraits)
    }

    /// `{ "present": "P", "from": "R", "animated": false, "style": "formSheet" }`.
    func present(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        var from: ControllerID = ""
        var animated = true
        var style: ModalPresentationStyle?
        for (key, member) in try beside(step, ["from", "animated", "style"], required: ["from"]) {
            switch key {
            case "from": from = try id(member, step.path + ".from")
            case "animated": animated = try bool(member, step.path + ".animated")
            case "style": style = try rawEnum(member, step.path + ".style", ModalPresentationStyle.self, what: "presentation style")
            default: break
            }
        }
        return .present(try id(step.value, step.at), from: from, animated: animated, style: style)
    }

    /// Two spellings: `{ "select": "T", "index": 1 }`, like present and push, and
    /// `{ "select": { "tab": "T", "index": 1 } }`, SPEC §5's `select {tab, index}`.
    func select(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        var index = 0
        guard case .object = step.value.value else {
            for (key, member) in try beside(step, ["index"], required: ["index"]) where key == "index" {
                index = try integer(member, step.path + ".index")
            }
            return .select(tab: try id(step.value, step.at), index: index)
        }
        _ = try beside(step)
        var tab: ControllerID = ""
        for (key, member) in try members(step.value, step.at, allowed: ["tab", "index"], required: ["tab", "index"]) {
            if key == "tab" { tab = try id(member, step.at + ".tab") } else { index = try integer(member, step.at + ".index") }
        }
        return .select(tab: tab, index: index)
    }

    /// `{ "setPreferredContentSize": { "controller": "A", "size": [w, h] } }`.
    func setPreferredContentSize(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        _ = try beside(step)
        var controller: ControllerID = ""
        var requested = Size.zero
        for (key, member) in try members(step.value, step.at, allowed: ["controller", "size"], required: ["controller", "size"]) {
            if key == "controller" { controller = try id(member, step.at + ".controller") } else { requested = try size(member, step.at + ".size") }
        }
        return .setPreferredContentSize(controller, requested)
    }

    /// `{ "setTraitOverride": { "container": "S", "child": "A", "traits": {…} | null } }`; null
    /// removes the override.
    func setTraitOverride(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        _ = try beside(step)
        var container: ControllerID = ""
        var child: ControllerID = ""
        var override: TraitCollection?
        for (key, member) in try members(step.value, step.at, allowed: ["container", "child", "traits"], required: ["container", "child", "traits"]) {
            switch key {
            case "container": container = try id(member, step.at + ".container")
            case "child": child = try id(member, step.at + ".child")
            default: override = member.value == .null ? nil : try traits(member, step.at + ".traits")
            }
        }
        return .setTraitOverride(container: container, child: child, traits: override)
    }

    /// `{ "action": "keyboardWillShow", "on": "pc:S", "value": 216 }` (SPEC §4.2): `on` a
    /// controller or a presentation controller, `value` any JSON value (optional).
    mutating func action(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        var target: ControllerID = ""
        var value: ActionValue?
        for (key, member) in try beside(step, ["on", "value"], required: ["on"]) {
            if key == "on" {
                positions[step.path + ".on"] = (member.line, member.column)
                target = try actionTarget(member, step.path + ".on")
            } else if key == "value" {
                positions[step.path + ".value"] = (member.line, member.column)
                value = ActionValue(json: member.value)
            }
        }
        let name = try string(step.value, step.at)
        if name.isEmpty || name.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) {
            throw fail(step.value, step.at, "an action's name must be one word (no white space), got \"\(name)\"")
        }
        return .action(name, on: target, value: value)
    }

    /// A controller id, or `pc:` and one: the presentation controller of that controller.
    func actionTarget(_ node: JSONNode, _ path: String) throws(ScenarioError) -> ControllerID {
        let text = try string(node, path)
        guard text.hasPrefix("pc:") else { return try id(node, path) }
        let presented = try Self.controllerID(String(text.dropFirst(3))) { message throws(ScenarioError) in throw fail(node, path, message) }
        return .presentationController(of: presented)
    }

    /// `{ "performSegue": "<segueId>" }` (SPEC §11): what the segue does, and the fresh copy of
    /// its destination it does it to (`SegueCopies`).
    mutating func performSegue(_ step: StepSyntax) throws(ScenarioError) -> WindowEvent {
        _ = try beside(step)
        let id = try string(step.value, step.at)
        switch segueCopies.perform(id) {
        case let .success(action): return .performSegue(id, action)
        case let .failure(refusal): throw fail(step.value, step.at, refusal.message)
        }
    }

    /// `{ "expect": ["<canonical line>", …] }`.
    mutating func expectedLines(_ step: StepSyntax) throws(ScenarioError) -> [String] {
        _ = try beside(step)
        guard case let .array(items) = step.value.value else { throw fail(step.value, step.at, "expected an array of canonical trace lines") }
        var lines: [String] = []
        for (index, item) in items.enumerated() {
            let at = "\(step.at)[\(index)]"
            positions[at] = (item.line, item.column)
            // YAML reads an unquoted line with ": " in it (`parent: 568x320`) as a mapping.
            if case let .object(members) = item.value, members.count == 1, case let .string(rest) = members[0].value.value {
                throw fail(item, at, "expected a canonical trace line (a string), got an object: in YAML, quote a line that holds \": \" (\"\(members[0].key): \(rest)\")")
            }
            let line = try string(item, at)
            guard ExpectedLine.kind(of: line) != nil else {
                throw fail(item, at, "not a canonical trace line (expected \"<receiver> <message>\")")
            }
            lines.append(line)
        }
        return lines
    }
}

extension ScenarioValidator {
    /// What a step's event must refer to: controllers of the file, of the right kind (checked
    /// before anything runs, so that a typo is named with its JSON path).
    /// `joined`: controllers an earlier step may have made a child (`childJoining(by:)`).
    func validate(_ event: WindowEvent, at: String, _ byID: ControllerTable, joined: Set<ControllerID>) throws(ScenarioError) {
        func known(_ id: ControllerID, _ field: String) throws(ScenarioError) {
            guard byID[id] != nil else { throw fail(at, "\(field): unknown controller \"\(id)\"") }
        }
        func navigation(_ id: ControllerID) throws(ScenarioError) {
            guard byID[id]?.kind == .navigation else { throw fail(at, "\"\(id)\" is not a navigation controller") }
        }
        switch event {
        case .resizeWindow, .setTraits, .transition:
            break
        case let .present(presented, from, _, _):
            try known(presented, "present")
            try known(from, "from")
            if let parent = byID.links[parentOf: presented] {
                throw fail(at, "\"\(presented)\" is a child of \"\(parent)\" and cannot also be presented")
            }
            if presented == scenario.root { throw fail(at, "the root \"\(presented)\" cannot be presented") }
        case let .dismiss(id, _), let .systemLayoutFittingSizeDidChange(id), let .setPreferredContentSize(id, _):
            try known(id, "controller")
        case let .show(shown, from), let .showDetail(shown, from):
            try known(shown, "shown controller")
            try known(from, "from")
        case let .push(pushed, onto):
            try known(pushed, "push")
            try known(onto, "onto")
            try navigation(onto)
        case let .pop(id):
            try known(id, "pop")
            try navigation(id)
        case let .select(tab, tabIndex):
            try known(tab, "tab")
            guard let spec = byID[tab], spec.kind == .tab else { throw fail(at, "\"\(tab)\" is not a tab controller") }
            guard spec.children.indices.contains(tabIndex) else {
                throw fail(at, "index \(tabIndex) is out of range for \(spec.children.count) children")
            }
        case let .action(name, target, value):
            // `on`: a controller of the file, or `pc:P` for the presentation controller of one.
            let presented = BehaviorRequests.presentedID(ofPresentationController: target)
            guard let spec = byID[presented ?? target] else {
                throw fail(at + ".on", "unknown controller \"\(target)\"" + (presented.map { " (no controller \"\($0)\" to present)" } ?? ""))
            }
            try validateActionValue(name, value, of: target, spec, presented: presented != nil, at: at)
            if let bytes = value?.jsonText.utf8.count, bytes > ActionValue.maxJSONBytes {
                throw fail(at + ".value", "the action's value takes \(bytes) bytes as compact JSON, more than \(ActionValue.maxJSONBytes) (it travels to the node hosting \(target) as one TWP/1 string)")
            }
        case let .performSegue(_, action):
            switch action {
            case let .present(copy, from), let .show(copy, from), let .showDetail(copy, from):
                try known(copy, "destination")
                try known(from, "from")
            case let .unwind(from): try known(from, "from")
            }
        case let .setTraitOverride(container, child, _):
            try known(container, "container")
            try known(child, "child")
            guard byID[container]?.children.contains(child) == true || joined.contains(child) else {
                throw fail(at, "\"\(child)\" is not a child of \"\(container)\"")
            }
        }
    }
}

extension ScenarioValidator {
    /// SPEC §4.2: the value an action carries must be of the JSON type its behaviour declares
    /// for it — a behaviour the file names and the registry knows, so this is decided before
    /// anything runs (`$.steps[i].value`, or the step where the value is missing).
    func validateActionValue(
        _ action: String, _ value: ActionValue?, of target: ControllerID, _ spec: ControllerSpec, presented: Bool, at: String
    ) throws(ScenarioError) {
        let expected: ActionValueType?
        if presented {
            expected = spec.presentationController?.behavior
                .flatMap { scenario.registry.presentationControllerBehavior(named: $0) }?.valueType(forAction: action)
        } else {
            expected = spec.behavior.flatMap { scenario.registry.viewControllerBehavior(named: $0) }?.valueType(forAction: action)
        }
        guard case let .wrongValueType(expected, got)? = ActionOutcome.check(value, expected: expected) else { return }
        let path = value == nil ? at : at + ".value"
        throw fail(path, ActionOutcome.refusal(action: action, on: target, expected: expected, got: got))
    }
}

extension WindowEvent {
    /// The controller this event brings into the window from outside its tree, with the one
    /// that brings it; nil for events that bring none. A distributed run places such a
    /// controller with that one (SPEC §5 `placement`), and the depth bound counts its tree.
    package var introduced: (controller: ControllerID, by: ControllerID)? {
        switch self {
        case let .present(presented, from, _, _): return (presented, from)
        case let .show(shown, from), let .showDetail(shown, from): return (shown, from)
        case let .push(pushed, onto): return (pushed, onto)
        case let .performSegue(_, action): return action.introduced
        case .resizeWindow, .setTraits, .transition, .dismiss, .pop, .select, .setPreferredContentSize, .setTraitOverride,
             .systemLayoutFittingSizeDidChange, .action:
            return nil
        }
    }
}
