import TrellisModel

/// SPEC §11, scenario format §6.5 rule 3, as a segue is performed: which copy of a scene the
/// user taps. A segue's source (and its popover anchor's view) is read from the file as the
/// latest copy of its `from`; when no container shows that copy now (a pop took it off its
/// navigation stack, another tab is selected), the latest earlier copy that is shown — else the
/// file's controller itself, if shown — is the scene on screen. Only the copies the scenario's
/// segues made count, in the order they were made (`HierarchyDescription.copiedFrom` and its
/// controllers' order), never a file's own ids that merely look like copies.
public struct SegueCopyLineage: Sendable {
    /// Each copy, with its controller of the file and the copies of that controller made before it.
    private var earlier: [ControllerID: (original: ControllerID, copies: [ControllerID])] = [:]

    /// The lineage of `copiedFrom` (copy → the file's controller), the copies taken in `order`
    /// (the order the steps made them).
    public init(copiedFrom: [ControllerID: ControllerID], order: some Sequence<ControllerID>) {
        guard !copiedFrom.isEmpty else { return }
        var made: [ControllerID: [ControllerID]] = [:]
        for id in order {
            guard let original = copiedFrom[id] else { continue }
            earlier[id] = (original, made[original, default: []])
            made[original, default: []].append(id)
        }
    }

    /// The shown stand-in for `id`: nil when `id` is shown, is not a copy, or neither an earlier
    /// copy nor the file's controller is shown (`HierarchyStructure.isInWindow`, with the split
    /// view controllers collapsed now).
    public func shownInstead(of id: ControllerID, in structure: HierarchyStructure, collapsedSplits: Set<ControllerID> = []) -> ControllerID? {
        guard let (original, copies) = earlier[id], !structure.isInWindow(id, collapsedSplits: collapsedSplits) else { return nil }
        return (copies.reversed() + [original]).first { structure[$0] != nil && structure.isInWindow($0, collapsedSplits: collapsedSplits) }
    }
}
