import Synchronization
import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace

enum Phone {
    static let size = Size(320, 568)
    static let landscapeSize = Size(568, 320)
    static let traits = TraitCollection(horizontalSizeClass: .compact, verticalSizeClass: .regular, userInterfaceIdiom: .phone, displayScale: 2)
    static let portrait = "h=compact v=regular idiom=phone scale=2"
    static let landscape = "h=compact v=compact idiom=phone scale=2"

    static func hierarchy(_ controllers: [ControllerDescription], root: ControllerID = "R") -> HierarchyDescription {
        HierarchyDescription(windowSize: size, windowTraits: traits, root: root, controllers: controllers)
    }
}

extension Window {
    /// Performs `event` and returns the canonical lines it produced.
    func lines(of event: WindowEvent) async throws -> [String] {
        let before = environment.recorder.count
        try await perform(event)
        return environment.recorder.events(after: before).map(\.canonicalLine)
    }
}

func layoutLines(_ controllers: String...) -> [String] {
    controllers.flatMap { ["\($0) viewWillLayoutSubviews", "\($0) viewDidLayoutSubviews"] }
}

/// A thread-safe list of strings that coordinator blocks append to.
final class BlockLog: Sendable {
    private let entries = Mutex<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}
