import TrellisModel

/// A segue as the scenario's `segues` map holds it (SPEC §11): the storyboard's own kind, the
/// source scene's controller, the destination, the presentation's styles, a popover's anchor.
public struct MappedSegue: Sendable, Equatable {
    /// The key in the `segues` map and what a `performSegue` step names.
    public var id: String
    /// The storyboard's own word (`show`, `popoverPresentation`, …).
    public var kind: String
    /// The controller of the segue's source scene.
    public var from: String
    /// Nil for an unwind segue: its target is found at run time.
    public var destination: String?
    /// The segue's `modalPresentationStyle`, for the kinds that present.
    public var style: String?
    /// The segue's `modalTransitionStyle`, for the kinds that present.
    public var transitionStyle: String?
    /// Where a popover segue points from: a rect in a controller's view, measured from one of
    /// its corners (the scenario's `anchor`).
    public typealias Anchor = PopoverSource

    /// Where a popover segue points from.
    public var anchor: Anchor?
    /// A `custom` segue's `UIStoryboardSegue` subclass.
    public var customClass: String?

    /// The entry of the `segues` map.
    var json: ScenarioJSON {
        var members = [ScenarioJSON.Member("kind", .string(kind)), .init("from", .string(from))]
        if let destination { members.append(.init("destination", .string(destination))) }
        if let style { members.append(.init("style", .string(style))) }
        if let transitionStyle { members.append(.init("transitionStyle", .string(transitionStyle))) }
        if let anchor {
            let rect = anchor.rect
            var fields: [ScenarioJSON.Member] = [
                .init("view", .string(anchor.view.name)),
                .init("rect", .array([rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map(ScenarioJSON.number))),
            ]
            if anchor.corner != .topLeft { fields.append(.init("corner", .string(anchor.corner.rawValue))) }
            members.append(.init("anchor", .object(fields)))
        }
        if let customClass { members.append(.init("customClass", .string(customClass))) }
        return .object(members)
    }
}

/// Reads every segue of every scene that is not containment (relationship, embed): those a
/// `performSegue` step performs.
struct SegueMapping {
    let library: StoryboardLibrary
    var notices: StoryboardNotices

    /// The storyboard kinds a scenario keeps as written; older ones are mapped (docs/decisions.md).
    static func kind(_ written: String) -> String? {
        switch written {
        case "presentation", "popoverPresentation", "show", "showDetail", "push", "modal", "unwind", "custom": return written
        case "popover": return "popoverPresentation"  // iOS 5–7's popover segue
        case "replace": return "showDetail"           // iOS 5–7's split detail replacement
        default: return nil
        }
    }

    /// Whether a segue of `kind` presents, and so may carry a presentation's styles.
    static func presents(_ kind: String) -> Bool {
        ["presentation", "popoverPresentation", "modal", "custom"].contains(kind)
    }

    /// Every performable segue of `controllers` (the file's, in file order, then the copies a
    /// storyboard reference's further uses make: each copy's segues as its original's), in XML
    /// order, with readable unique ids.
    mutating func map(_ controllers: [MappedController]) throws(StoryboardError) -> [MappedSegue] {
        var found: [(segue: MappedSegue, identifier: String?)] = []
        for controller in controllers {
            var segues: [StoryboardElement] = []
            library.scene(controller.place).segueScope.walk { element, _ in
                if element.name == "segue", element["kind"] != "relationship", element["kind"] != "embed" { segues.append(element) }
                return element.name != "segue"
            }
            for segue in segues {
                found.append((try mapSegue(segue, place: controller.place, from: controller.id), segue["identifier"].flatMap { $0.isEmpty ? nil : $0 }))
            }
        }
        return name(found)
    }

    /// Ids: the `identifier`, qualified by the source (`FROM.identifier`) where two segues share
    /// it; else `FROM-kind-DESTINATION` (`FROM-unwind-exit` for an unwind); a suffix -2, -3, …
    /// where still taken.
    func name(_ found: [(segue: MappedSegue, identifier: String?)]) -> [MappedSegue] {
        var counts: [String: Int] = [:]
        for entry in found { if let identifier = entry.identifier { counts[identifier, default: 0] += 1 } }
        var naming = ControllerNaming()
        return found.map { entry in
            var segue = entry.segue
            let base: String
            if let identifier = entry.identifier {
                base = counts[identifier] == 1 ? identifier : segue.from + "." + identifier
            } else {
                base = segue.from + "-" + segue.kind + "-" + (segue.destination ?? "exit")
            }
            // An identifier is kept as written (it may hold spaces: a step names it, no canonical
            // line does); only control characters, which no step could name, become `_`.
            let printable = String(String.UnicodeScalarView(base.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "_" : $0 }))
            segue.id = naming.claim(printable, hyphenated: true)
            return segue
        }
    }

    mutating func mapSegue(_ segue: StoryboardElement, place: StoryboardLibrary.Place, from: String) throws(StoryboardError) -> MappedSegue {
        let file = library.files[place.file].path
        guard let written = segue["kind"] else {
            throw StoryboardError(segue, file: file, "a segue without a kind attribute (show, presentation, popoverPresentation, …)")
        }
        guard let kind = Self.kind(written) else {
            throw StoryboardError(segue, file: file, "unknown segue kind \"\(written)\"")
        }
        let target = try library.destination(of: segue, place: place)
        var mapped = MappedSegue(id: "", kind: kind, from: from, destination: target.flatMap { library.names[$0] })
        if mapped.destination == nil, kind != "unwind" {
            throw StoryboardError(segue, file: file, "a \(written) segue's destination must be a controller, not an exit")
        }
        if kind == "unwind" {
            mapped.destination = nil
            let action = segue["unwindAction"] ?? "?"
            notices.add("unwind segue from \(from) (\(action)) dismisses to a target UIKit finds at run time: performSegue dismisses the presented controller that holds \(from)")
        }
        if Self.presents(kind) {
            mapped.style = try style(segue, "modalPresentationStyle", ModalPresentationStyle.self, file: file)
            mapped.transitionStyle = try style(segue, "modalTransitionStyle", ModalTransitionStyle.self, file: file)
        }
        if kind == "popoverPresentation" {
            mapped.anchor = try anchor(segue, place: place, from: from)
        }
        if kind == "custom" {
            // The scenario a storyboard imports to must run as it is (SPEC §11), and a custom
            // segue is performed by its class: one without a class is refused here, at its line.
            guard let customClass = segue["customClass"], !customClass.isEmpty else {
                throw StoryboardError(segue, file: file, "a custom segue names its UIStoryboardSegue subclass (customClass); this one names none")
            }
            mapped.customClass = customClass
        }
        return mapped
    }

    mutating func style<T: RawRepresentable>(_ segue: StoryboardElement, _ attribute: String, _: T.Type, file: String) throws(StoryboardError) -> String?
        where T.RawValue == String {
        guard let written = segue[attribute] else { return nil }
        guard T(rawValue: written) != nil else {
            notices.add("\(file):\(segue.line): \(attribute) \"\(written)\" is not simulated: ignored")
            return nil
        }
        return written
    }
}
