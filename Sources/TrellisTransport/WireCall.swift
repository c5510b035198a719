import TrellisModel
import TrellisRuntime
import TrellisWire

/// One controller call of TWP §8, declared once (`ControllerCalls`): its code, where a node
/// serves it, what it goes to, its arguments in order, its results, and what serving it does.
/// The caller (`RemoteController`, `NodeHost`) encodes typed arguments with it and the server
/// (`NodeHost.handle`) decodes and applies them with it, so both follow one list: arguments given
/// in another order do not compile (unless two neighbours share a type, as makePresentationController's
/// sizes do: the names beside them in the declaration tell those apart).
struct WireCall<Recipient: Sendable, Arguments: Sendable, Results: Sendable>: Sendable {
    let code: WireCallCode
    /// Where a node serves it (`CallPlacement`).
    let placement: CallPlacement
    let recipient: CallRecipient<Recipient>
    /// §8's spellings of the arguments, in order.
    let arguments: [String]
    let results: CallResults<Results>
    let encode: @Sendable (Arguments) -> [WireValue]
    let decode: @Sendable (inout CallReader) throws(CallFault) -> Arguments
    /// Serves the call on the node that received it.
    let apply: @Sendable (isolated NodeHost, Recipient, Arguments) async throws(CallFault) -> Results

    /// The call with its types erased, as a node's table of served calls holds it.
    var served: ServedCall {
        ServedCall(
            code: code, placement: placement, goesToWindow: recipient.isWindow, arguments: arguments,
            results: results.spellings,
            serve: { host, reader, target throws(CallFault) in
                let arguments = try decode(&reader)
                return results.encode(try await apply(host, try recipient.take(target, code), arguments))
            },
            roundTrip: { reader throws(CallFault) in encode(try decode(&reader)) },
            roundTripResults: { reader throws(CallFault) in results.encode(try results.decode(&reader)) })
    }
}

// One initializer per number of arguments: each takes the arguments' values in order and gives
// `apply` each of them as a parameter of its own.
extension WireCall {
    init(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient) async throws(CallFault) -> Results
    ) where Arguments == Void {
        self.init(
            code: code, placement: placement, recipient: recipient, arguments: [], results: results,
            encode: { _ in [] }, decode: { _ in },
            apply: { host, recipient, _ throws(CallFault) in try await apply(host, recipient) })
    }

    init(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        _ a: CallValue<Arguments>, returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient, Arguments) async throws(CallFault) -> Results
    ) {
        self.init(
            code: code, placement: placement, recipient: recipient, arguments: [a.spelling], results: results,
            encode: { [a.encode($0)] }, decode: { reader throws(CallFault) in try a.decode(&reader) }, apply: apply)
    }

    init<A, B>(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        _ a: CallValue<A>, _ b: CallValue<B>, returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient, A, B) async throws(CallFault) -> Results
    ) where Arguments == (A, B) {
        self.init(
            code: code, placement: placement, recipient: recipient, arguments: [a.spelling, b.spelling], results: results,
            encode: { [a.encode($0.0), b.encode($0.1)] },
            decode: { reader throws(CallFault) in (try a.decode(&reader), try b.decode(&reader)) },
            apply: { host, recipient, values throws(CallFault) in try await apply(host, recipient, values.0, values.1) })
    }

    init<A, B, C>(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        _ a: CallValue<A>, _ b: CallValue<B>, _ c: CallValue<C>, returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient, A, B, C) async throws(CallFault) -> Results
    ) where Arguments == (A, B, C) {
        self.init(
            code: code, placement: placement, recipient: recipient, arguments: [a.spelling, b.spelling, c.spelling],
            results: results, encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2)] },
            decode: { reader throws(CallFault) in (try a.decode(&reader), try b.decode(&reader), try c.decode(&reader)) },
            apply: { host, recipient, values throws(CallFault) in try await apply(host, recipient, values.0, values.1, values.2) })
    }

    init<A, B, C, D>(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        _ a: CallValue<A>, _ b: CallValue<B>, _ c: CallValue<C>, _ d: CallValue<D>, returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient, A, B, C, D) async throws(CallFault) -> Results
    ) where Arguments == (A, B, C, D) {
        self.init(
            code: code, placement: placement, recipient: recipient,
            arguments: [a.spelling, b.spelling, c.spelling, d.spelling], results: results,
            encode: { values in
                let last = d.encode(values.3)
                // An optional tail that is none is left off (TWP/1.4 §11.4).
                if d.isTail, case .none = last { return [a.encode(values.0), b.encode(values.1), c.encode(values.2)] }
                return [a.encode(values.0), b.encode(values.1), c.encode(values.2), last]
            },
            decode: { reader throws(CallFault) in
                (try a.decode(&reader), try b.decode(&reader), try c.decode(&reader), try d.decode(&reader))
            },
            apply: { host, recipient, values throws(CallFault) in
                try await apply(host, recipient, values.0, values.1, values.2, values.3)
            })
    }

    init<A, B, C, D, E>(
        _ code: WireCallCode, on placement: CallPlacement, to recipient: CallRecipient<Recipient>,
        _ a: CallValue<A>, _ b: CallValue<B>, _ c: CallValue<C>, _ d: CallValue<D>, _ e: CallValue<E>,
        returns results: CallResults<Results>,
        apply: @escaping @Sendable (isolated NodeHost, Recipient, A, B, C, D, E) async throws(CallFault) -> Results
    ) where Arguments == (A, B, C, D, E) {
        self.init(
            code: code, placement: placement, recipient: recipient,
            arguments: [a.spelling, b.spelling, c.spelling, d.spelling, e.spelling], results: results,
            encode: { [a.encode($0.0), b.encode($0.1), c.encode($0.2), d.encode($0.3), e.encode($0.4)] },
            decode: { reader throws(CallFault) in
                (try a.decode(&reader), try b.decode(&reader), try c.decode(&reader), try d.decode(&reader), try e.decode(&reader))
            },
            apply: { host, recipient, values throws(CallFault) in
                try await apply(host, recipient, values.0, values.1, values.2, values.3, values.4)
            })
    }
}

