import TrellisJSON
import TrellisModel
import TrellisRuntime

/// Reads a scenario file and checks it whole before anything runs: syntax, unknown fields,
/// wrong types, unknown ids, duplicate children, cycles, a controller used twice.
public enum ScenarioDecoder {
    /// Decodes `text`; `file` names it in error messages. A file named `*.yaml` or `*.yml` is
    /// read as YAML, anything else as JSON. Every `"behavior"` name must be in `registry` (the
    /// runner's, SPEC §4.1; the plain `trellis` has an empty one); the scenario keeps it to build
    /// its controllers with.
    public static func decode(_ text: String, file: String, registry: BehaviorRegistry = BehaviorRegistry()) throws(ScenarioError) -> Scenario {
        try decode(document: try document(text, file: file), file: file, registry: registry)
    }

    /// Decodes and checks a parsed document. It is consumed: the tree (about 200 bytes a leaf of
    /// a flat scenario) dies once the `Scenario` is read from it, before the checks build their
    /// tables (issue 27 item 5).
    static func decode(document: consuming JSONNode, file: String, registry: BehaviorRegistry) throws(ScenarioError) -> Scenario {
        var scenario: Scenario
        var reader = Reader(file: file)
        reader.registry = registry
        do {
            let (root, notices) = try StoryboardField.expand(consume document, file: file, registry: registry)
            scenario = try reader.scenario(consume root)
            scenario.notices = notices
        }
        if scenario.controllers.count >= FreedMemory.interval { FreedMemory.release() }
        scenario.registry = registry
        let validator = ScenarioValidator(scenario: scenario, file: file, positions: reader.positions)
        try validator.validate()
        scenario.notices += validator.notices()
        return scenario
    }

    /// Every Swift behaviour the scenario's JSON text names (`Scenario.behaviorNames`), read
    /// without a registry: a node checks these against its runner's before decoding, so that a
    /// node of another program is refused as one (TWP/1 ERROR 8) whichever names it lacks.
    /// Empty when the text is no scenario (`decode` then says why).
    public static func behaviorNames(inJSON text: String) -> [BehaviorName] {
        guard var root = try? JSONParser.parse(text) else { return [] }
        // Without the steps: a `performSegue` copy names its original's behaviours, and reading
        // a custom segue's step needs the runner's registry, which this check is made without.
        if case let .object(members) = root.value { root.value = .object(members.filter { $0.key != "steps" }) }
        var reader = Reader(file: "")
        return (try? reader.scenario(root))?.behaviorNames ?? []
    }

    /// The scenario as JSON text — the file's own text, or a YAML file rewritten as JSON, or a
    /// scenario naming a `"storyboard"` with the storyboard read into it (SPEC §11; a node needs
    /// no storyboard file) — for sending to other nodes, whose SETUP carries JSON (TWP/1).
    /// `registry` decides which `customClass`es become `"behavior"`s, as in `decode`.
    public static func jsonText(_ text: String, file: String, registry: BehaviorRegistry = BehaviorRegistry()) throws(ScenarioError) -> String {
        let isYAML = file.hasSuffix(".yaml") || file.hasSuffix(".yml")
        guard isYAML || text.contains("\"storyboard\"") else { return text }
        let root = try document(text, file: file)
        guard root["storyboard"] != nil else { return isYAML ? JSONWriter.write(root.value) : text }
        return JSONWriter.write(try StoryboardField.expand(root, file: file, registry: registry).0.value)
    }

    /// The file's JSON document: the JSON text parsed, or a YAML file composed as JSON.
    static func document(_ text: String, file: String) throws(ScenarioError) -> JSONNode {
        if file.hasSuffix(".yaml") || file.hasSuffix(".yml") {
            return try YAMLScenarioReader.read(text, file: file)
        }
        do {
            return try JSONParser.parse(text)
        } catch {
            throw notJSON(error, Array(text.utf8), file: file)
        }
    }

