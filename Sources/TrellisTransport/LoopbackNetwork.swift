import Synchronization

/// The nodes of one run that share a process, and the endpoints they listen on: a node's
/// transport started on a network (`NodeTransport.start(_:on:)`) binds its endpoint here, and the
/// streams of the others reach it by that endpoint, in memory. No socket, thread or process: for
/// the tests that compare placements and traces, where what matters is the messages, encoded and
/// decoded, not how they cross (`LoopbackLink`).
package final class LoopbackNetwork: Sendable {
    private struct State {
        var links: [String: LoopbackLink] = [:]
        /// The last number a wildcard endpoint was given.
        var lastPort = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Binds `configuration.bindEndpoint` (a `*` in it — `tcp://127.0.0.1:*` — made a number no
    /// other link of this network has) for a link that hands what it receives to `onMessage`.
    func bind(
        _ configuration: NodeIOConfiguration,
        onMessage: @escaping @Sendable (_ peer: String, _ frames: [[UInt8]]) -> Void,
        onEvent: @escaping @Sendable (NodeIOEvent) -> Void
    ) throws(LoopbackError) -> LoopbackLink {
        if configuration.curve != nil { throw .curve }
        return try state.withLock { state throws(LoopbackError) in
            var endpoint = configuration.bindEndpoint
            if endpoint.contains("*") {
                state.lastPort += 1
                endpoint = endpoint.split(separator: "*", omittingEmptySubsequences: false).joined(separator: String(state.lastPort))
            }
            guard state.links[endpoint] == nil else { throw .inUse(endpoint) }
            let link = LoopbackLink(configuration: configuration, endpoint: endpoint, network: self, onMessage: onMessage, onEvent: onEvent)
            state.links[endpoint] = link
            return link
        }
    }

    /// The link listening at `endpoint`, if any.
    func link(at endpoint: String) -> LoopbackLink? {
        state.withLock { $0.links[endpoint] }
    }

    /// The endpoints bound now (for tests: a run leaves none behind).
    package var boundEndpoints: [String] {
        state.withLock { $0.links.keys.sorted() }
    }

    /// `link` stops listening: its endpoint is free again.
    func unbind(_ link: LoopbackLink) {
        state.withLock { state in
            if state.links[link.endpoint] === link { state.links[link.endpoint] = nil }
        }
    }
}

/// Why a transport cannot start on a `LoopbackNetwork`.
package enum LoopbackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another node of the network listens there.
    case inUse(String)
    /// CURVE is a property of ZeroMQ's sockets, which a loopback link has none of.
    case curve

    package var description: String {
        switch self {
        case let .inUse(endpoint): return "\(endpoint) is in use on this loopback network"
        case .curve: return "a loopback link has no CURVE: a run with CURVE goes over ZeroMQ"
        }
    }
}
