import Foundation
import Testing

/// The tags of the project's tests, declared once for every suite (Swift Testing): CI and a
/// developer select or skip the expensive ones by them (README, "Selecting tests").
extension Tag {
    /// Starts other processes that talk to the test or to each other — `trellis node`s over
    /// ZeroMQ, `trellis run --transport zmq`, the Python node — rather than staying in this one.
    @Tag public static var multiProcess: Self
    /// Takes seconds on purpose: a timeout waited out, thousands of steps, a differential or
    /// garbage sweep. Everything else runs in well under a second.
    @Tag public static var slow: Self
    /// Builds hosts out of network namespaces (`ip netns`, veth); needs root, skipped otherwise.
    @Tag public static var networkNamespace: Self
}

/// Skipping tagged tests on a toolchain whose `swift test` cannot (Swift 6.3's Swift Testing has
/// no `--skip tag:NAME`): `TRELLIS_SKIP_TAGS=slow,multiProcess swift test` skips every test or
/// suite that carries one of those tags, saying why. Unset, nothing is skipped.
public enum TagSelection {
    /// The tags by the names the variable uses.
    static let byName: [String: Tag] = ["multiProcess": .multiProcess, "slow": .slow, "networkNamespace": .networkNamespace]

    /// The tags `TRELLIS_SKIP_TAGS` names (comma-separated).
    static let skipped: Set<Tag> = Set(
        (ProcessInfo.processInfo.environment["TRELLIS_SKIP_TAGS"] ?? "").split(separator: ",")
            .compactMap { byName[$0.trimmingCharacters(in: .whitespaces)] })

    /// Whether a test carrying `tags` runs.
    public static func runs(_ tags: [Tag]) -> Bool { skipped.isDisjoint(with: tags) }
}

extension Trait where Self == ConditionTrait {
    /// Skips the test or suite when `TRELLIS_SKIP_TAGS` names one of `tags` (give it beside
    /// `.tags(…)` with the same tags).
    public static func selected(_ tags: Tag...) -> Self {
        .enabled(if: TagSelection.runs(tags), "skipped: TRELLIS_SKIP_TAGS names one of its tags")
    }
}

extension Trait where Self == TimeLimitTrait {
    /// The hang guard of a suite that starts nodes, processes or sockets. Generous, because a
    /// test's time limit also counts the time it waits its turn: `scripts/test.sh` runs these
    /// suites once more pinned to one CPU, where all of their tests share it, and on a slower VM
    /// of the project's kind tests that take seconds alone took 105–127 s so, past the 2 minutes
    /// their guards had (a CI rehearsal failed there). A hang still ends within it, well inside
    /// CI's 90 minutes.
    public static var distributedHangGuard: Self { .timeLimit(.minutes(10)) }
}