    /// Why a scenario file is not JSON. A JSON Lines trace given where a scenario is wanted
    /// (`run t.jsonl`) is said to be one: its first line is a capture line (an object with `v`,
    /// or with `seq` and `message`), and the parser stops at its second.
    static func notJSON(_ error: JSONParser.SyntaxError, _ bytes: [UInt8], file: String) -> ScenarioError {
        let firstLine = Array(bytes.prefix { $0 != UInt8(ascii: "\n") })
        if error.line > 1, let first = try? JSONParser.parse(bytes: firstLine), case .object = first.value,
           first["v"] != nil || (first["seq"] != nil && first["message"] != nil) {
            return ScenarioError(file: file, path: "", line: 1, column: 1,
                                 message: "this is a JSON Lines trace (one event a line), not a scenario: a trace is shown with `trace show \(file)`")
        }
        return ScenarioError(file: file, path: error.path ?? "", line: error.line, column: error.column, message: "not valid JSON: \(error.message)")
    }

    /// Decodes the file at `path`, its behaviour names checked against `registry`.
    public static func load(path: String, registry: BehaviorRegistry = BehaviorRegistry()) throws(ScenarioError) -> Scenario {
        try decode(document: try document(path: path), file: path, registry: registry)
    }

    /// The document of the file at `path`. A JSON file's bytes are parsed as they were read
    /// (checked as UTF-8 first, as `text(path:)` does) and die with this call: the file is not
    /// also held as a `String`, nor alive while the `Scenario` is read (issue 27 item 5).
    static func document(path: String) throws(ScenarioError) -> JSONNode {
        if path.hasSuffix(".yaml") || path.hasSuffix(".yml") {
            return try document(try text(path: path), file: path)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileText.bytes(path)
        } catch {
            throw ScenarioError(file: path, path: "", line: 0, column: 0, message: error.description)
        }
        do {
            return try JSONParser.parse(bytes: bytes)
        } catch {
            throw notJSON(error, bytes, file: path)
        }
    }

    /// The text of the file at `path`, read once and streamed, so that a pipe or process
    /// substitution can be both decoded and sent on (`jsonText`).
    public static func text(path: String) throws(ScenarioError) -> String {
        do {
            return try FileText.read(path)
        } catch {
            throw ScenarioError(file: path, path: "", line: 0, column: 0, message: error.description)
        }
    }
}

/// Turns JSON into a `Scenario`, naming the JSON path of anything it rejects.
struct Reader {
    let file: String
    /// JSON path → position, for the semantic checks that run after decoding.
    var positions = PathPositions()
    /// What the `performSegue` steps read so far did (SPEC §11), made when the steps begin.
    var segueCopies = SegueCopies()
    /// The runner's registry, whose segue behaviours say what a custom segue does (SPEC §11).
    var registry = BehaviorRegistry()

    init(file: String) {
        self.file = file
    }

    func fail(_ node: JSONNode, _ path: String, _ message: String) -> ScenarioError {
        ScenarioError(file: file, path: path, line: node.line, column: node.column, message: message)
    }

    func members(_ node: JSONNode, _ path: String, allowed: Set<String>, required: [String] = []) throws(ScenarioError) -> [(key: String, value: JSONNode)] {
        guard case let .object(members) = node.value else {
            throw fail(node, path, "expected an object, got \(node.value.typeName)")
        }
        for member in members where !allowed.contains(member.key) {
            throw fail(member.value, path + "." + member.key,
                       "unknown field \"\(member.key)\" (expected one of: \(allowed.sorted().joined(separator: ", ")))")
        }
        for key in required where !members.contains(where: { $0.key == key }) {
            throw fail(node, path, "missing required field \"\(key)\"")
        }
        return members
    }

    func string(_ node: JSONNode, _ path: String) throws(ScenarioError) -> String {
        guard case let .string(text) = node.value else { throw fail(node, path, "expected a string, got \(node.value.typeName)") }
        return text
    }

    func id(_ node: JSONNode, _ path: String) throws(ScenarioError) -> ControllerID {
        try id(node) { path }
    }

