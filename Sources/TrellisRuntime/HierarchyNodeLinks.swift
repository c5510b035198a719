import TrellisModel

/// A structure node's presentation links and popover source (`HierarchyStructure.Node`), in
/// one immutable box that every node without any of them shares by having none: most
/// controllers of a large hierarchy neither present nor are presented, and the window keeps
/// a node for each. A change stores a new box (presentations are rare), so a node stays a
/// value: a copy never sees another's change.
struct HierarchyNodeLinks: Sendable, Equatable {
    struct Fields: Sendable, Equatable {
        var presented: ControllerID?
        var presenting: ControllerID?
        var popoverSourceView: ControllerID?
        var popoverSourceRect: Rect?
        var popoverSourceCorner = PopoverSourceCorner.topLeft

        var isEmpty: Bool {
            presented == nil && presenting == nil && popoverSourceView == nil && popoverSourceRect == nil && popoverSourceCorner == .topLeft
        }
    }

    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// Nil when every field is nil.
    private var box: Box?

    init(popoverSourceView: ControllerID?, popoverSourceRect: Rect?, popoverSourceCorner: PopoverSourceCorner) {
        self.init(Fields(popoverSourceView: popoverSourceView, popoverSourceRect: popoverSourceRect, popoverSourceCorner: popoverSourceCorner))
    }

    private init(_ fields: Fields) {
        box = fields.isEmpty ? nil : Box(fields)
    }

    private var fields: Fields { box?.fields ?? Fields() }

    var presented: ControllerID? {
        get { box?.fields.presented }
        set { change { $0.presented = newValue } }
    }

    var presenting: ControllerID? {
        get { box?.fields.presenting }
        set { change { $0.presenting = newValue } }
    }

    var popoverSourceView: ControllerID? {
        get { box?.fields.popoverSourceView }
        set { change { $0.popoverSourceView = newValue } }
    }

    var popoverSourceRect: Rect? {
        get { box?.fields.popoverSourceRect }
        set { change { $0.popoverSourceRect = newValue } }
    }

    var popoverSourceCorner: PopoverSourceCorner {
        get { box?.fields.popoverSourceCorner ?? .topLeft }
        set { change { $0.popoverSourceCorner = newValue } }
    }

    private mutating func change(_ body: (inout Fields) -> Void) {
        var changed = fields
        body(&changed)
        self = HierarchyNodeLinks(changed)
    }

    static func == (lhs: HierarchyNodeLinks, rhs: HierarchyNodeLinks) -> Bool {
        lhs.fields == rhs.fields
    }
}
