import TrellisJSON
import TrellisModel
import TrellisRuntime
import TrellisWire

// The values of the calls that carry SPEC §4.2 over the wire (TWP §8: performAction,
// setPresentedViewFrame, behaviorRequest): an action's JSON value, what became of the action,
// and a behaviour's request.

extension CallValue where Value == ActionValue? {
    /// An action's value as exact compact JSON text (RFC 8259), the empty string for none: every
    /// node language has a JSON reader, and a number arrives as the `Double` sent (not the
    /// trace's rounded text).
    static var actionValue: CallValue {
        CallValue("string", encode: { .string($0?.jsonText ?? "") }, decode: { reader throws(CallFault) in
            let text = try reader.string()
            guard !text.isEmpty else { return nil }
            do throws(JSONParser.SyntaxError) {
                return ActionValue(json: try JSONParser.parse(text).value)
            } catch {
                throw CallFault("\(reader.code): the action's value is not JSON (\(error))")
            }
        })
    }
}

extension CallResults where Results == ActionOutcome {
    /// `string outcome, string expected, string got`: `handled`, `notHandled`, or
    /// `wrongValueType` with the JSON type the behaviour expects and the one it got ("" for none).
    static var actionOutcome: CallResults {
        CallResults(
            spellings: ["string outcome", "string expected", "string got"],
            encode: { outcome in
                switch outcome {
                case .handled: return [.string("handled"), .string(""), .string("")]
                case .notHandled: return [.string("notHandled"), .string(""), .string("")]
                case let .wrongValueType(expected, got):
                    return [.string("wrongValueType"), .string(expected.rawValue), .string(got?.rawValue ?? "")]
                }
            },
            decode: { reader throws(CallFault) in
                let outcome = try reader.string()
                let expected = try reader.string()
                let got = try reader.string()
                switch outcome {
                case "handled": return .handled
                case "notHandled": return .notHandled
                case "wrongValueType":
                    guard let type = ActionValueType(rawValue: expected) else {
                        throw CallFault("\(reader.code): unknown JSON type \"\(expected)\"")
                    }
                    return .wrongValueType(expected: type, got: ActionValueType(rawValue: got))
                default: throw CallFault("\(reader.code): unknown action outcome \"\(outcome)\"")
                }
            })
    }
}

extension CallValue where Value == BehaviorRequest {
    /// A request as a list: its name, then its fields — `present`: string id, bool animated,
    /// string style or none; `dismiss`: bool animated; `show`, `showDetail`: string id;
    /// `setPreferredContentSize`: size; `setTraitOverride`: string child, traits or none;
    /// `setPresentedViewFrame`: rect; `setNeedsLayout`: nothing (since 1.7).
    static var request: CallValue {
        CallValue("list", encode: { .list(encoded($0)) }, decode: { reader throws(CallFault) in
            var fields = CallReader(code: reader.code, values: try reader.list(), runNodes: reader.runNodes)
            return try decoded(&fields)
        })
    }

    private static func encoded(_ request: BehaviorRequest) -> [WireValue] {
        switch request {
        case let .present(id, animated, style):
            return [.string("present"), .string(id.name), .bool(animated), style.map { .string($0.rawValue) } ?? .none]
        case let .dismiss(animated): return [.string("dismiss"), .bool(animated)]
        case let .show(id): return [.string("show"), .string(id.name)]
        case let .showDetail(id): return [.string("showDetail"), .string(id.name)]
        case let .setPreferredContentSize(size): return [.string("setPreferredContentSize"), .size(size)]
        case let .setTraitOverride(child, traits): return [.string("setTraitOverride"), .string(child.name), traits.map { .traits($0) } ?? .none]
        case let .setPresentedViewFrame(frame): return [.string("setPresentedViewFrame"), .rect(frame)]
        case .setNeedsLayout: return [.string("setNeedsLayout")]
        }
    }

    private static func decoded(_ fields: inout CallReader) throws(CallFault) -> BehaviorRequest {
        let name = try fields.string()
        switch name {
        case "present":
            let id = ControllerID(try fields.string())
            let animated = try fields.bool()
            var style: ModalPresentationStyle?
            switch fields.trailing() {
            case nil, .none?: style = nil
            case let .string(raw)?:
                guard let named = ModalPresentationStyle(rawValue: raw) else { throw CallFault("\(fields.code): unknown presentation style \"\(raw)\"") }
                style = named
            case let other?: throw CallFault("\(fields.code): a request's style must be a string or none, got \(other.tag)")
            }
            return .present(id, animated: animated, style: style)
        case "dismiss": return .dismiss(animated: try fields.bool())
        case "show": return .show(ControllerID(try fields.string()))
        case "showDetail": return .showDetail(ControllerID(try fields.string()))
        case "setPreferredContentSize": return .setPreferredContentSize(try fields.size())
        case "setTraitOverride": return .setTraitOverride(child: ControllerID(try fields.string()), traits: try fields.optionalTraits())
        case "setPresentedViewFrame": return .setPresentedViewFrame(try fields.rect())
        case "setNeedsLayout": return .setNeedsLayout
        default: throw CallFault("\(fields.code): unknown request \"\(name)\"")
        }
    }
}
