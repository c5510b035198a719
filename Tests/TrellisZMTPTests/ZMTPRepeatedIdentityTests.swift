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

    @Test func theSecondPeerUnderAnIdentityIsRefusedAndTheFirstKeepsIt() async throws {
        let router = try ZMTPRouter(binding: Self.endpoint("repeated-keep"))
        let first = try ZMTPDealer(connectingTo: Self.endpoint("repeated-keep"), identity: Array("b".utf8), reconnectInterval: .milliseconds(20))
        var pump = Pump(dealers: [first], routers: [router])
        #expect(try await pump.until { router.connectedPeers == [Array("b".utf8)] })
        let second = try ZMTPDealer(connectingTo: Self.endpoint("repeated-keep"), identity: Array("b".utf8), reconnectInterval: .milliseconds(20))
        pump.dealers.append(second)
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
        let router = try ZMTPRouter(binding: Self.endpoint("repeated-both"))
        router.refusesHolderOfRepeatedIdentity = true
        let first = try ZMTPDealer(connectingTo: Self.endpoint("repeated-both"), identity: Array("b".utf8), reconnectInterval: .milliseconds(20))
        var pump = Pump(dealers: [first], routers: [router])
        #expect(try await pump.until { router.connectedPeers == [Array("b".utf8)] })
        let second = try ZMTPDealer(connectingTo: Self.endpoint("repeated-both"), identity: Array("b".utf8), reconnectInterval: .milliseconds(20))
        pump.dealers.append(second)
        #expect(try await pump.until {
            first.lastError == .peerError(ZMTPRouter.identityInUse) && second.lastError == .peerError(ZMTPRouter.identityInUse)
        })
        #expect(!router.takeRefusedIdentities().isEmpty)
    }

    @Test func refusedIdentitiesKeptAreBounded() async throws {
        let router = try ZMTPRouter(binding: Self.endpoint("repeated-bound"))
        let first = try ZMTPDealer(connectingTo: Self.endpoint("repeated-bound"), identity: Array("b".utf8), reconnectInterval: .milliseconds(1))
        var pump = Pump(dealers: [first], routers: [router])
        #expect(try await pump.until { router.connectedPeers == [Array("b".utf8)] })
        // A peer that keeps retrying is refused each time; the ROUTER keeps a few, not each.
        let second = try ZMTPDealer(connectingTo: Self.endpoint("repeated-bound"), identity: Array("b".utf8), reconnectInterval: .milliseconds(1))
        pump.dealers.append(second)
        var attempts = 0
        #expect(try await pump.until { attempts += 1; return second.connectionsMade > 40 || attempts > 20_000 })
        #expect(router.takeRefusedIdentities().count <= 16)
        #expect(router.takeRefusedIdentities().isEmpty)
    }
}
