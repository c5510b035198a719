/// The containment a storyboard declares must be a tree (SPEC §11 "Bad input"): no controller
/// the child of two containers, no relationship or embed cycle. Refused at the segue that
/// breaks it, with its storyboard place.
struct StoryboardStructure {
    let library: StoryboardLibrary
    let controllers: [MappedController]

    func check() throws(StoryboardError) {
        // Each child's container, and the segue that made it the child.
        var parent: [StoryboardLibrary.Place: (place: StoryboardLibrary.Place, segue: StoryboardElement)] = [:]
        for controller in controllers {
            for child in controller.children {
                if let first = parent[child.place] {
                    throw StoryboardError(child.segue, file: library.files[controller.place.file].path,
                                          "\(name(child.place)) is already the child of \(name(first.place)): a controller has one container")
                }
                parent[child.place] = (controller.place, child.segue)
            }
        }
        // With one parent each, following parents up from a controller ends at a top-level one
        // or goes round a cycle; each controller is walked through once.
        var settled: Set<StoryboardLibrary.Place> = []
        for controller in controllers where !settled.contains(controller.place) {
            var path: [StoryboardLibrary.Place] = []
            var onPath: Set<StoryboardLibrary.Place> = []
            var place = controller.place
            while !settled.contains(place) {
                if onPath.contains(place) {
                    let cycle = path.drop { $0 != place }.map(name)
                    let segue = parent[path[path.count - 1]]?.segue ?? library.controller(place)
                    throw StoryboardError(segue, file: library.files[(parent[path[path.count - 1]]?.place ?? place).file].path,
                                          "relationship cycle: \((cycle.reversed() + [name(path[path.count - 1])]).joined(separator: " → "))")
                }
                path.append(place)
                onPath.insert(place)
                guard let up = parent[place] else { break }
                place = up.place
            }
            settled.formUnion(path)
        }
    }

    func name(_ place: StoryboardLibrary.Place) -> String {
        library.names[place] ?? "?"
    }
}