    /// An id whose path is only made when it is rejected (a million children made a million).
    func id(_ node: JSONNode, _ path: () -> String) throws(ScenarioError) -> ControllerID {
        guard case let .string(text) = node.value else { throw fail(node, path(), "expected a string, got \(node.value.typeName)") }
        return try Self.controllerID(text) { message throws(ScenarioError) in throw fail(node, path(), message) }
    }

    static func controllerID(_ text: String, reject: (String) throws(ScenarioError) -> Never) throws(ScenarioError) -> ControllerID {
        if let problem = ControllerID.problem(with: text) { try reject(problem) }
        return ControllerID(text)
    }

    /// Sizes and coordinates beyond this are rejected: they would overflow into infinities.
    static let maximumMagnitude = 1_000_000.0

    func bool(_ node: JSONNode, _ path: String) throws(ScenarioError) -> Bool {
        guard case let .bool(flag) = node.value else { throw fail(node, path, "expected true or false, got \(node.value.typeName)") }
        return flag
    }

    func number(_ node: JSONNode, _ path: String) throws(ScenarioError) -> Double {
        guard case let .number(value) = node.value else { throw fail(node, path, "expected a number, got \(node.value.typeName)") }
        return value
    }

    func integer(_ node: JSONNode, _ path: String) throws(ScenarioError) -> Int {
        let value = try number(node, path)
        guard value == value.rounded(), abs(value) < 1e9 else { throw fail(node, path, "expected a whole number, got \(value)") }
        return Int(value)
    }

    /// `count` numbers, each in `0...maximumMagnitude` — or, where `signed` says so by index,
    /// in `-maximumMagnitude...maximumMagnitude`.
    func numbers(_ node: JSONNode, _ path: String, count: Int, what: String, signed: Set<Int> = [], limit: Double = Reader.maximumMagnitude) throws(ScenarioError) -> [Double] {
        guard case let .array(items) = node.value, items.count == count else {
            throw fail(node, path, "expected \(what)")
        }
        var values: [Double] = []
        for (index, item) in items.enumerated() {
            let value = try number(item, "\(path)[\(index)]")
            guard signed.contains(index) || value >= 0 else { throw fail(item, "\(path)[\(index)]", "must not be negative") }
            guard abs(value) <= limit else {
                throw fail(item, "\(path)[\(index)]", "must be at most \(CanonicalNumber.format(limit)) in magnitude")
            }
            values.append(value)
        }
        return values
    }

    func size(_ node: JSONNode, _ path: String) throws(ScenarioError) -> Size {
        let values = try numbers(node, path, count: 2, what: "a size [width, height]")
        return Size(values[0], values[1])
    }

