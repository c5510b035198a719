import TrellisModel

extension DocumentAssembly {
    /// The window (SPEC §11): `--window`'s size, or the device's (`--device`, else the file's
    /// `<device>`) screen in the orientation asked for, else the file's, else portrait.
    func window() throws(StoryboardError) -> ScenarioJSON? {
        let id: String
        var place = main.document
        switch options.window {
        case .suppliedByScenario: return nil
        case let .size(size): return .object([.init("size", .array([.number(size.width), .number(size.height)]))])
        case let .device(named): id = named
        case .fromFile:
            guard let device = main.device else {
                // Files saved before Xcode 8 have no <device> (8 of the 20 real-world files
                // checked); an iPad-only one says so in its targetRuntime.
                let iPad = main.document["targetRuntime"] == "iOS.CocoaTouch.iPad" ? " (its targetRuntime is iOS.CocoaTouch.iPad: an iPad, such as --device ipad9_7)" : ""
                let give: String
                switch options.windowAdvice {
                case .importOptions: give = "give --device ID or --window WxH\(iPad)"
                case .scenarioField: give = "add \"window\" to the scenario (\"window\": {\"size\": [W, H]})"
                }
                throw StoryboardError(main.document, file: main.path, "the storyboard names no <device> (Xcode writes one since Xcode 8): \(give)")
            }
            id = device.id
            place = device.element
        }
        guard let metrics = DeviceMetrics.named(id) else {
            let give: String
            switch options.windowAdvice {
            case .importOptions: give = "give --window WxH, or --device with a known id"
            case .scenarioField: give = "add \"window\" to the scenario (\"window\": {\"size\": [W, H]})"
            }
            let element = options.window == .fromFile ? place.name : ""
            throw StoryboardError(file: main.path, line: element.isEmpty ? 0 : place.line, column: element.isEmpty ? 0 : place.column,
                                  element: element, message: "unknown device id \"\(id)\": \(give) (known ids: \(DeviceMetrics.table.map(\.id).joined(separator: ", ")))")
        }
        let orientation = options.orientation ?? main.device?.orientation.flatMap(DeviceOrientation.init(rawValue:)) ?? .portrait
        let size = metrics.size(orientation)
        let traits = metrics.traits(orientation)
        return .object([
            .init("size", .array([.number(size.width), .number(size.height)])),
            .init("traits", .object([
                .init("horizontalSizeClass", .string(traits.horizontalSizeClass.rawValue)),
                .init("verticalSizeClass", .string(traits.verticalSizeClass.rawValue)),
                .init("userInterfaceIdiom", .string(traits.userInterfaceIdiom.rawValue)),
                .init("displayScale", .number(traits.displayScale)),
            ])),
        ])
    }

    /// The root (SPEC §11): the initial view controller, or `--root ID`, which must be one of the
    /// candidates (a container's child cannot be a scenario's root); without either, a refusal
    /// listing the candidates.
    func root() throws(StoryboardError) -> String? {
        switch options.root {
        case .suppliedByScenario: return nil
        case let .named(id):
            let candidates = candidates()
            guard !candidates.contains(id) else { return id }
            let listed = "(candidates: \(candidates.joined(separator: ", ")))"
            guard let container = controllers.first(where: { $0.children.contains { $0.id == id } }) else {
                throw StoryboardError(file: main.path, line: 0, column: 0, element: "", message: "--root \(id) is no controller of the storyboard \(listed)")
            }
            throw StoryboardError(file: main.path, line: 0, column: 0, element: "",
                                  message: "--root \(id) is the child of \(container.id): the root is a controller no container holds \(listed)")
        case .initial:
            guard let initial = main.document["initialViewController"], !initial.isEmpty else {
                throw StoryboardError(main.document, file: main.path,
                                      "no initialViewController (instantiated from code?): give --root ID, one of: \(candidates().joined(separator: ", "))")
            }
            switch try library.target(initial, in: 0, from: main.document) {
            case let .controller(place, _)?: return library.names[place]
            case .exit?:
                throw StoryboardError(main.document, file: main.path, "initialViewController \"\(initial)\" is a scene's exit, not a controller")
            case nil:
                throw StoryboardError(main.document, file: main.path, "initialViewController \"\(initial)\" is no controller (a dangling id)")
            }
        }
    }

    /// Controllers no container holds, in file order.
    func candidates() -> [String] {
        let held = Set(controllers.flatMap { $0.children.map(\.id) })
        return controllers.filter { !held.contains($0.id) }.map(\.id)
    }
}