/// What a CALL is addressed to, once the node has found it: a controller it hosts, or the
/// conductor's window (TWP §8: the node's own address, an empty controller id).
enum ServedRecipient: Sendable {
    case controller(any ControllerEndpoint)
    case window(Window)
}

/// What kind of recipient a call acts on, and the fault when the addressed one is not of it.
struct CallRecipient<Recipient: Sendable>: Sendable {
    /// Whether the call goes to the conductor's window rather than to a controller.
    let isWindow: Bool
    let take: @Sendable (ServedRecipient, WireCallCode) throws(CallFault) -> Recipient
}

extension CallRecipient where Recipient == any ControllerEndpoint {
    /// Any controller: a view controller or a presentation controller.
    static var controller: CallRecipient {
        CallRecipient(isWindow: false) { target, code throws(CallFault) in try reachedController(target, code) }
    }
}

extension CallRecipient where Recipient == any ManagedController {
    static var viewController: CallRecipient {
        CallRecipient(isWindow: false) { target, code throws(CallFault) in
            let endpoint = try reachedController(target, code)
            guard let controller = endpoint as? any ManagedController else {
                throw CallFault("\(code): \(endpoint.id) is not a view controller")
            }
            return controller
        }
    }
}

extension CallRecipient where Recipient == any ManagedPresentationController {
    static var presentationController: CallRecipient {
        CallRecipient(isWindow: false) { target, code throws(CallFault) in
            let endpoint = try reachedController(target, code)
            guard let controller = endpoint as? any ManagedPresentationController else {
                throw CallFault("\(code): \(endpoint.id) is not a presentation controller")
            }
            return controller
        }
    }
}

extension CallRecipient where Recipient == Window {
    /// The conductor's window.
    static var window: CallRecipient {
        CallRecipient(isWindow: true) { target, code throws(CallFault) in
            switch target {
            case .window(let window): return window
            case .controller(let endpoint): throw CallFault("\(code) goes to the window, not to \(endpoint.id)")
            }
        }
    }
}

/// The controller a call to a controller reached (`NodeHost.handle` sends calls for the window
/// only to the window).
private func reachedController(_ target: ServedRecipient, _ code: WireCallCode) throws(CallFault) -> any ControllerEndpoint {
    switch target {
    case .controller(let endpoint): return endpoint
    case .window: throw CallFault("undeliverable: \(code) does not go to the window")
    }
}

/// A call as a node serves it, its types erased: one per call code, built once
/// (`ControllerCalls.served(_:)`), so serving a CALL makes no call value of its own and looking
/// one up costs one reference.
final class ServedCall: Sendable {
    let code: WireCallCode
    let placement: CallPlacement
    let goesToWindow: Bool
    /// §8's spellings of the arguments and results, in order (`CallTableTests` holds them to §8).
    let arguments: [String]
    let results: [String]
    /// Reads the arguments, then applies the call to the recipient: the RETURN's values.
    let serve: @Sendable (isolated NodeHost, inout CallReader, ServedRecipient) async throws(CallFault) -> [WireValue]
    /// Reads the arguments and writes them again (the table's tests hold it to the golden vectors).
    let roundTrip: @Sendable (inout CallReader) throws(CallFault) -> [WireValue]
    /// Reads results and writes them again.
    let roundTripResults: @Sendable (inout CallReader) throws(CallFault) -> [WireValue]

    init(
        code: WireCallCode, placement: CallPlacement, goesToWindow: Bool, arguments: [String], results: [String],
        serve: @escaping @Sendable (isolated NodeHost, inout CallReader, ServedRecipient) async throws(CallFault) -> [WireValue],
        roundTrip: @escaping @Sendable (inout CallReader) throws(CallFault) -> [WireValue],
        roundTripResults: @escaping @Sendable (inout CallReader) throws(CallFault) -> [WireValue]
    ) {
        self.code = code
        self.placement = placement
        self.goesToWindow = goesToWindow
        self.arguments = arguments
        self.results = results
        self.serve = serve
        self.roundTrip = roundTrip
        self.roundTripResults = roundTripResults
    }
}
