import TrellisModel

/// What a capture codec does with one field of a message, as `TraceMessageSchema.fields` visits
/// them: a writer writes the value it is given and returns it; a reader reads the field and
/// returns what it read (the value it is given is a prototype's, which it ignores, except for a
/// `variant` that JSON Lines keeps in the message name).
///
/// `key` is the field's key in a JSON Lines payload (`Protocols/trace-format.md`); the compact
/// form (`Protocols/compact-trace-format.md` §4) has no keys and writes the fields in the order
/// they are visited. Both forms implement every method, so a new field type does not compile
/// until both say how they write and read it.
@usableFromInline
package protocol TraceFieldCoder {
    associatedtype Failure: Error
    /// A whole number: a JSON number (read non-negative); a zigzag varint.
    mutating func integer(_ key: String, _ value: Int) throws(Failure) -> Int
    /// Free text: a JSON string; a length and its UTF-8 bytes.
    mutating func text(_ key: String, _ value: String) throws(Failure) -> String
    /// A word of a small vocabulary (a message name, an action): a JSON string; an index into
    /// the compact form's name table, so that it is written once per file.
    mutating func name(_ key: String, _ value: String) throws(Failure) -> String
    /// A style or other named case: its raw value, as `name`.
    mutating func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) throws(Failure) -> Value
    mutating func controller(_ key: String, _ value: ControllerID) throws(Failure) -> ControllerID
    /// Controllers in order: a JSON array of names; a count, then name-table indices.
    mutating func controllers(_ key: String, _ value: [ControllerID]) throws(Failure) -> [ControllerID]
    /// `[width, height]`; a size-table index.
    mutating func size(_ key: String, _ value: Size) throws(Failure) -> Size
    /// `[x, y, width, height]`; two size-table indices, the origin's (x as width) and the size's.
    mutating func rect(_ key: String, _ value: Rect) throws(Failure) -> Rect
    /// A layout pass's frame, which the message may lack: the key left out; a frame marker.
    mutating func frame(_ key: String, _ value: Rect?) throws(Failure) -> Rect?
    /// The seven traits: a JSON object; three names, the scale as a double, three names.
    mutating func traits(_ key: String, _ value: TraitCollection) throws(Failure) -> TraitCollection
    /// `true` or `false`; a byte, 1 or 0.
    mutating func flag(_ key: String, _ value: Bool) throws(Failure) -> Bool
    /// One of a few cases that JSON Lines tells apart by the message name (and so does not
    /// write) and the compact form by a byte: the case's position in `allCases`. `field` names
    /// it in the compact reader's messages.
    mutating func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) throws(Failure) -> Value
    /// A two-way `variant` (`show` or `showDetail`): a byte, 1 or 0.
    mutating func variant(_ field: String, _ value: Bool) throws(Failure) -> Bool
}

/// The trace vocabulary's schema, declared once: each message's compact event code
/// (`Protocols/compact-trace-format.md` §4) and its fields in order, each with its JSON Lines key
/// (`Protocols/trace-format.md` §3) and type. Both capture codecs write and read every message
/// through `fields`; its name, kind and canonical text are `TraceMessage`'s.
///
/// A new message is a case of `TraceMessage` (with its name, kind and canonical text), a
/// prototype in `prototypes` and an arm in `fields` here; the codecs, `eventNames` and the
/// readers' tables follow.
///
/// Public only so that the codecs in TrellisTraceFiles can specialize `fields` for their coders
/// (the compiler inlines across modules only from a public type); its members are the package's.
public enum TraceMessageSchema {
    /// One message of each name (its values do not matter): how a reader learns which message
    /// a JSON Lines name or a compact code stands for.
    package static let prototypes: [TraceMessage] = [
        .step(number: 0, description: ""),
        .viewWillTransition(to: .zero),
        .sizeForChild(child: "", parent: .zero, answer: .zero),
        .frameOfPresentedView(.zero),
        .willTransition(to: TraitCollection()),
        .traitCollectionDidChange(previous: TraitCollection()),
        .preferredContentSizeDidChange(child: ""),
        .systemLayoutFittingSizeDidChange(child: ""),
        .suppressed(message: "", cut: []),
        .alongsideTransition(transition: 0),
        .transitionCompletion(transition: 0),
        .warning(""), .error(""), .fault(""), .note(""),
        .present("", style: .automatic, transitionStyle: .coverVertical),
        .dismiss(""),
        .adaptivePresentationStyle(.none),
        .willPresentWithAdaptiveStyle(.none),
        .completion(action: "present", ""), .completion(action: "dismiss", ""),
        .show("", detail: false), .show("", detail: true),
        .push(""), .pop(""), .replaceDetail(""),
        .select("", index: 0),
        .action(name: "", value: ""), .request(""),
    ] + LayoutCallback.allCases.map { .layout($0) }
        + AppearanceCallback.allCases.map { .appearance($0) }
        + PresentationCallback.allCases.map { .presentationTransition($0, value: false) }

