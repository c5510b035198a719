import TrellisModel
import TrellisRuntime

/// What a test asserts of one controller's state (its `ControllerSnapshot`): each field that is
/// set is compared, a field left nil is not. A mismatch is reported field by field, with plain
/// values (`320x634`, not `Optional(320x634)`).
///
/// ```swift
/// await store.expectState(of: "V", ExpectedState(size: Size(320, 634), preferredContentSize: Size(320, 700)))
/// ```
public struct ExpectedState: Sendable, Equatable {
    /// Its size (its view's bounds); nil: not compared.
    public var size: Size?
    /// Its effective traits; nil: not compared.
    public var traits: TraitCollection?
    /// The size it asks its container for; nil: not compared.
    public var preferredContentSize: Size?
    /// The frame its container gave it (R60), in the container's coordinates.
    public var frame: Rect?

    /// An expectation of the fields given; the others are not compared.
    public init(size: Size? = nil, traits: TraitCollection? = nil, preferredContentSize: Size? = nil, frame: Rect? = nil) {
        self.size = size
        self.traits = traits
        self.preferredContentSize = preferredContentSize
        self.frame = frame
    }

    /// One row per field: its name, what was expected (nil: not asserted) and what the
    /// controller has. A new field of the state is one more row here.
    func fields(against actual: ControllerSnapshot) -> [(name: String, expected: String?, actual: String)] {
        [
            ("size", size?.description, actual.size.description),
            ("traits", traits?.description, actual.traitCollection.description),
            ("preferredContentSize", preferredContentSize?.description, actual.preferredContentSize.description),
            ("frame", frame?.description, actual.frame.description),
        ]
    }

    /// The readable diff when some asserted field differs, nil when all hold: each asserted
    /// field on its line, `-` the expected value and `+` the actual one where they differ.
    public func mismatch(against actual: ControllerSnapshot, of controller: ControllerID) -> String? {
        let asserted = fields(against: actual).compactMap { field in
            field.expected.map { (name: field.name, expected: $0, actual: field.actual) }
        }
        guard asserted.contains(where: { $0.expected != $0.actual }) else { return nil }
        let width = asserted.map(\.name.count).max() ?? 0
        let rows = asserted.flatMap { field -> [String] in
            let label = field.name + ":" + String(repeating: " ", count: width - field.name.count)
            if field.expected == field.actual { return ["    \(label) \(field.expected)"] }
            return ["  - \(label) \(field.expected)", "  + \(label) \(field.actual)"]
        }
        return (["the state of \(controller) differs from the expectation (- expected, + actual):"] + rows)
            .joined(separator: "\n")
    }
}
