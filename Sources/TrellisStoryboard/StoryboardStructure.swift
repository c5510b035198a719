/// The containment a storyboard declares must be a tree (SPEC §11 "Bad input"): no controller
/// the child of two containers, no relationship or embed cycle. Refused at the segue that
/// breaks it, with its storyboard place.
///
/// A storyboard reference is no controller of its own: UIKit instantiates the controller it
/// names afresh on each use (`UIStoryboard.instantiateInitialViewController`,
/// `instantiateViewController(withIdentifier:)`). So a reference's controller held by a
/// container while it is held elsewhere already is no second container of one controller: that
/// use holds its own copy of the controller and of what it holds (relationships, embeds),
/// named as one more controller of its kind (`ControllerNaming`), its segues its original's
/// (docs/decisions.md, *Storyboard references*). The file's own holder (a segue that names the
/// controller itself) keeps the original; without one, the first use in file and XML order.
struct StoryboardStructure {
    let library: StoryboardLibrary
    /// The file's controllers, one per place, in file order.
    let controllers: [MappedController]
    var notices: StoryboardNotices

    /// SPEC §10 (bounded memory on any input): at most this many controllers copied for
    /// storyboard references. A reference used twice at each level of a chain of storyboards
    /// doubles the controllers per level, so a few small files could otherwise ask for millions.
    static let maximumCopies = 10_000

    /// The holder of a place's original: a container and the index of the child there.
    private struct Holder {
        var container: StoryboardLibrary.Place
        var index: Int
        var segue: StoryboardElement
    }

    /// The controllers checked, each child's id set: the file's, then the copies in the order
    /// they are made (each subtree parent first).
    mutating func resolved() throws(StoryboardError) -> [MappedController] {
        let holders = try holders()
        try checkCycles(holders)
        var naming = library.naming
        var result = controllers
        var copies: [MappedController] = []
        let originals = Dictionary(controllers.enumerated().map { ($0.element.place, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (number, controller) in controllers.enumerated() {
            for (index, child) in controller.children.enumerated() {
                let holder = holders[child.place]
                guard holder?.container != controller.place || holder?.index != index, let reference = child.reference else { continue }
                let first = copies.count
                result[number].children[index].id = try copy(child, reference: reference, in: controller, originals: originals, naming: &naming, copies: &copies)
                let made = copies[first...].map { "\(library.names[$0.place] ?? "?") as \($0.id)" }
                notices.add("\(controller.id) holds its own instance of the storyboard reference \(reference["id"] ?? "?") (\(library.files[controller.place.file].path):\(reference.line)), as UIKit instantiates a referenced controller on each use: copied \(made.joined(separator: ", "))", kind: "uses of storyboard references copied")
            }
        }
        return result + copies
    }

    /// Who holds each place's original. Two containers naming the same controller, not through a
    /// reference, are refused at the second.
    private func holders() throws(StoryboardError) -> [StoryboardLibrary.Place: Holder] {
        var holders: [StoryboardLibrary.Place: Holder] = [:]
        for controller in controllers {
            for (index, child) in controller.children.enumerated() where child.reference == nil {
                if let first = holders[child.place] {
                    throw StoryboardError(child.segue, file: library.files[controller.place.file].path,
                                          "\(name(child.place)) is already the child of \(name(first.container)): a controller has one container")
                }
                holders[child.place] = Holder(container: controller.place, index: index, segue: child.segue)
            }
        }
        for controller in controllers {
            for (index, child) in controller.children.enumerated() where child.reference != nil && holders[child.place] == nil {
                holders[child.place] = Holder(container: controller.place, index: index, segue: child.segue)
            }
        }
        return holders
    }

    /// With one holder each, following holders up from a controller ends at a top-level one or
    /// goes round a cycle; each controller is walked through once. (A cycle through a further
    /// use of a reference is found as its copy is made.)
    private func checkCycles(_ parent: [StoryboardLibrary.Place: Holder]) throws(StoryboardError) {
        var settled: Set<StoryboardLibrary.Place> = []
        for controller in controllers where !settled.contains(controller.place) {
            var path: [StoryboardLibrary.Place] = []
            var onPath: Set<StoryboardLibrary.Place> = []
            var place = controller.place
            while !settled.contains(place) {
                if onPath.contains(place) {
                    let members = Array(path.drop { $0 != place })
                    // A cycle through storyboard references spans files: each controller is named with its own.
                    let spansFiles = Set(members.map(\.file)).count > 1
                    let named = { (place: StoryboardLibrary.Place) in
                        spansFiles ? "\(self.name(place)) (\(self.library.files[place.file].path))" : self.name(place)
                    }
                    let segue = parent[path[path.count - 1]]?.segue ?? library.controller(place)
                    throw StoryboardError(segue, file: library.files[(parent[path[path.count - 1]]?.container ?? place).file].path,
                                          "\(segue["kind"] == "embed" ? "embed" : "relationship") cycle"
                                            + (spansFiles ? " through storyboard references" : "")
                                            + ": \((members.reversed() + [path[path.count - 1]]).map(named).joined(separator: " → "))")
                }
                path.append(place)
                onPath.insert(place)
                guard let up = parent[place] else { break }
                place = up.container
            }
            settled.formUnion(path)
        }
    }

    /// Copies `child`'s controller and its subtree, parent first, into `copies`; the copy's id.
    private func copy(_ child: MappedController.Child, reference: StoryboardElement, in container: MappedController,
                      originals: [StoryboardLibrary.Place: Int], naming: inout ControllerNaming,
                      copies: inout [MappedController]) throws(StoryboardError) -> String {
        // Each frame: a copy's index in `copies` and its next child to copy.
        var stack: [(copy: Int, next: Int)] = []
        var path: [StoryboardLibrary.Place] = [container.place]
        var onPath: Set<StoryboardLibrary.Place> = [container.place]
        func make(_ place: StoryboardLibrary.Place, at segue: StoryboardElement, file: Int) throws(StoryboardError) -> String {
            guard copies.count < Self.maximumCopies else {
                throw StoryboardError(child.segue, file: library.files[container.place.file].path,
                                      "the storyboard reference \(reference["id"] ?? "?") held by \(container.id) would copy more than \(Self.maximumCopies) controllers in all (each further use of a reference holds its own copy of the controller and what it holds): refused")
            }
            if onPath.contains(place) {
                let cycle = path.drop { $0 != place }.map(name) + [name(place)]
                throw StoryboardError(segue, file: library.files[file].path,
                                      "relationship cycle through the storyboard reference \(reference["id"] ?? "?") (\(library.files[container.place.file].path):\(reference.line)): \(cycle.joined(separator: " → "))")
            }
            guard let original = originals[place] else { return library.names[place] ?? "" }
            var made = controllers[original]
            made.id = naming.name(library.controller(place))
            copies.append(made)
            stack.append((copies.count - 1, 0))
            path.append(place)
            onPath.insert(place)
            return made.id
        }
        let id = try make(child.place, at: child.segue, file: container.place.file)
        while let top = stack.last {
            let children = copies[top.copy].children
            guard top.next < children.count else {
                stack.removeLast()
                onPath.remove(path.removeLast())
                continue
            }
            stack[stack.count - 1].next += 1
            let grandchild = children[top.next]
            copies[top.copy].children[top.next].id = try make(grandchild.place, at: grandchild.segue, file: copies[top.copy].place.file)
        }
        return id
    }

    func name(_ place: StoryboardLibrary.Place) -> String {
        library.names[place] ?? "?"
    }
}