    func rawEnum<T: RawRepresentable & CaseIterable>(_ node: JSONNode, _ path: String, _: T.Type, what: String) throws(ScenarioError) -> T where T.RawValue == String {
        let raw = try string(node, path)
        guard let value = T(rawValue: raw) else {
            throw fail(node, path, "unknown \(what) \"\(raw)\" (expected one of: \(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return value
    }

    func traits(_ node: JSONNode, _ path: String) throws(ScenarioError) -> TraitCollection {
        let fields: Set<String> = ["horizontalSizeClass", "verticalSizeClass", "userInterfaceIdiom", "displayScale",
                                   "layoutDirection", "userInterfaceStyle", "preferredContentSizeCategory"]
        var traits = TraitCollection()
        for (key, value) in try members(node, path, allowed: fields) {
            let at = path + "." + key
            switch key {
            case "horizontalSizeClass": traits.horizontalSizeClass = try rawEnum(value, at, SizeClass.self, what: "size class")
            case "verticalSizeClass": traits.verticalSizeClass = try rawEnum(value, at, SizeClass.self, what: "size class")
            case "userInterfaceIdiom": traits.userInterfaceIdiom = try rawEnum(value, at, UserInterfaceIdiom.self, what: "idiom")
            case "displayScale":
                let scale = try number(value, at)
                guard scale >= 0, scale <= TraitCollection.maximumDisplayScale else {
                    throw fail(value, at, "displayScale must be between 0 and \(Int(TraitCollection.maximumDisplayScale))")
                }
                traits.displayScale = scale
            case "layoutDirection": traits.layoutDirection = try rawEnum(value, at, LayoutDirection.self, what: "layout direction")
            case "userInterfaceStyle": traits.userInterfaceStyle = try rawEnum(value, at, UserInterfaceStyle.self, what: "interface style")
            default: traits.preferredContentSizeCategory = try rawEnum(value, at, ContentSizeCategory.self, what: "content size category")
            }
        }
        return traits
    }

    // MARK: Scenario

    /// The scenario of the document `node`. Taken, not borrowed: each member is taken out of
    /// the tree as it is read, and each controller's JSON as its spec is made, so that a caller
    /// that gives the tree up holds it and the specs at once only a leaf at a time (issue 27).
    mutating func scenario(_ node: consuming JSONNode) throws(ScenarioError) -> Scenario {
        var members = try members(node, "$", allowed: ["scenario", "profile", "window", "root", "controllers", "placement", "segues", "steps"],
                                  required: ["window", "root", "controllers"])
        node = JSONNode(.null)
        var scenario = Scenario(name: "", profile: .ios8, windowSize: .zero, windowTraits: TraitCollection(), root: "",
                                controllers: [], placement: [:], steps: [], source: file)
        // The steps last, whatever the file's order: a `performSegue` step needs the controllers
        // and segues it copies and performs.
        let order = members.indices.filter { members[$0].key != "steps" } + members.indices.filter { members[$0].key == "steps" }
        for index in order {
            let key = members[index].key
            var value = JSONNode(.null)
            swap(&value, &members[index].value)
            let at = "$." + key
            positions[at] = (value.line, value.column)
            switch key {
            case "scenario": scenario.name = try string(value, at)
            case "profile": scenario.profile = try rawEnum(value, at, AdaptationProfile.self, what: "profile")
            case "window":
                for (windowKey, windowValue) in try self.members(value, at, allowed: ["size", "traits"], required: ["size"]) {
                    if windowKey == "size" {
                        scenario.windowSize = try size(windowValue, at + ".size")
                    } else {
                        scenario.windowTraits = try traits(windowValue, at + ".traits")
                    }
                }
            case "root": scenario.root = try id(value, at)
            case "controllers": try controllers(taking: &value, at, into: &scenario)
            case "placement":
                for (controllerKey, nodeValue) in try self.members(value, at, allowed: nil) {
                    positions[at + "." + controllerKey] = (nodeValue.line, nodeValue.column)
                    let nodeName = try string(nodeValue, at + "." + controllerKey)
                    // Node names are used like ids (in event references `node#sequence`, file names).
                    _ = try Self.controllerID(nodeName) { message throws(ScenarioError) in
                        throw fail(nodeValue, at + "." + controllerKey, message.replacingOccurrences(of: "controller id", with: "node name"))
                    }
                    guard !nodeName.contains("/") else { throw fail(nodeValue, at + "." + controllerKey, "a node name may not contain /") }
                    scenario.placement[ControllerID(controllerKey)] = nodeName
                }
            case "segues": scenario.segues = try segues(value, at)
            default:
                guard case let .array(items) = value.value else { throw fail(value, at, "expected an array of steps") }
                segueCopies = SegueCopies(scenario, registry: registry)
                for (index, item) in items.enumerated() {
                    positions["\(at)[\(index)]"] = (item.line, item.column)
                    scenario.stepPositions.append(SourcePosition(line: item.line, column: item.column))
                    scenario.steps.append(try step(item, "\(at)[\(index)]"))
                }
                scenario.controllers += segueCopies.copies
                scenario.copiedFrom = segueCopies.copiedFrom
                scenario.placement.merge(segueCopies.copiedPlacement) { explicit, _ in explicit }
            }
        }
        if scenario.name.isEmpty { scenario.name = file }
        return scenario
    }

    /// Reads the `controllers` map into `scenario`, taking each controller's JSON out of `node`
    /// (left null) as it is read: a million leaves' JSON is not alive beside their specs.
    mutating func controllers(taking node: inout JSONNode, _ at: String, into scenario: inout Scenario) throws(ScenarioError) {
        var controllers = try members(node, at, allowed: nil)
        node = JSONNode(.null)
        scenario.controllers.reserveCapacity(controllers.count)
        for index in controllers.indices {
            let controllerKey = controllers[index].key
            var controllerValue = JSONNode(.null)
            swap(&controllerValue, &controllers[index].value)
            _ = try Self.controllerID(controllerKey) { message throws(ScenarioError) in throw fail(controllerValue, at + "." + controllerKey, message) }
            scenario.controllers.append(try controller(controllerValue, id: controllerKey, in: at))
            if (index + 1) % FreedMemory.interval == 0 { FreedMemory.release() }
        }
    }

    /// `allowed: nil` accepts any key (maps keyed by id).
    func members(_ node: JSONNode, _ path: String, allowed: Set<String>?) throws(ScenarioError) -> [(key: String, value: JSONNode)] {
        guard let allowed else {
            guard case let .object(members) = node.value else {
                throw fail(node, path, "expected an object, got \(node.value.typeName)")
            }
            return members
        }
        return try members(node, path, allowed: allowed)
    }

    /// The fields of a controller (made once: a scenario may have a million controllers).
    static let controllerFields: Set<String> = [
        "kind", "children", "selected", "modalPresentationStyle", "modalTransitionStyle", "preferredContentSize",
        "definesPresentationContext", "providesPresentationContextTransitionStyle", "traitOverrides",
        "presentationController", "adaptiveDelegate", "popoverSource", "overrides", "layout", "behavior",
    ]

    /// The controller `rawID` of the map at `parent` (`$.controllers`).
    mutating func controller(_ node: JSONNode, id rawID: String, in parent: String) throws(ScenarioError) -> ControllerSpec {
        guard !rawID.isEmpty else { throw fail(node, parent + "." + rawID, "a controller id must not be empty") }
        var spec = ControllerSpec(id: ControllerID(rawID))
        // A controller that is only a known kind (a flat scenario's million leaves) is read
        // without its path, which only a mistake would name: building it and the kind's took a
        // tenth of `trellis validate`'s time.
        if case let .object(members) = node.value, members.count == 1, members[0].key == "kind",
           case let .string(raw) = members[0].value.value, let kind = ContainerKind(rawValue: raw) {
            spec.kind = kind
            return spec
        }
        let path = parent + "." + rawID
        // The controller's own position is not recorded, nor a `view` kind's: no check after
        // decoding names them (the reader names a wrong kind itself), and a million controllers
        // made two million path strings. A container's kind is (a check of a storyboard's
        // fields under it names it).
        for (key, value) in try members(node, path, allowed: Self.controllerFields) {
            let at = path + "." + key
            if key != "kind" { positions[at] = (value.line, value.column) }
            switch key {
            case "kind":
                spec.kind = try rawEnum(value, at, ContainerKind.self, what: "controller kind")
                if spec.kind != .view { positions[at] = (value.line, value.column) }
            case "children":
                guard case let .array(items) = value.value else { throw fail(value, at, "expected an array of controller ids") }
                positions.setItems(items, of: at)
                spec.children.reserveCapacity(items.count)
                for (index, item) in items.enumerated() {
                    spec.children.append(try id(item) { "\(at)[\(index)]" })
                }
            case "selected": spec.selected = try integer(value, at)
            case "modalPresentationStyle": spec.modalPresentationStyle = try rawEnum(value, at, ModalPresentationStyle.self, what: "presentation style")
            case "modalTransitionStyle": spec.modalTransitionStyle = try rawEnum(value, at, ModalTransitionStyle.self, what: "transition style")
            case "preferredContentSize": spec.preferredContentSize = try size(value, at)
            case "definesPresentationContext": spec.definesPresentationContext = try bool(value, at)
            case "providesPresentationContextTransitionStyle": spec.providesPresentationContextTransitionStyle = try bool(value, at)
            case "traitOverrides":
                for (child, traitsNode) in try members(value, at, allowed: nil) {
                    positions[at + "." + child] = (traitsNode.line, traitsNode.column)
                    spec.traitOverrides[ControllerID(child)] = try traits(traitsNode, at + "." + child)
                }
            case "presentationController": spec.presentationController = try presentationController(value, at)
            case "adaptiveDelegate": spec.adaptiveDelegate = try adaptiveDelegate(value, at)
            case "behavior": spec.behavior = try behaviorName(value, at)
            case "layout": spec.layout = try childLayout(value, at)
            case "popoverSource": spec.popoverSource = try popoverSource(value, at)
            default: spec.overrides = try overrides(value, at, presentationController: false)
            }
        }
        return spec
    }

    /// `{ "view": id, "rect": [x, y, w, h], "corner": "topRight" }`: a controller's
    /// `popoverSource`, a segue's `anchor`.
    mutating func popoverSource(_ node: JSONNode, _ at: String) throws(ScenarioError) -> PopoverSourceSpec {
        let source = try members(node, at, allowed: ["view", "rect", "corner"], required: ["view"])
        var popover = PopoverSourceSpec(view: "", rect: Rect(x: 0, y: 0, width: 0, height: 0))
        for (sourceKey, sourceValue) in source {
            switch sourceKey {
            case "view":
                positions[at + ".view"] = (sourceValue.line, sourceValue.column)
                popover.view = try id(sourceValue, at + ".view")
            case "corner":
                popover.corner = try rawEnum(sourceValue, at + ".corner", PopoverSourceCorner.self, what: "corner")
            default:
                let rect = try numbers(sourceValue, at + ".rect", count: 4, what: "a rect [x, y, width, height]", signed: [0, 1])
                popover.rect = Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3])
            }
        }
        return popover
    }

