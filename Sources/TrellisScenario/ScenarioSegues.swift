import TrellisJSON
import TrellisModel

// SPEC §11 `segues`: how a scenario's segue map is read and what it must refer to. What a
// `performSegue` step does with a segue is `SegueCopies.swift`.

extension Reader {
    /// `{ "<segueId>": { "kind", "from", "destination", "style", "transitionStyle", "anchor",
    /// "customClass" } }`, in the file's order. Which fields go with which kind is the
    /// validator's check (the kind may come after them).
    mutating func segues(_ node: JSONNode, _ path: String) throws(ScenarioError) -> [SegueSpec] {
        var segues: [SegueSpec] = []
        for (key, value) in try members(node, path, allowed: nil) {
            let at = path + "." + key
            positions[at] = (value.line, value.column)
            if let problem = Self.segueIDProblem(key) { throw fail(value, at, problem) }
            segues.append(try segue(value, id: key, at: at))
        }
        return segues
    }

    /// Why `text` cannot name a segue; nil when it can. A segue id is a storyboard's
    /// `identifier` (which may hold spaces), so only emptiness and control characters are
    /// refused: it appears in step headers, never in canonical lines.
    static func segueIDProblem(_ text: String) -> String? {
        if text.isEmpty { return "a segue id must not be empty" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "segue id \"\(text)\" may not contain control characters"
        }
        return nil
    }

    mutating func segue(_ node: JSONNode, id: String, at path: String) throws(ScenarioError) -> SegueSpec {
        let fields: Set<String> = ["kind", "from", "destination", "style", "transitionStyle", "anchor", "customClass"]
        var segue = SegueSpec(id: id, kind: .show, from: "", destination: nil)
        for (key, value) in try members(node, path, allowed: fields, required: ["kind", "from"]) {
            let at = path + "." + key
            positions[at] = (value.line, value.column)
            switch key {
            case "kind": segue.kind = try rawEnum(value, at, SegueKind.self, what: "segue kind")
            case "from": segue.from = try self.id(value, at)
            case "destination": segue.destination = try self.id(value, at)
            case "style": segue.style = try rawEnum(value, at, ModalPresentationStyle.self, what: "presentation style")
            case "transitionStyle": segue.transitionStyle = try rawEnum(value, at, ModalTransitionStyle.self, what: "transition style")
            case "anchor": segue.anchor = try popoverSource(value, at)
            default:
                let name = try string(value, at)
                guard !name.isEmpty else { throw fail(value, at, "a custom segue's class name must not be empty") }
                segue.customClass = name
            }
        }
        return segue
    }
}

extension ScenarioValidator {
    /// Each segue's ids are controllers of the file, and its fields fit its kind: a destination
    /// (but for an unwind), a style only where it presents, an anchor only on a popover, a class
    /// only on a custom segue, which must name one.
    func validateSegues(_ table: ControllerTable) throws(ScenarioError) {
        // A segue names the file's controllers, never the copies its performances made.
        let byID = FileControllers(table: table, copiedFrom: scenario.copiedFrom)
        for segue in scenario.segues {
            let base = "$.segues.\(segue.id)"
            let kind = segue.kind.rawValue
            guard byID[segue.from] != nil else { throw fail("\(base).from", "unknown controller \"\(segue.from)\"") }
            if let destination = segue.destination {
                guard byID[destination] != nil else { throw fail("\(base).destination", "unknown controller \"\(destination)\"") }
            } else if segue.kind != .unwind {
                throw fail(base, "a \(kind) segue needs a \"destination\" (only an unwind segue may leave it out)")
            }
            for field in ["style", "transitionStyle"] where positions["\(base).\(field)"] != nil && !segue.kind.presents {
                throw fail("\(base).\(field)", "\"\(field)\" applies to segues that present (presentation, popoverPresentation, modal, custom), not to a \(kind) segue")
            }
            if segue.kind == .popoverPresentation, let style = segue.style, style != .popover {
                throw fail("\(base).style", "a popoverPresentation segue presents as \"popover\", not \"\(style.rawValue)\"")
            }
            if let anchor = segue.anchor {
                guard segue.kind == .popoverPresentation else {
                    throw fail("\(base).anchor", "\"anchor\" applies to popoverPresentation segues, not to a \(kind) segue")
                }
                guard byID[anchor.view] != nil else { throw fail("\(base).anchor.view", "unknown controller \"\(anchor.view)\"") }
            }
            if segue.customClass != nil, segue.kind != .custom {
                throw fail("\(base).customClass", "\"customClass\" applies to custom segues, not to a \(kind) segue")
            }
            if segue.kind == .custom, segue.customClass == nil {
                throw fail(base, "a custom segue names its \"customClass\" (the UIStoryboardSegue subclass)")
            }
        }
    }
}

/// The file's own controllers: those of the table that no `performSegue` copied (looked up
/// where a filtered copy of the table cost a million entries, issue 27).
private struct FileControllers {
    let table: ControllerTable
    let copiedFrom: [ControllerID: ControllerID]

    subscript(id: ControllerID) -> ControllerSpec? {
        copiedFrom[id] == nil ? table[id] : nil
    }
}
