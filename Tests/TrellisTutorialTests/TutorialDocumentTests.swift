import Foundation
import Testing

/// The tutorial's Swift is this target's code: every ```swift block of the document is in
/// one of this folder's files as written, so the tutorial compiles (and its tests run) with the
/// project's tests. A block whose test fails on purpose is kept without its `@Test ` (see
/// FailingOnPurpose.swift); a block that starts `// Package.swift` is a user's manifest.
@Suite struct TutorialDocumentTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// The tutorial: an article of the test kit's documentation catalog (docs/testing.md points
    /// to it), so DocC publishes the text these tests compile.
    static let document = folder.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TrellisTestKit/TrellisTestKit.docc/Testing.md")

    /// The ```swift blocks of the document, each as its lines joined.
    static func swiftBlocks() throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func tutorialSources() throws -> String {
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test func everySwiftBlockOfTheTutorialIsCompiledHere() throws {
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 8)
        let sources = try Self.tutorialSources()
        for block in blocks where !block.hasPrefix("// Package.swift") {
            let asKept = block.hasPrefix("@Test ") ? String(block.dropFirst("@Test ".count)) : block
            #expect(sources.contains(block) || sources.contains(asKept), "not in Tests/TrellisTutorialTests:\n\(block)")
        }
    }
}