    mutating func overrides(_ node: JSONNode, _ path: String, presentationController: Bool) throws(ScenarioError) -> OverrideSpec {
        var spec = OverrideSpec()
        var allowed: Set<String> = ["viewWillTransition", "willTransition", "sizeForChild", "grant"]
        if presentationController { allowed.insert("containerViewWillLayoutSubviews") }
        for (key, value) in try members(node, path, allowed: allowed) {
            let at = path + "." + key
            positions[at] = (value.line, value.column)
            switch key {
            case "viewWillTransition": spec.viewWillTransition = try forwarding(value, at, sizes: true)
            case "willTransition": spec.willTransition = try forwarding(value, at, sizes: false)
            case "sizeForChild": spec.sizeForChild = try sizeRule(value, at)
            case "containerViewWillLayoutSubviews":
                // R63: the one override a scenario can state; the re-applying one is what a frame rule implies.
                guard case .string("super") = value.value else {
                    throw fail(value, at, "expected \"super\" (a \"frame\" rule already places the presented view again on layout)")
                }
                spec.containerLayoutCallsSuper = true
            default: spec.grant = try grant(value, at)
            }
        }
        return spec
    }

    mutating func forwarding(_ node: JSONNode, _ path: String, sizes: Bool) throws(ScenarioError) -> ForwardingOverride {
        if case let .string(text) = node.value {
            switch text {
            case "super": return .callSuper
            case "noSuper": return .noSuper
            default: throw fail(node, path, "unknown override \"\(text)\" (expected \"super\", \"noSuper\" or {\"forwardTo\": [...]})")
            }
        }
        let members = try members(node, path, allowed: ["forwardTo"], required: ["forwardTo"])
        let list = members[0].value
        let at = path + ".forwardTo"
        guard case let .array(items) = list.value else { throw fail(list, at, "expected an array of child ids") }
        var targets: [ForwardTarget] = []
        for (index, item) in items.enumerated() {
            let itemPath = "\(at)[\(index)]"
            positions[itemPath] = (item.line, item.column)
            if case .string = item.value {
                targets.append(ForwardTarget(child: try id(item, itemPath)))
                continue
            }
            guard sizes else { throw fail(item, itemPath, "expected a child id") }
            var target = ForwardTarget(child: "")
            for (key, value) in try self.members(item, itemPath, allowed: ["child", "size"], required: ["child"]) {
                if key == "child" { target.child = try id(value, itemPath + ".child") } else { target.size = try size(value, itemPath + ".size") }
            }
            targets.append(target)
        }
        return .forwardTo(targets)
    }

