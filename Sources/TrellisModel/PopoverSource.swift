/// The corner of a popover's source view that its source rect is measured from (R62), as a
/// view with flexible margins on the other sides stays at that corner when its superview
/// resizes: a bar button item at the right end of a navigation bar is 8 points in from the
/// view's top right corner whatever the view's width (a storyboard's stand-in for
/// `popoverAnchorBarButtonItem`, SPEC §11), where a rect measured from the top left corner
/// would stay where the preview device's width put it.
public enum PopoverSourceCorner: String, Sendable, Equatable, CaseIterable {
    /// From the view's top left corner: x and y as a frame's origin (the default).
    case topLeft
    /// From its top right corner: x from the view's right edge to the rect's.
    case topRight
    /// From its bottom left corner: y from the view's bottom edge to the rect's.
    case bottomLeft
    /// From its bottom right corner: x and y from the right and bottom edges.
    case bottomRight

    /// `rect`, measured from this corner of a view of `size` to the rect's own nearest
    /// corner, in the view's coordinates (origin at its top left): on the right, x is the
    /// distance from the view's right edge to the rect's; at the bottom, y from its bottom edge.
    public func rect(_ rect: Rect, inViewOf size: Size) -> Rect {
        switch self {
        case .topLeft:
            return rect
        case .topRight:
            return Rect(x: size.width - rect.origin.x - rect.size.width, y: rect.origin.y, width: rect.size.width, height: rect.size.height)
        case .bottomLeft:
            return Rect(x: rect.origin.x, y: size.height - rect.origin.y - rect.size.height, width: rect.size.width, height: rect.size.height)
        case .bottomRight:
            return Rect(x: size.width - rect.origin.x - rect.size.width, y: size.height - rect.origin.y - rect.size.height,
                        width: rect.size.width, height: rect.size.height)
        }
    }
}

/// Where a popover points from (R62): a scenario's `popoverSource`, a segue's `anchor`, a
/// storyboard's popover anchor.
public struct PopoverSource: Sendable, Equatable {
    /// The controller whose view the popover points from.
    public var view: ControllerID
    /// The rect it points from, in that view's coordinates, measured from `corner`.
    public var rect: Rect
    /// The corner of the view `rect` is measured from (`"corner"`, default top left).
    public var corner: PopoverSourceCorner

    /// A popover source in `view`'s coordinates, measured from `corner`.
    public init(view: ControllerID, rect: Rect, corner: PopoverSourceCorner = .topLeft) {
        self.view = view
        self.rect = rect
        self.corner = corner
    }
}
