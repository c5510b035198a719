import TrellisJSON
import TrellisRuntime
import TrellisStoryboard
import TrellisTrace

/// A scenario's `"storyboard": "Main.storyboard"` (SPEC §5, §11): the window, root,
/// controllers and segues come from the storyboard (a path relative to the scenario file); the
/// scenario's own fields are laid over them — its steps, placement, window or root if it names
/// them, and for a controller or segue it names, the fields it gives — before the document is
/// decoded and validated as any scenario is.
enum StoryboardField {
    /// `root` with its `"storyboard"` replaced by the storyboard's document under the scenario's
    /// own fields, and the import's notices; `root` as it is when it names no storyboard.
    static func expand(_ root: JSONNode, file: String, registry: BehaviorRegistry) throws(ScenarioError) -> (JSONNode, [String]) {
        guard case let .object(members) = root.value, let field = members.first(where: { $0.key == "storyboard" })?.value else {
            return (root, [])
        }
        guard case let .string(name) = field.value, !name.isEmpty else {
            throw ScenarioError(file: file, path: "$.storyboard", line: field.line, column: field.column,
                                message: "expected the path of a storyboard file (relative to the scenario file)")
        }
        let path = storyboardPath(name, scenarioFile: file)
        var options = StoryboardImportOptions(
            window: root["window"] == nil ? .fromFile : .suppliedByScenario,
            root: root["root"] == nil ? .initial : .suppliedByScenario,
            behaviors: Set(registry.names(of: .viewController)))
        options.windowAdvice = .scenarioField
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(path, limit: StoryboardXML.maximumSize, content: .text)
        } catch {
            // The scenario names a file that is not there: the scenario's fault, at its field.
            throw ScenarioError(file: file, path: "$.storyboard", line: field.line, column: field.column,
                                message: "cannot read the storyboard \(path): \(error.description)")
        }
        let imported: StoryboardImport
        do {
            imported = try StoryboardImport.read(bytes: bytes, file: path, options: options)
        } catch {
            // The storyboard's own place: its file, line and column, and the element.
            let element = error.element.isEmpty ? "" : "<\(error.element)>: "
            throw ScenarioError(file: error.file, path: "", line: error.line, column: error.column, message: element + error.message)
        }
        let document = imported.document.node
        guard case let .object(base) = document.value else { return (root, imported.notices) }
        let own = members.filter { $0.key != "storyboard" }
        let profileAdvice = own.contains { $0.key == "profile" } ? [] : imported.profileAdvice.map { [$0] } ?? []
        let notices = imported.notices + profileAdvice + likelyMisspelt(own, base, file: file)
        return (JSONNode(.object(merge(base, own)), line: root.line, column: root.column), notices)
    }

    /// The most controllers a scenario may add to its storyboard's for each to be checked for a
    /// misspelling (`likelyMisspelt`).
    static let maximumGuesses = 20

    /// A controller the scenario names that the storyboard does not have, but nearly does: most
    /// likely a misspelt id, which adds a new controller while the one meant keeps the
    /// storyboard's fields (a notice: a scenario may add controllers of its own).
    static func likelyMisspelt(_ own: [(key: String, value: JSONNode)], _ base: [(key: String, value: JSONNode)], file: String) -> [String] {
        guard case let .object(named)? = own.first(where: { $0.key == "controllers" })?.value.value,
              case let .object(imported)? = base.first(where: { $0.key == "controllers" })?.value.value else { return [] }
        let ids = Set(imported.map(\.key))
        let added = named.filter { !ids.contains($0.key) }
        // A scenario that adds many controllers means to; and each guess reads every id.
        guard added.count <= maximumGuesses else { return [] }
        return added.compactMap { entry in
            guard let meant = NearestName.of(entry.key, among: ids) else { return nil }
            return "\(file):\(entry.value.line):\(entry.value.column): $.controllers.\(entry.key): the storyboard has no controller \"\(entry.key)\" "
                + "(did you mean \"\(meant)\"?): it is added as a new controller, and \(meant) keeps the storyboard's fields"
        }
    }

    /// `base`'s members with `own`'s laid over them: `controllers` and `segues` id by id (a
    /// named controller's fields one by one), anything else whole; new members at the end.
    static func merge(_ base: [(key: String, value: JSONNode)], _ own: [(key: String, value: JSONNode)]) -> [(key: String, value: JSONNode)] {
        var merged = base
        for member in own {
            guard let index = merged.firstIndex(where: { $0.key == member.key }) else {
                merged.append(member)
                continue
            }
            switch member.key {
            case "controllers": merged[index].value = mergeMap(merged[index].value, member.value, fieldByField: true)
            case "segues": merged[index].value = mergeMap(merged[index].value, member.value, fieldByField: false)
            default: merged[index].value = member.value
            }
        }
        return merged
    }

    /// A map keyed by id with `own`'s entries laid over `base`'s. A wrong type is left for the
    /// decoder to name (with the scenario file's place).
    static func mergeMap(_ base: JSONNode, _ own: JSONNode, fieldByField: Bool) -> JSONNode {
        guard case var .object(entries) = base.value, case let .object(ownEntries) = own.value else { return own }
        for entry in ownEntries {
            guard let index = entries.firstIndex(where: { $0.key == entry.key }) else {
                entries.append(entry)
                continue
            }
            guard fieldByField, case var .object(fields) = entries[index].value.value, case let .object(ownFields) = entry.value.value else {
                entries[index].value = entry.value
                continue
            }
            // A Swift behaviour named here sizes the children itself: the storyboard's
            // declarative container sizes would contradict it (SPEC §5).
            if ownFields.contains(where: { $0.key == "behavior" }) { fields.removeAll { $0.key == "overrides" } }
            for field in ownFields {
                if let fieldIndex = fields.firstIndex(where: { $0.key == field.key }) {
                    fields[fieldIndex].value = field.value
                } else {
                    fields.append(field)
                }
            }
            entries[index].value = JSONNode(.object(fields), line: entry.value.line, column: entry.value.column)
        }
        return JSONNode(.object(entries), line: own.line, column: own.column)
    }

    /// Where the storyboard `name` is: as written when absolute, else relative to the scenario
    /// file's folder — or to the current directory when the scenario came from a pipe or a
    /// process substitution (`/dev/stdin`, `/dev/fd/N`, `/proc/self/fd/N`), whose folder says
    /// nothing of where the scenario was written.
    static func storyboardPath(_ name: String, scenarioFile: String) -> String {
        if name.hasPrefix("/") { return name }
        let streamed = ["/dev/", "/proc/self/fd/"].contains { scenarioFile.hasPrefix($0) }
        return streamed ? name : folder(of: scenarioFile) + name
    }

    /// `path`'s folder with its trailing `/`, or nothing for a bare name.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
