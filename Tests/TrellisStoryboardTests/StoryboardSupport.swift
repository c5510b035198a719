import Foundation
import Testing
import TrellisStoryboard

/// The storyboards of these tests, written in the shape Xcode writes them.
enum Storyboards {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Storyboards")

    static func path(_ name: String) -> String {
        folder.appendingPathComponent(name + ".storyboard").path
    }

    static func read(_ name: String, _ options: StoryboardImportOptions = StoryboardImportOptions()) throws -> StoryboardImport {
        try StoryboardImport.read(path: path(name), options: options)
    }

    /// Runs `body` with a fresh folder, removed afterwards (storyboards that name each other).
    static func inFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-storyboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// The import of `xml`, written as `name` in a fresh folder (the file's path, for notices that name it).
    static func imported(_ xml: String, name: String) throws -> (imported: StoryboardImport, path: String) {
        try inFolder { folder in
            let path = folder.appendingPathComponent(name).path
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            return (try StoryboardImport.read(path: path, options: StoryboardImportOptions()), path)
        }
    }

    /// The refusal of `xml` (as a file named `name` in a fresh folder), or nil when it reads.
    static func refusal(_ xml: String, name: String = "Bad.storyboard", options: StoryboardImportOptions = StoryboardImportOptions()) throws -> StoryboardError? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-storyboard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        try Data(xml.utf8).write(to: url)
        do {
            _ = try StoryboardImport.read(path: url.path, options: options)
            return nil
        } catch {
            return StoryboardError(file: (error.file as NSString).lastPathComponent, line: error.line, column: error.column,
                                   element: error.element, message: error.message)
        }
    }

    /// A storyboard document around `scenes`, with `initial` and a device line.
    static func document(initial: String? = "A", device: String = #"<device id="retina6_1" orientation="portrait" appearance="light"/>"#, _ scenes: String) -> String {
        let initialAttribute = initial.map { #" initialViewController="\#($0)""# } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" useAutolayout="YES"\(initialAttribute)>
                \(device)
                <scenes>
            \(scenes)
                </scenes>
            </document>
            """
    }

    /// One scene holding one controller element.
    static func scene(_ element: String, id: String, attributes: String = "", _ body: String = "") -> String {
        """
                    <scene sceneID="sc-\(id)">
                        <objects>
                            <\(element) id="\(id)"\(attributes) sceneMemberID="viewController">
            \(body)
                            </\(element)>
                        </objects>
                    </scene>
            """
    }
}

extension ScenarioJSON {
    /// The controller `id`'s member `key`.
    func controller(_ id: String, _ key: String) -> ScenarioJSON? {
        self["controllers"]?[id]?[key]
    }

    var strings: [String] {
        guard case let .array(items) = self else { return [] }
        return items.compactMap { if case let .string(text) = $0 { return text } else { return nil } }
    }

    var numbers: [Double] {
        guard case let .array(items) = self else { return [] }
        return items.compactMap { if case let .number(value) = $0 { return value } else { return nil } }
    }

    var keys: [String] {
        guard case let .object(members) = self else { return [] }
        return members.map(\.key)
    }
}
