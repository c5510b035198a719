import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// Why a CALL was not served — an argument that could not be read, a target that cannot take
/// the call — or why a RETURN's results could not be read: becomes a RETURN fault with this text.
struct CallFault: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Reads a CALL's arguments (or a RETURN's results) in order, each of the type the call's
/// declaration (`ControllerCalls`) gives it. The texts of its faults are TWP §8's.
struct CallReader {
    let code: WireCallCode
    let values: [WireValue]
    /// The nodes of the run: a cause names an event one of them recorded.
    let runNodes: Set<String>
    private var index = 0

    init(code: WireCallCode, values: [WireValue], runNodes: Set<String>) {
        self.code = code
        self.values = values
        self.runNodes = runNodes
    }

    /// TWP/1 §8: a CALL with more arguments than its code takes (a `snapshot` with one) is
    /// refused before anything is done — a missing or mistyped argument is found as it is read.
    func checkNoMoreThan(_ expected: Int) throws(CallFault) {
        guard values.count > expected else { return }
        throw CallFault("\(code): \(values.count) argument\(values.count == 1 ? "" : "s"), expected \(expected == 0 ? "none" : "\(expected)")")
    }

    /// The next value, if there is one, without checking its type: an optional trailing result.
    mutating func trailing() -> WireValue? {
        guard index < values.count else { return nil }
        defer { index += 1 }
        return values[index]
    }

    private mutating func next(_ what: String) throws(CallFault) -> WireValue {
        guard index < values.count else {
            throw CallFault("\(code): argument \(index + 1) (\(what)) is missing")
        }
        defer { index += 1 }
        return values[index]
    }

    private func mismatch(_ what: String, _ value: WireValue) -> CallFault {
        CallFault("\(code): argument \(index) must be \(what), got \(value.tag)")
    }

    mutating func size() throws(CallFault) -> Size {
        let value = try next("a size")
        guard case let .size(size) = value else { throw mismatch("a size", value) }
        return size
    }

    mutating func rect() throws(CallFault) -> Rect {
        let value = try next("a rect")
        guard case let .rect(rect) = value else { throw mismatch("a rect", value) }
        return rect
    }

    mutating func optionalRect() throws(CallFault) -> Rect? {
        let value = try next("a rect or none")
        switch value {
        case .none: return nil
        case let .rect(rect): return rect
        default: throw mismatch("a rect or none", value)
        }
    }

    mutating func traits() throws(CallFault) -> TraitCollection {
        let value = try next("traits")
        guard case let .traits(traits) = value else { throw mismatch("traits", value) }
        return traits
    }

    mutating func optionalTraits() throws(CallFault) -> TraitCollection? {
        let value = try next("traits or none")
        switch value {
        case .none: return nil
        case let .traits(traits): return traits
        default: throw mismatch("traits or none", value)
        }
    }

    mutating func bool() throws(CallFault) -> Bool {
        let value = try next("a bool")
        guard case let .bool(flag) = value else { throw mismatch("a bool", value) }
        return flag
    }

    mutating func int() throws(CallFault) -> Int {
        let value = try next("an int")
        guard case let .int(number) = value, let result = Int(exactly: number) else { throw mismatch("an int", value) }
        return result
    }

    mutating func string() throws(CallFault) -> String {
        let value = try next("a string")
        guard case let .string(text) = value else { throw mismatch("a string", value) }
        return text
    }

    mutating func address() throws(CallFault) -> WireAddress {
        let value = try next("an address")
        guard case let .address(address) = value else { throw mismatch("an address", value) }
        return address
    }

    mutating func optionalAddress() throws(CallFault) -> WireAddress? {
        let value = try next("an address or none")
        switch value {
        case .none: return nil
        case let .address(address): return address
        default: throw mismatch("an address or none", value)
        }
    }

    mutating func transition() throws(CallFault) -> TransitionInfo {
        let value = try next("a transition")
        guard case let .transition(wire) = value, let id = Int(exactly: wire.id) else { throw mismatch("a transition", value) }
        return TransitionInfo(id: id, isAnimated: wire.animated, duration: wire.duration,
                              windowTraits: wire.windowTraits, windowSize: wire.windowSize)
    }

    /// An optional tail (TWP/1.4 §8): nil when the CALL ends before it, or carries none.
    mutating func transitionTail() throws(CallFault) -> TransitionInfo? {
        guard index < values.count else { return nil }
        if case .none = values[index] {
            index += 1
            return nil
        }
        return try transition()
    }

    mutating func cause() throws(CallFault) -> EventRef? {
        let value = try next("an event ref or none")
        switch value {
        case .none: return nil
        case let .eventRef(ref):
            // Every cause goes into the trace's table of node names: one naming no node of the
            // run is wrong, and a peer sending many would grow that table without bound.
            guard runNodes.contains(ref.node) else {
                throw CallFault("\(code): cause \(ref.node)#\(ref.sequence) names no node of this run")
            }
            return EventRef(node: ref.node, sequence: ref.sequence)
        default: throw mismatch("an event ref or none", value)
        }
    }

    mutating func appearance() throws(CallFault) -> AppearanceCallback {
        let name = try string()
        guard let callback = AppearanceCallback(rawValue: name) else {
            throw CallFault("\(code): unknown appearance callback \"\(name)\"")
        }
        return callback
    }

    mutating func presentationCallback() throws(CallFault) -> PresentationCallback {
        let name = try string()
        guard let callback = PresentationCallback(rawValue: name) else {
            throw CallFault("\(code): unknown presentation callback \"\(name)\"")
        }
        return callback
    }

    mutating func list() throws(CallFault) -> [WireValue] {
        let value = try next("a list")
        guard case let .list(items) = value else { throw mismatch("a list", value) }
        return items
    }

    mutating func style() throws(CallFault) -> ModalPresentationStyle {
        let name = try string()
        guard let style = ModalPresentationStyle(rawValue: name) else {
            throw CallFault("\(code): unknown presentation style \"\(name)\"")
        }
        return style
    }
}
