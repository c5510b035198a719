#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TrellisZMTP

/// Two peers connecting to one ROUTER under one identity (two nodes started under one name): the
/// second is refused with ERROR `identityInUse`, which it keeps as its last error, and the
/// ROUTER's owner hears of it; while `refusesHolderOfRepeatedIdentity` (a node setting up) the
/// first is refused with it, so that both hear why.
@Suite struct ZMTPRepeatedIdentityTests {
    static func endpoint(_ name: String) -> String {
        "ipc:///tmp/trellis-zmtp-\(getpid())-\(name).sock"
    }

    /// A ROUTER at `name`'s endpoint with a first peer "b" connected, then a second "b"
    /// connecting; both DEALERs retry every `reconnectInterval`.
    static func twoPeersAsB(
        _ name: String, refusingHolder: Bool = false, reconnectInterval: Duration = .milliseconds(20)
    ) async throws -> (router: ZMTPRouter, first: ZMTPDealer, second: ZMTPDealer, pump: Pump) {
        let router = try ZMTPRouter(binding: endpoint(name))
        router.refusesHolderOfRepeatedIdentity = refusingHolder
        let first = try ZMTPDealer(connectingTo: endpoint(name), identity: Array("b".utf8), reconnectInterval: reconnectInterval)
        var pump = Pump(dealers: [first], routers: [router])
        #expect(try await pump.until { router.connectedPeers == [Array("b".utf8)] })
        let second = try ZMTPDealer(connectingTo: endpoint(name), identity: Array("b".utf8), reconnectInterval: reconnectInterval)
        pump.dealers.append(second)
        return (router, first, second, pump)
    }

    @Test func theSecondPeerUnderAnIdentityIsRefusedAndTheFirstKeepsIt() async throws {
        var (router, first, second, pump) = try await Self.twoPeersAsB("repeated-keep")
        var refused: [[UInt8]] = []
        #expect(try await pump.until {
            refused += router.takeRefusedIdentities()
            return second.lastError == .peerError(ZMTPRouter.identityInUse) && !refused.isEmpty
        })
        #expect(refused.allSatisfy { $0 == Array("b".utf8) })
        // The first still has it: its messages arrive under it.
        #expect(first.send([Array("still".utf8)]))
        var received: [[UInt8]]?
        #expect(try await pump.until { received = router.receive(); return received != nil })
        #expect(received == [Array("b".utf8), Array("still".utf8)])
        #expect(first.lastError == nil)
    }

    @Test func whileSettingUpBothPeersUnderAnIdentityAreRefused() async throws {
        var (router, first, second, pump) = try await Self.twoPeersAsB("repeated-both", refusingHolder: true)
        #expect(try await pump.until {
            first.lastError == .peerError(ZMTPRouter.identityInUse) && second.lastError == .peerError(ZMTPRouter.identityInUse)
        })
        #expect(!router.takeRefusedIdentities().isEmpty)
    }

    @Test func refusedIdentitiesKeptAreBounded() async throws {
        // A peer that keeps retrying is refused each time; the ROUTER keeps a few, not each.
        var (router, _, second, pump) = try await Self.twoPeersAsB("repeated-bound", reconnectInterval: .milliseconds(1))
        var attempts = 0
        #expect(try await pump.until { attempts += 1; return second.connectionsMade > 40 || attempts > 20_000 })
        #expect(router.takeRefusedIdentities().count <= 16)
        #expect(router.takeRefusedIdentities().isEmpty)
    }
}
