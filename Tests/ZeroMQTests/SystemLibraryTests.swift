import Foundation
import Testing
import TrellisTestSupport

/// A package that depends on Trellis builds without warnings from it: the CZeroMQ system
/// library asks pkg-config for nothing (Debian's libzmq.pc carries `-isystem` flags SwiftPM
/// refuses with a warning in every dependent's build), and the module map links libzmq itself.
@Suite struct SystemLibraryTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func czeromqNamesNoPkgConfigAndLinksZmqFromItsModuleMap() throws {
        let manifest = try Self.text("Package.swift")
        let declaration = try #require(manifest.split(separator: "\n").first { $0.contains(".systemLibrary(name: \"CZeroMQ\"") })
        #expect(!declaration.contains("pkgConfig"))
        #expect(declaration.contains(".apt([\"libzmq3-dev\"])"))
        let moduleMap = try Self.text("Sources/CZeroMQ/module.modulemap")
        #expect(moduleMap.contains("link \"zmq\""))
    }

    @Test func theScriptsNeedNoPkgConfigStandIn() throws {
        let bootstrap = try Self.text("scripts/bootstrap.sh")
        #expect(!bootstrap.contains("PKG_CONFIG_PATH"))
        #expect(!bootstrap.contains("libzmq.pc"))
    }
}
