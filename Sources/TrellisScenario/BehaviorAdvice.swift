import TrellisRuntime
import TrellisTrace

/// What to tell someone whose scenario names a behaviour this program does not register
/// (SPEC §4.1): which program does, and what this one has.
enum BehaviorAdvice {
    /// The reason for an unknown `"behavior"` name, with the advice to run the file with the
    /// runner that registers it.
    static func unknown(_ name: String, _ kind: BehaviorKind, in registry: BehaviorRegistry) -> String {
        let runner = "run it with the runner that registers it (your executable calling TrellisCLI.main(registry:), README \"Your controllers in every tool\"; "
            + "in a test, register it in the BehaviorRegistry the file is loaded with)"
        guard !registry.isEmpty else {
            return "unknown \(kind.words) \"\(name)\": this trellis registers no Swift behaviours; \(runner)"
        }
        if let other = BehaviorKind.allCases.first(where: { $0 != kind && registry.contains(name, as: $0) }) {
            return "\"\(name)\" is registered as \(other.wordsWithArticle), not as \(kind.wordsWithArticle)"
        }
        let names = registry.names(of: kind)
        let hint = NearestName.of(name, among: Set(names)).map { "did you mean \"\($0)\"? " } ?? ""
        let known = names.isEmpty ? "this runner registers no \(kind.words)" : "this runner registers \(names.joined(separator: ", "))"
        return "unknown \(kind.words) \"\(name)\" (\(hint)\(known)); \(runner)"
    }
}