    func sizeRule(_ node: JSONNode, _ path: String) throws(ScenarioError) -> SizeRule {
        var members = try members(node, path, allowed: ["fraction", "fixed", "perChild", "round"])
        // SPEC §5: `round` goes with a `fraction` rule only, as UIKit code rounds its own division.
        var rounding: FractionRounding?
        if let index = members.firstIndex(where: { $0.key == "round" }) {
            let roundNode = members.remove(at: index).value
            rounding = try rawEnum(roundNode, path + ".round", FractionRounding.self, what: "rounding")
            guard members.count != 1 || members[0].key == "fraction" else {
                throw fail(roundNode, path + ".round", "\"round\" applies to a \"fraction\" rule only; a \"\(members[0].key)\" rule gives its sizes as written")
            }
        }
        guard members.count == 1 else { throw fail(node, path, "expected exactly one of \"fraction\", \"fixed\", \"perChild\"") }
        let (key, value) = members[0]
        let at = path + "." + key
        switch key {
        case "fraction":
            let fractions = try numbers(value, at, count: 2, what: "[widthFraction, heightFraction]", limit: 100)
            return .fraction(width: fractions[0], height: fractions[1], round: rounding)
        case "fixed": return .fixed(try size(value, at))
        default:
            var sizes: [ControllerID: Size] = [:]
            for (child, sizeNode) in try self.members(value, at, allowed: nil) {
                sizes[ControllerID(child)] = try size(sizeNode, at + "." + child)
            }
            return .perChild(sizes)
        }
    }

