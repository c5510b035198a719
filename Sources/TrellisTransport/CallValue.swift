import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// One argument or result of a controller call: how TWP §8's table spells it, how it is written
/// and how it is read. A call's declaration (`ControllerCalls`) lists its values once, in order;
/// the CALL's encoder and decoder both follow that list, so they cannot disagree about the order.
struct CallValue<Value: Sendable>: Sendable {
    /// The wire type as §8 spells it: `size`, `rect`, `cause` (an eventref or none).
    let type: String
    /// Whether `none` stands for nil (§8's "… or none").
    let orNone: Bool
    /// An optional tail (TWP/1.4, §11.4): the last argument, left off the CALL when it is none,
    /// so that the call is its older form byte for byte.
    private(set) var isTail = false
    /// The name §8 gives the value, if any: `frame` in "rect frame".
    private(set) var name: String?
    let encode: @Sendable (Value) -> WireValue
    let decode: @Sendable (inout CallReader) throws(CallFault) -> Value

    init(
        _ type: String, orNone: Bool = false, encode: @escaping @Sendable (Value) -> WireValue,
        decode: @escaping @Sendable (inout CallReader) throws(CallFault) -> Value
    ) {
        self.type = type
        self.orNone = orNone
        self.encode = encode
        self.decode = decode
    }

    /// §8's spelling: type, name, "or none" — "rect frame or none"; "[…]" around an optional tail.
    var spelling: String {
        let spelt = [type, name].compactMap { $0 }.joined(separator: " ") + (orNone ? " or none" : "")
        return isTail ? "[\(spelt)]" : spelt
    }

    /// The same value under the name §8 gives it.
    func named(_ name: String) -> CallValue {
        var named = self
        named.name = name
        return named
    }
}

extension CallValue where Value == Bool {
    static var bool: CallValue { CallValue("bool", encode: { .bool($0) }, decode: { reader throws(CallFault) in try reader.bool() }) }
}

extension CallValue where Value == Int {
    static var int: CallValue {
        CallValue("int", encode: { .int(Int64($0)) }, decode: { reader throws(CallFault) in try reader.int() })
    }
}

extension CallValue where Value == Size {
    static var size: CallValue { CallValue("size", encode: { .size($0) }, decode: { reader throws(CallFault) in try reader.size() }) }
}

extension CallValue where Value == Rect {
    static var rect: CallValue { CallValue("rect", encode: { .rect($0) }, decode: { reader throws(CallFault) in try reader.rect() }) }
}

extension CallValue where Value == Rect? {
    static var rectOrNone: CallValue {
        CallValue("rect", orNone: true, encode: { $0.map(WireValue.rect) ?? .none },
                  decode: { reader throws(CallFault) in try reader.optionalRect() })
    }
}

extension CallValue where Value == TraitCollection {
    static var traits: CallValue {
        CallValue("traits", encode: { .traits($0) }, decode: { reader throws(CallFault) in try reader.traits() })
    }
}

extension CallValue where Value == TraitCollection? {
    static var traitsOrNone: CallValue {
        CallValue("traits", orNone: true, encode: { $0.map(WireValue.traits) ?? .none },
                  decode: { reader throws(CallFault) in try reader.optionalTraits() })
    }
}

extension CallValue where Value == String {
    /// Free text: an action's name.
    static var text: CallValue {
        CallValue("string", encode: { .string($0) }, decode: { reader throws(CallFault) in try reader.string() })
    }
}

extension CallValue where Value == ControllerID {
    /// A controller id, written as a string.
    static var controllerID: CallValue {
        CallValue("string", encode: { .string($0.name) }, decode: { reader throws(CallFault) in ControllerID(try reader.string()) })
    }
}

extension CallValue where Value == AppearanceCallback {
    /// An appearance callback's name (R42).
    static var appearance: CallValue {
        CallValue("string", encode: { .string($0.rawValue) }, decode: { reader throws(CallFault) in try reader.appearance() })
    }
}

extension CallValue where Value == PresentationCallback {
    /// A presentation transition callback's name (R42).
    static var presentationCallback: CallValue {
        CallValue("string", encode: { .string($0.rawValue) },
                  decode: { reader throws(CallFault) in try reader.presentationCallback() })
    }
}

extension CallValue where Value == ModalPresentationStyle {
    /// A TSF/1 `modalPresentationStyle` name.
    static var style: CallValue {
        CallValue("string", encode: { .string($0.rawValue) }, decode: { reader throws(CallFault) in try reader.style() })
    }
}

extension CallValue where Value == WireAddress {
    static var address: CallValue {
        CallValue("address", encode: { .address($0) }, decode: { reader throws(CallFault) in try reader.address() })
    }
}

extension CallValue where Value == WireAddress? {
    static var addressOrNone: CallValue {
        CallValue("address", orNone: true, encode: { $0.map(WireValue.address) ?? .none },
                  decode: { reader throws(CallFault) in try reader.optionalAddress() })
    }
}

extension CallValue where Value == TransitionInfo {
    static var transition: CallValue {
        CallValue("transition", encode: { transition in
            .transition(WireTransition(
                id: Int64(transition.id), animated: transition.isAnimated, duration: transition.duration,
                windowTraits: transition.windowTraits, windowSize: transition.windowSize))
        }, decode: { reader throws(CallFault) in try reader.transition() })
    }
}

extension CallValue where Value == TransitionInfo? {
    /// 0x43's optional tail (TWP/1.4): the transition a `WillBegin` callback hands its coordinator.
    static var transitionTail: CallValue {
        var tail = CallValue("transition", orNone: true, encode: { transition in
            transition.map { CallValue<TransitionInfo>.transition.encode($0) } ?? .none
        }, decode: { reader throws(CallFault) in try reader.transitionTail() })
        tail.isTail = true
        return tail
    }
}

extension CallValue where Value == EventRef? {
    /// The event during whose handling the call was made: an eventref or none (§8 "cause"),
    /// naming a node of the run.
    static var cause: CallValue {
        CallValue("cause", encode: { cause in
            cause.map { .eventRef(WireEventRef(node: $0.node, sequence: $0.sequence)) } ?? .none
        }, decode: { reader throws(CallFault) in try reader.cause() })
    }
}

/// What a call's RETURN carries (TWP §8's Results column): spelt, written and read together.
/// Reading a result does not check for more values than it reads: a newer peer may add some.
struct CallResults<Results: Sendable>: Sendable {
    /// §8's spellings, in order; empty when the RETURN carries no values.
    let spellings: [String]
    let encode: @Sendable (Results) -> [WireValue]
    let decode: @Sendable (inout CallReader) throws(CallFault) -> Results
}

extension CallResults where Results == Void {
    /// No values (§8's "—").
    static var nothing: CallResults { CallResults(spellings: [], encode: { _ in [] }, decode: { _ in }) }
}

extension CallResults {
    /// One value.
    static func one(_ value: CallValue<Results>) -> CallResults {
        CallResults(spellings: [value.spelling], encode: { [value.encode($0)] },
                    decode: { reader throws(CallFault) in try value.decode(&reader) })
    }
}
