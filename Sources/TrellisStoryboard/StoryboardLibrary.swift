/// The storyboard files one import reads: the main file and every storyboard a
/// `viewControllerPlaceholder` references (SPEC §11: "the named storyboard from the same
/// folder"), each read once however often it is referenced — so references that go round in a
/// circle end — and every controller named once, in file order then XML order.
struct StoryboardLibrary {
    /// A controller of a file: its file's index and its scene's.
    struct Place: Hashable {
        var file: Int
        var scene: Int
    }

    /// What an Interface Builder id (a segue's `destination`) stands for.
    enum Target {
        /// With the first storyboard reference followed to it, if any: each containment use of
        /// a reference holds its own instance (docs/decisions.md, *Storyboard references*).
        case controller(Place, reference: StoryboardElement?)
        /// An `<exit>` placeholder: an unwind segue's target is found at run time.
        case exit
    }

    /// More files than this and the import is refused (no app has this many storyboards).
    static let maximumFiles = 256

    private(set) var files: [StoryboardFile]
    /// Scenario ids of every controller that is not a storyboard reference.
    private(set) var names: [Place: String] = [:]
    /// The naming that gave `names`, for the copies a reference's further uses make.
    private(set) var naming = ControllerNaming()
    private var fileIndex: [String: Int]

    init(main: StoryboardFile) throws(StoryboardError) {
        files = [main]
        fileIndex = [main.path: 0]
        var index = 0
        while index < files.count {
            for scene in files[index].scenes where scene.controller.name == "viewControllerPlaceholder" {
                _ = try file(referencedBy: scene.controller, in: index)
            }
            index += 1
        }
        for (fileNumber, file) in files.enumerated() {
            for (sceneNumber, scene) in file.scenes.enumerated() where scene.controller.name != "viewControllerPlaceholder" {
                names[Place(file: fileNumber, scene: sceneNumber)] = naming.name(scene.controller)
            }
        }
    }

    /// The index of the file a placeholder references, read now if it was not yet.
    private mutating func file(referencedBy placeholder: StoryboardElement, in index: Int) throws(StoryboardError) -> Int {
        guard let name = placeholder["storyboardName"], !name.isEmpty else { return index }
        guard !name.contains("/"), name != "..", name != "." else {
            throw StoryboardError(placeholder, file: files[index].path, "storyboardName \"\(name)\" is not a storyboard's name")
        }
        let path = Self.folder(of: files[index].path) + name + ".storyboard"
        if let known = fileIndex[path] { return known }
        guard files.count < Self.maximumFiles else {
            throw StoryboardError(placeholder, file: files[index].path, "more than \(Self.maximumFiles) storyboards referenced")
        }
        let file = try StoryboardFile.load(path: path, referencedFrom: (placeholder, files[index].path))
        fileIndex[path] = files.count
        files.append(file)
        return files.count - 1
    }

    /// `path`'s folder with its trailing `/`, or nothing for a bare name.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }

    func controller(_ place: Place) -> StoryboardElement {
        files[place.file].scenes[place.scene].controller
    }

    func scene(_ place: Place) -> StoryboardFile.Scene {
        files[place.file].scenes[place.scene]
    }

    /// What Interface Builder id `id` of file `file` stands for, storyboard references followed;
    /// nil when nothing in the file has that id (a dangling reference: the caller refuses it).
    func target(_ id: String, in file: Int, from element: StoryboardElement) throws(StoryboardError) -> Target? {
        var file = file
        var id = id
        var element = element
        var reference: StoryboardElement?
        // Each step follows one reference; more steps than files means they go round.
        for _ in 0...(files.count + 1) {
            if let scene = files[file].sceneIndex[id] {
                let controller = files[file].scenes[scene].controller
                guard controller.name == "viewControllerPlaceholder" else {
                    return .controller(Place(file: file, scene: scene), reference: reference)
                }
                reference = reference ?? controller
                (file, id) = try referenced(by: controller, in: file)
                element = controller
                continue
            }
            guard let found = files[file].elements[id] else { return nil }
            if found.name == "exit" { return .exit }
            if StoryboardFile.isControllerElement(found.name) {
                // Refused at its own place: what it lacks is there, not at the reference.
                throw StoryboardError(found, file: files[file].path,
                                      "\"\(id)\" has no sceneMemberID=\"viewController\" (Xcode writes it on every scene's controller), so it is not read as a controller; <\(element.name)> at \(element.line):\(element.column) names it")
            }
            throw StoryboardError(element, file: files[file].path, "\"\(id)\" is a <\(found.name)>, not a controller")
        }
        throw StoryboardError(element, file: files[file].path, "storyboard references go round in a circle")
    }

    /// The file and id a placeholder stands for: its `referencedIdentifier`'s controller, else its
    /// storyboard's initial view controller.
    private func referenced(by placeholder: StoryboardElement, in file: Int) throws(StoryboardError) -> (Int, String) {
        let target: Int
        if let name = placeholder["storyboardName"], !name.isEmpty {
            guard let known = fileIndex[Self.folder(of: files[file].path) + name + ".storyboard"] else {
                throw StoryboardError(placeholder, file: files[file].path, "the referenced storyboard \(name) was not read")
            }
            target = known
        } else {
            target = file
        }
        let referenced = files[target]
        if let identifier = placeholder["referencedIdentifier"], !identifier.isEmpty {
            guard let scene = referenced.scenes.first(where: { $0.controller["storyboardIdentifier"] == identifier }),
                  let id = scene.controller["id"] else {
                throw StoryboardError(placeholder, file: files[file].path,
                                      "\(referenced.path) has no controller with storyboardIdentifier \"\(identifier)\"")
            }
            return (target, id)
        }
        guard let initial = referenced.document["initialViewController"], !initial.isEmpty else {
            throw StoryboardError(placeholder, file: files[file].path,
                                  "\(referenced.path) has no initial view controller and the reference names no referencedIdentifier")
        }
        return (target, initial)
    }

    /// The controller a segue's `destination` names, references followed; nil for an exit.
    func destination(of segue: StoryboardElement, place: StoryboardLibrary.Place) throws(StoryboardError) -> StoryboardLibrary.Place? {
        try reached(by: segue, place: place)?.place
    }

    /// The controller a segue's `destination` names and the storyboard reference (in the
    /// segue's file) it is reached through, if any; nil for an exit.
    func reached(by segue: StoryboardElement, place: StoryboardLibrary.Place) throws(StoryboardError) -> (place: Place, reference: StoryboardElement?)? {
        let file = files[place.file].path
        guard let id = segue["destination"], !id.isEmpty else {
            throw StoryboardError(segue, file: file, "a segue without a destination")
        }
        switch try target(id, in: place.file, from: segue) {
        case let .controller(target, reference)?: return (target, reference)
        case .exit?: return nil
        case nil: throw StoryboardError(segue, file: file, "destination \"\(id)\" is no element of \(file) (a dangling id)")
        }
    }

}
