import TrellisModel

/// The scenario kinds a storyboard's controllers map to (SPEC §11's table).
enum MappedKind: String {
    case view, navigation, tab, split
}

/// One storyboard controller as a scenario controller (SPEC §11's table): its kind, its
/// children by relationship name (never XML order, except a tab bar's, whose order *is* the
/// XML's) and embed segues, and the attributes the scenario format has. A copy that a storyboard
/// reference's further use makes has its original's place (docs/decisions.md, *Storyboard
/// references*).
struct MappedController {
    /// One child: a relationship's or a container view's (embed).
    struct Child {
        var place: StoryboardLibrary.Place
        /// The relationship or embed segue that made it the child, for errors.
        var segue: StoryboardElement
        /// The storyboard reference the segue reaches the child through, if any.
        var reference: StoryboardElement?
        /// The child's scenario id: the place's, or a copy's.
        var id: String
        /// A container view's frame in the scene's root view (preview device); nil for a
        /// relationship's child.
        var embedFrame: Rect?
    }

    var id: String
    var place: StoryboardLibrary.Place
    var kind: MappedKind
    var children: [Child] = []
    /// Fields in the order they are written.
    var fields: [(key: String, value: ScenarioJSON)] = []
    var customClass: String?

    /// The children in container views, with their frames.
    var embedded: [(id: String, frame: Rect)] {
        children.compactMap { child in child.embedFrame.map { (child.id, $0) } }
    }
}

/// Maps every controller of a library.
struct ControllerMapping {
    let library: StoryboardLibrary
    var notices: StoryboardNotices

    /// The scenario kind of a controller element.
    static func kind(of element: String) -> MappedKind {
        switch element {
        case "navigationController": return .navigation
        case "tabBarController": return .tab
        case "splitViewController": return .split
        default: return .view
        }
    }

    mutating func map(_ place: StoryboardLibrary.Place) throws(StoryboardError) -> MappedController {
        let element = library.controller(place)
        let file = library.files[place.file].path
        var mapped = MappedController(id: library.names[place] ?? "", place: place, kind: Self.kind(of: element.name))
        mapped.customClass = element["customClass"].flatMap { $0.isEmpty ? nil : $0 }
        mapped.children = try relationshipChildren(element, kind: mapped.kind, place: place)
        for (key, value) in try attributes(element, file: file) { mapped.fields.append((key, value)) }
        for (child, segue, container) in try embedSegues(place) {
            let id = library.names[child.place] ?? ""
            guard let frame = container.frame else {
                notices.add("container view \(container.element["id"] ?? "?") of \(mapped.id) has no frame: its child \(id) is placed at the origin", kind: "container views without a frame")
                mapped.children.append(.init(place: child.place, segue: segue, reference: child.reference, id: id, embedFrame: Rect(x: 0, y: 0, width: 0, height: 0)))
                continue
            }
            mapped.children.append(.init(place: child.place, segue: segue, reference: child.reference, id: id, embedFrame: frame))
        }
        return mapped
    }

    /// Children from `kind="relationship"` segues in the controller's own connections.
    mutating func relationshipChildren(_ element: StoryboardElement, kind: MappedKind, place: StoryboardLibrary.Place) throws(StoryboardError) -> [MappedController.Child] {
        let file = library.files[place.file].path
        var byName: [String: [MappedController.Child]] = [:]
        for segue in element.child("connections")?.children(named: "segue") ?? [] where segue["kind"] == "relationship" {
            let relationship = segue["relationship"] ?? ""
            if kind == .split, relationship == "supplementaryViewController" {
                throw StoryboardError(element, file: file, "a three-column split (supplementaryViewController) is not simulated yet: refused")
            }
            guard let child = try library.reached(by: segue, place: place) else {
                throw StoryboardError(segue, file: file, "a relationship segue's destination must be a controller")
            }
            byName[relationship, default: []].append(.init(place: child.place, segue: segue, reference: child.reference, id: library.names[child.place] ?? ""))
        }
        let order: [String]
        switch kind {
        case .navigation: order = ["rootViewController"]
        case .tab: order = ["viewControllers"]
        case .split: order = ["masterViewController", "detailViewController"]
        case .view: order = []
        }
        for (name, segues) in byName.sorted(by: { $0.key < $1.key }) where !order.contains(name) {
            notices.add("relationship \"\(name)\" of \(library.names[place] ?? "?") (\(file):\(segues[0].segue.line)) is not simulated: ignored", kind: "relationships not simulated")
        }
        // A navigation controller's root and a split's columns are read by relationship name
        // (SPEC §11): each name once; a split's detail without a master is its only child, which
        // UIKit makes the primary column.
        for name in kind == .split || kind == .navigation ? order : [] {
            if let extra = byName[name]?.dropFirst().first {
                throw StoryboardError(extra.segue, file: file, "a second \(name) relationship of \(library.names[place] ?? "?"): a \(kind.rawValue) controller has one")
            }
        }
        if kind == .split, byName["masterViewController"] == nil, let detail = byName["detailViewController"]?.first {
            notices.add("split view controller \(library.names[place] ?? "?") has a detailViewController (\(file):\(detail.segue.line)) but no masterViewController: "
                + "its only child, \(detail.id), is its primary column, as the first of UISplitViewController's viewControllers always is")
        }
        return order.flatMap { byName[$0] ?? [] }
    }

