/// The corner of a popover's source view that its source rect is measured from (R62), as a
/// view with flexible margins on the other sides stays at that corner when its superview
/// resizes: a bar button item at the right end of a navigation bar is 8 points in from the
/// view's top right corner whatever the view's width (a storyboard's stand-in for
/// `popoverAnchorBarButtonItem`, SPEC §11), where a rect measured from the top left corner
/// would stay where the preview device's width put it.
public enum PopoverSourceCorner: String, Sendable, Equatable, CaseIterable {
    case topLeft, topRight, bottomLeft, bottomRight

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
