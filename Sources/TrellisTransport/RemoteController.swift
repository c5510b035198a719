import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// Stands in for a controller (or presentation controller) that another node hosts: each
/// message becomes one CALL to that node, which handles the controller's whole subtree there and
/// RETURNs when done — crossing a node boundary costs one exchange, not one per controller. Its
/// messages are the senders of `ControllerCalls`, beside the calls they make.
package actor RemoteController: ManagedController, ManagedPresentationController {
    package nonisolated let id: ControllerID
    package nonisolated let address: WireAddress
    let host: NodeHost

    init(address: WireAddress, host: NodeHost) {
        self.id = ControllerID(address.controller)
        self.address = address
        self.host = host
    }

    /// One CALL whose RETURN carries nothing; a failure is recorded as a fault and ends the run.
    func send<Recipient, Arguments>(_ call: WireCall<Recipient, Arguments, Void>, _ arguments: Arguments) async {
        _ = await host.call(address, call, arguments)
    }

    /// One CALL's results; nil when it failed or its results do not match TWP §8. A caller checks
    /// the count and types of the results: results that do not match are a fault of the run, not
    /// quietly replaced (the caller goes on with neutral values).
    func read<Recipient, Arguments, Results>(_ call: WireCall<Recipient, Arguments, Results>, _ arguments: Arguments) async -> Results? {
        switch await host.call(address, call, arguments) {
        case .success(let results)?:
            return results
        case .failure(let unreadable)?:
            await host.noteFault("\(call.code) from \(address.node) returned \(unreadable.count) values that do not match TWP/1.1 §8")
            return nil
        case nil:
            return nil
        }
    }

    /// The address under which the node of this stand-in reaches `endpoint`.
    func address(of endpoint: (any ControllerEndpoint)?) async -> WireAddress? {
        guard let endpoint else { return nil }
        return await host.address(of: endpoint)
    }
}
