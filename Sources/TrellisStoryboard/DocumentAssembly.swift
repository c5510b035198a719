import TrellisModel

/// Puts the scenario document together (SPEC §11): name, window, root, controllers, segues and
/// no steps, with the notices for what the document stands in for.
struct DocumentAssembly {
    let library: StoryboardLibrary
    let controllers: [MappedController]
    let options: StoryboardImportOptions
    var notices: StoryboardNotices

    var main: StoryboardFile { library.files[0] }

    mutating func document(segues: [MappedSegue]) throws(StoryboardError) -> ScenarioJSON {
        var members: [ScenarioJSON.Member] = [.init("scenario", .string(Self.baseName(main.path)))]
        if let window = try window() { members.append(.init("window", window)) }
        if let root = try root() { members.append(.init("root", .string(root))) }
        members.append(.init("controllers", .object(controllerMembers())))
        members.append(.init("segues", .object(segues.map { .init($0.id, $0.json) })))
        members.append(.init("steps", .array([])))
        return .object(members)
    }

    /// The file's name without its folder and `.storyboard`.
    static func baseName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".storyboard") ? String(name.dropLast(".storyboard".count)) : name
    }

    mutating func controllerMembers() -> [ScenarioJSON.Member] {
        var unregistered: [String] = []
        let members = controllers.map { controller -> ScenarioJSON.Member in
            var fields: [ScenarioJSON.Member] = [.init("kind", .string(controller.kind.rawValue))]
            let children = controller.children.map(\.id)
            if !children.isEmpty { fields.append(.init("children", .array(children.map(ScenarioJSON.string)))) }
            if controller.kind == .tab, !children.isEmpty { fields.append(.init("selected", .number(0))) }
            fields += controller.fields.map { ScenarioJSON.Member($0.key, $0.value) }
            var behavior: String?
            if let customClass = controller.customClass {
                if options.behaviors.contains(customClass) { behavior = customClass } else { unregistered.append(customClass) }
            }
            if !controller.embedded.isEmpty {
                fields += embedFields(controller, behavior: behavior)
            }
            if let behavior { fields.append(.init("behavior", .string(behavior))) }
            return ScenarioJSON.Member(controller.id, .object(fields))
        }
        let classes = Set(unregistered).sorted()
        if !classes.isEmpty {
            notices.add("custom classes without a registered behaviour get the default one: \(classes.joined(separator: ", "))")
        }
        return members
    }

    /// A container view's child placed at the container view's frame and sized to it
    /// (`layout.origins`, `sizeForChild.perChild`: R61), as on the preview device. A controller
    /// with a Swift behaviour sizes its children itself: only the origins are written.
    mutating func embedFields(_ controller: MappedController, behavior: String?) -> [ScenarioJSON.Member] {
        let origins = controller.embedded.map { entry in
            ScenarioJSON.Member(entry.id, .array([.number(entry.frame.origin.x), .number(entry.frame.origin.y)]))
        }
        let sizes = controller.embedded.map { entry in
            ScenarioJSON.Member(entry.id, .array([.number(entry.frame.size.width), .number(entry.frame.size.height)]))
        }
        let device = library.files[controller.place.file].device.map { "\($0.id) \($0.orientation ?? "portrait")" } ?? "its preview device"
        notices.add("container views of \(controller.id) are placed and sized as on \(device) in Interface Builder; Auto Layout may place them differently", kind: "controllers whose container views are placed as in Interface Builder")
        var fields: [ScenarioJSON.Member] = [.init("layout", .object([.init("origins", .object(origins))]))]
        if behavior == nil {
            fields.append(.init("overrides", .object([.init("sizeForChild", .object([.init("perChild", .object(sizes))]))])))
        }
        return fields
    }
}