    /// Embed segues of the scene's container views, with each container view placed.
    func embedSegues(_ place: StoryboardLibrary.Place) throws(StoryboardError) -> [(child: (place: StoryboardLibrary.Place, reference: StoryboardElement?), segue: StoryboardElement, container: SceneGeometry.Placed)] {
        let controller = library.controller(place)
        var found: [(StoryboardElement, SceneGeometry.Placed)] = []
        controller.walk { element, ancestors in
            if element.name == "containerView" {
                for segue in element.child("connections")?.children(named: "segue") ?? [] where segue["kind"] == "embed" {
                    found.append((segue, SceneGeometry.place(element, ancestors: ancestors)))
                }
            }
            return true
        }
        var result: [(child: (place: StoryboardLibrary.Place, reference: StoryboardElement?), segue: StoryboardElement, container: SceneGeometry.Placed)] = []
        for (segue, container) in found {
            guard let child = try library.reached(by: segue, place: place) else {
                throw StoryboardError(segue, file: library.files[place.file].path, "an embed segue's destination must be a controller")
            }
            result.append((child, segue, container))
        }
        return result
    }

    /// The controller attributes the scenario format has (SPEC §11).
    mutating func attributes(_ element: StoryboardElement, file: String) throws(StoryboardError) -> [(String, ScenarioJSON)] {
        var fields: [(String, ScenarioJSON)] = []
        if let style = element["modalPresentationStyle"] {
            if let known = ModalPresentationStyle(rawValue: style) {
                fields.append(("modalPresentationStyle", .string(known.rawValue)))
            } else {
                notices.add("\(file):\(element.line): modalPresentationStyle \"\(style)\" is not simulated: ignored")
            }
        }
        if let style = element["modalTransitionStyle"] {
            if let known = ModalTransitionStyle(rawValue: style) {
                fields.append(("modalTransitionStyle", .string(known.rawValue)))
            } else {
                notices.add("\(file):\(element.line): modalTransitionStyle \"\(style)\" is not simulated: ignored")
            }
        }
        // Interface Builder writes a Boolean attribute as YES or NO; anything else is a mistake
        // of the file, not NO.
        for flag in ["definesPresentationContext", "providesPresentationContextTransitionStyle"] {
            guard let value = element[flag] else { continue }
            guard value == "YES" || value == "NO" else {
                throw StoryboardError(element, file: file, "\(flag)=\"\(value)\" must be YES or NO")
            }
            fields.append((flag, .bool(value == "YES")))
        }
        if let size = element.children.first(where: { $0.name == "value" && $0["key"] == "contentSizeForViewInPopover" }) {
            guard let width = size["width"].flatMap(Double.init), let height = size["height"].flatMap(Double.init),
                  width.isFinite, height.isFinite, (0...1_000_000).contains(width), (0...1_000_000).contains(height) else {
                throw StoryboardError(size, file: file, "contentSizeForViewInPopover needs a width and a height from 0 to 1000000")
            }
            fields.append(("preferredContentSize", .array([.number(width), .number(height)])))
        }
        return fields
    }
}