    /// Each message's compact code and its fields, visited in order by `coder`, which writes or
    /// reads them; returns the code and the message made of the fields' values (the message
    /// given, for a writer; the one read, for a reader given a prototype).
    @inlinable
    package static func fields<Coder: TraceFieldCoder>(
        of message: TraceMessage, _ c: inout Coder
    ) throws(Coder.Failure) -> (code: UInt8, message: TraceMessage) {
        switch message {
        case let .step(number, description):
            return (0, .step(number: try c.integer("number", number), description: try c.text("description", description)))
        case let .viewWillTransition(to):
            return (1, .viewWillTransition(to: try c.size("to", to)))
        case let .sizeForChild(child, parent, answer):
            return (2, .sizeForChild(child: try c.controller("child", child), parent: try c.size("parent", parent), answer: try c.size("answer", answer)))
        case let .frameOfPresentedView(frame):
            return (3, .frameOfPresentedView(try c.rect("frame", frame)))
        case let .willTransition(to):
            return (4, .willTransition(to: try c.traits("to", to)))
        case let .traitCollectionDidChange(previous):
            return (5, .traitCollectionDidChange(previous: try c.traits("previous", previous)))
        case let .preferredContentSizeDidChange(child):
            return (6, .preferredContentSizeDidChange(child: try c.controller("child", child)))
        case let .systemLayoutFittingSizeDidChange(child):
            return (7, .systemLayoutFittingSizeDidChange(child: try c.controller("child", child)))
        case let .suppressed(name, cut):
            return (8, .suppressed(message: try c.name("message", name), cut: try c.controllers("cut", cut)))
        case let .layout(callback, frame):
            return (code(of: callback), .layout(callback, frame: try c.frame("frame", frame)))
        case let .alongsideTransition(transition):
            return (13, .alongsideTransition(transition: try c.integer("transition", transition)))
        case let .transitionCompletion(transition):
            return (14, .transitionCompletion(transition: try c.integer("transition", transition)))
        case let .warning(text): return (15, .warning(try c.text("text", text)))
        case let .error(text): return (16, .error(try c.text("text", text)))
        case let .fault(text): return (17, .fault(try c.text("text", text)))
        case let .note(text): return (18, .note(try c.text("text", text)))
        case let .appearance(callback):
            return (19, .appearance(try c.variant("callback", callback)))
        case let .presentationTransition(callback, value):
            let callback = try c.variant("callback", callback)
            return (20, .presentationTransition(callback, value: try c.flag(callback.valueName, value)))
        case let .present(presented, style, transitionStyle):
            return (21, .present(
                try c.controller("presented", presented), style: try c.named("style", style),
                transitionStyle: try c.named("transitionStyle", transitionStyle)))
        case let .dismiss(presented):
            return (22, .dismiss(try c.controller("presented", presented)))
        case let .adaptivePresentationStyle(style):
            return (23, .adaptivePresentationStyle(try c.named("style", style)))
        case let .willPresentWithAdaptiveStyle(style):
            return (24, .willPresentWithAdaptiveStyle(try c.named("style", style)))
        case let .completion(action, target):
            return (25, .completion(action: try c.name("action", action), try c.controller("target", target)))
        case let .show(child, detail):
            return (26, .show(try c.controller("child", child), detail: try c.variant("detail", detail)))
        case let .push(child): return (27, .push(try c.controller("child", child)))
        case let .pop(child): return (28, .pop(try c.controller("child", child)))
        case let .replaceDetail(child): return (29, .replaceDetail(try c.controller("child", child)))
        case let .select(child, index):
            return (30, .select(try c.controller("child", child), index: try c.integer("index", index)))
        case let .action(name, value):
            return (31, .action(name: try c.name("action", name), value: try c.text("value", value)))
        case let .request(text): return (32, .request(try c.text("text", text)))
        }
    }

