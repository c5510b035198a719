import Foundation
import Testing
import TrellisTestSupport

/// A package that depends on Trellis builds without warnings from it: on Linux the CZeroMQ
/// system library asks pkg-config for nothing (Debian's libzmq.pc carries `-isystem` flags SwiftPM
/// refuses with a warning in every dependent's build), and the module map links libzmq itself.
/// On macOS it asks Homebrew's libzmq.pc where Homebrew's prefix is.
@Suite struct SystemLibraryTests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func czeromqAsksPkgConfigOnMacOSOnlyAndLinksZmqFromItsModuleMap() throws {
        let manifest = try Self.text("Package.swift")
        let declaration = try #require(manifest.split(separator: "\n").first { $0.contains(".systemLibrary(name: \"CZeroMQ\"") })
        #expect(declaration.contains("pkgConfig: zeroMQPkgConfig,"))
        #expect(manifest.contains("""
            #if os(macOS)
            let zeroMQPkgConfig: String? = "libzmq"
            #else
            let zeroMQPkgConfig: String? = nil
            #endif
            """))
        #expect(declaration.contains(".apt([\"libzmq3-dev\"])"))
        #expect(declaration.contains(".brew([\"zeromq\"])"))
        let moduleMap = try Self.text("Sources/CZeroMQ/module.modulemap")
        #expect(moduleMap.contains("link \"zmq\""))
    }

    @Test func theScriptsNeedNoPkgConfigStandIn() throws {
        let bootstrap = try Self.text("scripts/bootstrap.sh")
        #expect(!bootstrap.contains("PKG_CONFIG_PATH"))
        #expect(!bootstrap.contains("libzmq.pc"))
    }
}
