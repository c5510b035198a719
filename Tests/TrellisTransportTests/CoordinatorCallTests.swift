import Testing
import TrellisModel
import TrellisRuntime
import TrellisTrace
@testable import TrellisTransport
import TrellisWire

/// TWP/1.4's optional tail (§8, §11.4): `presentationCallback` without a transition is its 1.3
/// form byte for byte, with one it has a fourth argument, and a receiver reads both.
@Suite struct CoordinatorCallTests {
    static let transition = TransitionInfo(id: 7, isAnimated: true, duration: 0.3, windowTraits: TraitCollection(), windowSize: Size(320, 568))
    static let cause = EventRef(node: "main", sequence: 4)

    @Test("a DidEnd callback leaves the tail off; a WillBegin one carries its transition")
    func tailIsLeftOffWhenNone() throws {
        let call = ControllerCalls.presentationCallback
        let without = call.encode((.presentationTransitionDidEnd, true, Self.cause, nil))
        #expect(without.count == 3)
        let with = call.encode((.presentationTransitionWillBegin, true, Self.cause, Self.transition))
        #expect(with.count == 4)
        guard case .transition(let wire)? = with.last else {
            Issue.record("the fourth argument is \(String(describing: with.last)), not a transition")
            return
        }
        #expect(wire.id == 7 && wire.animated && wire.windowSize == Size(320, 568))
    }

    @Test("a receiver reads the call with and without its tail, and refuses a tail of another type")
    func receiverReadsBothForms() throws {
        let call = ControllerCalls.presentationCallback
        for arguments in [(Self.transition as TransitionInfo?), nil] {
            let values = call.encode((.presentationTransitionWillBegin, false, Self.cause, arguments))
            var reader = CallReader(code: .presentationCallback, values: values, runNodes: ["main"])
            let read = try call.decode(&reader)
            #expect(read.3 == arguments)
        }
        var values = call.encode((.dismissalTransitionWillBegin, true, Self.cause, nil))
        values.append(WireValue.size(Size(1, 1)))
        var reader = CallReader(code: .presentationCallback, values: values, runNodes: ["main"])
        #expect(throws: CallFault.self) { try call.decode(&reader) }
    }
}