    func grant(_ node: JSONNode, _ path: String) throws(ScenarioError) -> GrantPolicy {
        if case let .string(text) = node.value {
            switch text {
            case "all": return .all
            case "none": return GrantPolicy.none
            default: throw fail(node, path, "unknown grant \"\(text)\" (expected \"all\", \"none\", {\"clamp\": [w, h]} or {\"fraction\": f})")
            }
        }
        let members = try members(node, path, allowed: ["clamp", "fraction"])
        guard members.count == 1 else { throw fail(node, path, "expected exactly one of \"clamp\", \"fraction\"") }
        let (key, value) = members[0]
        if key == "clamp" { return .clamp(try size(value, path + ".clamp")) }
        let fraction = try number(value, path + ".fraction")
        guard (0...1).contains(fraction) else { throw fail(value, path + ".fraction", "a grant fraction must be between 0 and 1") }
        return .fraction(fraction)
    }

    mutating func presentationController(_ node: JSONNode, _ path: String) throws(ScenarioError) -> CustomPresentationSpec {
        var spec = CustomPresentationSpec()
        let fields: Set<String> = ["sizeForChild", "frame", "shouldPresentInFullscreen", "shouldRemovePresentersView", "overrideTraits", "overrides", "grant",
                                   "behavior"]
        for (key, value) in try members(node, path, allowed: fields) {
            let at = path + "." + key
            positions[at] = (value.line, value.column)
            switch key {
            case "behavior": spec.behavior = try behaviorName(value, at)
            case "sizeForChild": spec.overrides.sizeForChild = try sizeRule(value, at)
            case "frame": spec.frame = try frameRule(value, at)
            case "shouldPresentInFullscreen": spec.shouldPresentInFullscreen = try bool(value, at)
            case "shouldRemovePresentersView": spec.shouldRemovePresentersView = try bool(value, at)
            case "overrideTraits": spec.overrideTraits = try traits(value, at)
            case "grant": spec.overrides.grant = try grant(value, at)
            default:
                let nested = try overrides(value, at, presentationController: true)
                for (name, forwarding) in [("viewWillTransition", nested.viewWillTransition), ("willTransition", nested.willTransition)] {
                    if case .forwardTo = forwarding {
                        throw fail(value, at + "." + name, "a presentation controller forwards only to its presented controller: use \"super\" or \"noSuper\"")
                    }
                }
                spec.overrides.viewWillTransition = nested.viewWillTransition
                spec.overrides.willTransition = nested.willTransition
                if let rule = nested.sizeForChild { spec.overrides.sizeForChild = rule }
                if let grant = nested.grant { spec.overrides.grant = grant }
                spec.overrides.containerLayoutCallsSuper = nested.containerLayoutCallsSuper
            }
        }
        return spec
    }

