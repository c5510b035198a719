import Foundation
import Testing
import TrellisTestSupport

/// Package.swift's module map is the architecture: a module imported without being declared
/// still builds while some other target happens to build it first, and the map then lies
/// (issue 23: the CLI imported TrellisModel and TrellisRuntime undeclared). The test kit's users
/// link no scenario module, so no YAML.
@Suite("modules declare what they import")
struct ModuleDependencyTests {
    /// The toolchain's and the system's modules, which no target declares.
    static let platformModules: Set<String> = ["Foundation", "FoundationXML", "Synchronization", "Testing", "XCTest", "Dispatch", "Glibc", "Musl", "Darwin"]

    /// Modules that come with a product another name declares.
    static let productModules: [String: String] = ["CYaml": "Yams"]

    /// The names a target of Package.swift lists as dependencies (targets and products), from
    /// its `dependencies: [` to the matching `]`; none when it lists none.
    static func declaredDependencies(of target: String) throws -> Set<String> {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var search = manifest.startIndex..<manifest.endIndex
        var found: Range<String.Index>?
        while found == nil, let name = manifest.range(of: "name: \"\(target)\"", range: search) {
            // `.target(name: "X"` or `.executableTarget(\n name: "X"`, not a product's `name:`.
            let before = String(manifest[..<name.lowerBound].reversed().drop { $0 == " " || $0 == "\n" }.prefix(7).reversed())
            if before == "target(" || before == "Target(" { found = name }
            search = name.upperBound..<manifest.endIndex
        }
        let declaration = try #require(found, "no target \(target) in Package.swift")
        let rest = manifest[declaration.upperBound...]
        // `Target(` also ends at `.testTarget(` and `.executableTarget(`.
        let nextTarget = ["Target(", ".target(", ".systemLibrary("].compactMap { rest.range(of: $0)?.lowerBound }.min() ?? rest.endIndex
        guard let list = rest.range(of: "dependencies: [", range: rest.startIndex..<nextTarget) else { return [] }
        var depth = 1
        var end = list.upperBound
        while depth > 0, end < manifest.endIndex {
            if manifest[end] == "[" { depth += 1 } else if manifest[end] == "]" { depth -= 1 }
            end = manifest.index(after: end)
        }
        return quotedNames(in: manifest[list.upperBound..<end])
    }

    static func quotedNames(in text: Substring) -> Set<String> {
        Set(text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }

    /// The modules the Swift files of `Sources/<target>` import.
    static func imports(of target: String) throws -> Set<String> {
        let folder = packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
        var modules = Set<String>()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").drop { $0.hasPrefix("@") }
                if words.first == "import", words.count > 1 { modules.insert(String(words[words.startIndex + 1])) }
            }
        }
        return modules
    }

    @Test("each library and the CLI declare every module they import", arguments: [
        "TrellisModel", "TrellisJSON", "TrellisTrace", "TrellisRuntime", "TrellisStoryboard", "TrellisScenario", "TrellisTestKit", "TrellisBench",
        "ZeroMQ", "TrellisZMTP", "TrellisTransport", "TrellisDistributed", "TrellisWire", "TrellisCLI", "trellis",
    ])
    func declaresWhatItImports(_ target: String) throws {
        let declared = try Self.declaredDependencies(of: target)
        let undeclared = try Self.imports(of: target).subtracting(Self.platformModules).filter { module in
            !declared.contains(module) && !declared.contains(Self.productModules[module] ?? module)
        }
        #expect(undeclared.isEmpty, "\(target) imports \(undeclared.sorted()) without declaring them in Package.swift")
    }

    @Test("the test kit does not depend on the scenario module")
    func theTestKitLinksNoScenarioModule() throws {
        let declared = try Self.declaredDependencies(of: "TrellisTestKit")
        #expect(declared.contains("TrellisRuntime"))
        #expect(!declared.contains("TrellisScenario"))
        #expect(!declared.contains("Yams"))
    }
}