    /// The layout callbacks' codes: one each, so that a layout event needs no variant byte.
    @inlinable
    static func code(of callback: LayoutCallback) -> UInt8 {
        switch callback {
        case .viewWillLayoutSubviews: return 9
        case .viewDidLayoutSubviews: return 10
        case .containerViewWillLayoutSubviews: return 11
        case .containerViewDidLayoutSubviews: return 12
        }
    }

    /// The compact code of `message`.
    package static func code(of message: TraceMessage) -> UInt8 {
        var probe = Probe()
        return fields(of: message, &probe).code
    }

    /// The prototypes of each compact code, in code order: one, or the variants a `variant`
    /// field tells apart (empty for a code no message has).
    package static let prototypesByCode: [[TraceMessage]] = {
        var byCode: [[TraceMessage]] = []
        for prototype in prototypes {
            let code = Int(code(of: prototype))
            if byCode.count <= code { byCode += repeatElement([], count: code + 1 - byCode.count) }
            byCode[code].append(prototype)
        }
        return byCode
    }()

    /// The prototype of each JSON Lines message name.
    package static let prototypesByName: [String: TraceMessage] = Dictionary(
        prototypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    /// What names a compact code in a reader's messages: its message's name, or its variants'.
    package static func label(ofCode code: UInt8) -> String {
        guard Int(code) < prototypesByCode.count, !prototypesByCode[Int(code)].isEmpty else { return "unknown" }
        return prototypesByCode[Int(code)].map(\.name).joined(separator: " or ")
    }

    /// A coder that visits the fields and keeps their values: for learning a message's code.
    private struct Probe: TraceFieldCoder {
        typealias Failure = Never
        func integer(_ key: String, _ value: Int) -> Int { value }
        func text(_ key: String, _ value: String) -> String { value }
        func name(_ key: String, _ value: String) -> String { value }
        func named<Value: RawRepresentable<String>>(_ key: String, _ value: Value) -> Value { value }
        func controller(_ key: String, _ value: ControllerID) -> ControllerID { value }
        func controllers(_ key: String, _ value: [ControllerID]) -> [ControllerID] { value }
        func size(_ key: String, _ value: Size) -> Size { value }
        func rect(_ key: String, _ value: Rect) -> Rect { value }
        func frame(_ key: String, _ value: Rect?) -> Rect? { value }
        func traits(_ key: String, _ value: TraitCollection) -> TraitCollection { value }
        func flag(_ key: String, _ value: Bool) -> Bool { value }
        func variant<Value: CaseIterable & Equatable>(_ field: String, _ value: Value) -> Value { value }
        func variant(_ field: String, _ value: Bool) -> Bool { value }
    }
}

extension TraceMessage {
    /// Every message name an event line can carry (`name`, the kind of an `expect` line), so
    /// that a scenario's `expect` lines can be checked before anything runs: every message's
    /// but the step header's.
    public static let eventNames: Set<String> = Set(TraceMessageSchema.prototypes.map(\.name)).subtracting(["step"])

    /// Every category an event line can carry (`kind`: `delivery`, `query`…), the step header's
    /// excepted.
    public static let eventKinds: Set<String> = Set(TraceMessageSchema.prototypes.map(\.kind)).subtracting(["step"])
}