    /// R61: `"overlay"`, `"row"`, `"column"` or `{ "origins": { id: [x, y] } }`.
    mutating func childLayout(_ node: JSONNode, _ path: String) throws(ScenarioError) -> ChildLayout {
        if case let .string(text) = node.value {
            switch text {
            case "overlay": return .overlay
            case "row": return .row
            case "column": return .column
            default: throw fail(node, path, "unknown layout \"\(text)\": expected \"overlay\", \"row\", \"column\" or {\"origins\": {…}}")
            }
        }
        let members = try members(node, path, allowed: ["origins"], required: ["origins"])
        var origins: [ControllerID: Point] = [:]
        for (child, pointNode) in try self.members(members[0].1, path + ".origins", allowed: nil) {
            let at = path + ".origins." + child
            positions[at] = (pointNode.line, pointNode.column)
            let point = try numbers(pointNode, at, count: 2, what: "a point [x, y]", signed: [0, 1])
            origins[ControllerID(child)] = Point(x: point[0], y: point[1])
        }
        return .origins(origins)
    }

    /// R62: `{ "align": "left|right|center|top|bottom" }` or `{ "fixed": [x, y, w, h] }`.
    mutating func frameRule(_ node: JSONNode, _ path: String) throws(ScenarioError) -> FrameRule {
        let members = try members(node, path, allowed: ["align", "fixed"])
        guard members.count == 1 else { throw fail(node, path, "a frame rule has exactly one of \"align\" or \"fixed\"") }
        let (key, value) = members[0]
        if key == "align" {
            return .align(try rawEnum(value, path + ".align", FrameAlignment.self, what: "frame alignment"))
        }
        let rect = try numbers(value, path + ".fixed", count: 4, what: "a rect [x, y, width, height]", signed: [0, 1])
        return .fixed(Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]))
    }

    mutating func adaptiveDelegate(_ node: JSONNode, _ path: String) throws(ScenarioError) -> AdaptiveDelegateSpec {
        var spec = AdaptiveDelegateSpec()
        for (key, value) in try members(node, path, allowed: ["style", "wrapIn", "behavior"]) {
            positions[path + "." + key] = (value.line, value.column)
            if key == "behavior" {
                spec.behavior = try behaviorName(value, path + ".behavior")
            } else if key == "style" {
                spec.style = try string(value, path + ".style")
            } else {
                let kind = try rawEnum(value, path + ".wrapIn", ContainerKind.self, what: "wrapper kind")
                guard kind == .navigation else { throw fail(value, path + ".wrapIn", "only \"navigation\" can wrap a presented controller") }
                spec.wrapIn = kind
            }
        }
        return spec
    }

    /// `"behavior": "Name"` (SPEC §4.1): a non-empty name; whether a runner registers it is the
    /// validator's check.
    func behaviorName(_ node: JSONNode, _ path: String) throws(ScenarioError) -> String {
        let name = try string(node, path)
        guard !name.isEmpty else { throw fail(node, path, "a behaviour name must not be empty") }
        return name
    }
}
