import TrellisModel
import TrellisRuntime
import TrellisTrace
import TrellisWire

/// Conversions between the runtime's values and the wire's (`Protocols/wire-protocol.md`).
enum WireMarshalling {
    static func value(_ transition: TransitionInfo) -> WireValue {
        .transition(WireTransition(
            id: Int64(transition.id), animated: transition.isAnimated, duration: transition.duration,
            windowTraits: transition.windowTraits, windowSize: transition.windowSize))
    }

    static func value(_ cause: EventRef?) -> WireValue {
        cause.map { .eventRef(WireEventRef(node: $0.node, sequence: $0.sequence)) } ?? .none
    }
}

/// Why a CALL's arguments could not be read: becomes a RETURN fault naming the argument.
struct CallArgumentError: Error, CustomStringConvertible {
    var description: String
}

/// Reads a CALL's arguments in order, each of the type the call code documents.
struct CallArguments {
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
    func checkNoExtraArguments() throws(CallArgumentError) {
        let expected = Self.argumentCount(of: code)
        guard values.count > expected else { return }
        throw CallArgumentError(description: "\(code): \(values.count) argument\(values.count == 1 ? "" : "s"), expected \(expected == 0 ? "none" : "\(expected)")")
    }

    /// How many arguments each call code takes (TWP/1 §8's table).
    static func argumentCount(of code: WireCallCode) -> Int {
        switch code {
        case .snapshot, .detachPresentation, .removeLastChild, .prepareDisplayed, .presentationState: 0
        case .applyPendingTraits, .notifySystemLayoutFittingSizeDidChange, .setContainer, .appendChild, .childFrame,
             .adaptForPresentation, .initialPresentationLayout, .popoverSourceRect, .windowTransition: 1
        case .layout, .systemLayoutFittingSizeDidChange, .appearance, .setPreferredContentSize, .attachPresentation,
             .replaceChild, .select, .showChild, .displayedAppearance, .wrapperChanged: 2
        case .viewWillTransition, .preferredContentSizeDidChange, .initialLayout, .refresh, .presentationCallback: 3
        case .traitTransition, .setOverrideTraits: 4
        case .makePresentationController: 5
        }
    }

    private mutating func next(_ what: String) throws(CallArgumentError) -> WireValue {
        guard index < values.count else {
            throw CallArgumentError(description: "\(code): argument \(index + 1) (\(what)) is missing")
        }
        defer { index += 1 }
        return values[index]
    }

    private func mismatch(_ what: String, _ value: WireValue) -> CallArgumentError {
        CallArgumentError(description: "\(code): argument \(index) must be \(what), got \(value.tag)")
    }

    mutating func size() throws(CallArgumentError) -> Size {
        let value = try next("a size")
        guard case let .size(size) = value else { throw mismatch("a size", value) }
        return size
    }

    mutating func rect() throws(CallArgumentError) -> Rect {
        let value = try next("a rect")
        guard case let .rect(rect) = value else { throw mismatch("a rect", value) }
        return rect
    }

    mutating func optionalRect() throws(CallArgumentError) -> Rect? {
        let value = try next("a rect or none")
        switch value {
        case .none: return nil
        case let .rect(rect): return rect
        default: throw mismatch("a rect or none", value)
        }
    }

    mutating func traits() throws(CallArgumentError) -> TraitCollection {
        let value = try next("traits")
        guard case let .traits(traits) = value else { throw mismatch("traits", value) }
        return traits
    }

    mutating func optionalTraits() throws(CallArgumentError) -> TraitCollection? {
        let value = try next("traits or none")
        switch value {
        case .none: return nil
        case let .traits(traits): return traits
        default: throw mismatch("traits or none", value)
        }
    }

    mutating func bool() throws(CallArgumentError) -> Bool {
        let value = try next("a bool")
        guard case let .bool(flag) = value else { throw mismatch("a bool", value) }
        return flag
    }

    mutating func int() throws(CallArgumentError) -> Int {
        let value = try next("an int")
        guard case let .int(number) = value, let result = Int(exactly: number) else { throw mismatch("an int", value) }
        return result
    }

    mutating func string() throws(CallArgumentError) -> String {
        let value = try next("a string")
        guard case let .string(text) = value else { throw mismatch("a string", value) }
        return text
    }

    mutating func address() throws(CallArgumentError) -> WireAddress {
        let value = try next("an address")
        guard case let .address(address) = value else { throw mismatch("an address", value) }
        return address
    }

    mutating func optionalAddress() throws(CallArgumentError) -> WireAddress? {
        let value = try next("an address or none")
        switch value {
        case .none: return nil
        case let .address(address): return address
        default: throw mismatch("an address or none", value)
        }
    }

    mutating func transition() throws(CallArgumentError) -> TransitionInfo {
        let value = try next("a transition")
        guard case let .transition(wire) = value, let id = Int(exactly: wire.id) else { throw mismatch("a transition", value) }
        return TransitionInfo(id: id, isAnimated: wire.animated, duration: wire.duration,
                              windowTraits: wire.windowTraits, windowSize: wire.windowSize)
    }

    mutating func cause() throws(CallArgumentError) -> EventRef? {
        let value = try next("an event ref or none")
        switch value {
        case .none: return nil
        case let .eventRef(ref):
            // Every cause goes into the trace's table of node names: one naming no node of the
            // run is wrong, and a peer sending many would grow that table without bound.
            guard runNodes.contains(ref.node) else {
                throw CallArgumentError(description: "\(code): cause \(ref.node)#\(ref.sequence) names no node of this run")
            }
            return EventRef(node: ref.node, sequence: ref.sequence)
        default: throw mismatch("an event ref or none", value)
        }
    }

    mutating func appearance() throws(CallArgumentError) -> AppearanceCallback {
        let name = try string()
        guard let callback = AppearanceCallback(rawValue: name) else {
            throw CallArgumentError(description: "\(code): unknown appearance callback \"\(name)\"")
        }
        return callback
    }

    mutating func presentationCallback() throws(CallArgumentError) -> PresentationCallback {
        let name = try string()
        guard let callback = PresentationCallback(rawValue: name) else {
            throw CallArgumentError(description: "\(code): unknown presentation callback \"\(name)\"")
        }
        return callback
    }

    mutating func style() throws(CallArgumentError) -> ModalPresentationStyle {
        let name = try string()
        guard let style = ModalPresentationStyle(rawValue: name) else {
            throw CallArgumentError(description: "\(code): unknown presentation style \"\(name)\"")
        }
        return style
    }
}
