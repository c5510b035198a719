/// A width and height in points, as UIKit's `CGSize`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size of `width` by `height` points.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of `width` by `height` points, unlabelled as a trace line writes it (`390x844`).
    public init(_ width: Double, _ height: Double) {
        self.init(width: width, height: height)
    }

    /// No width, no height. Computed and inlinable, not a stored `static let`: another module
    /// reads a stored one through its lazy global's accessor, a call on every use — in the
    /// router's layout pass, every controller (docs/decisions.md, "four children ahead").
    @inlinable public static var zero: Size { Size(width: 0, height: 0) }

    /// Canonical trace form: `WxH`, each number as `CanonicalNumber` prints it.
    public var description: String {
        CanonicalNumber.format(width) + "x" + CanonicalNumber.format(height)
    }
}

/// A position in points, as UIKit's `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal position in points.
    public var x: Double
    /// The vertical position in points.
    public var y: Double

    /// The point at `x`, `y`.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The point at `x`, `y`, unlabelled.
    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    /// The origin. Computed, as `Size.zero` is.
    @inlinable public static var zero: Point { Point(x: 0, y: 0) }

    /// Canonical trace form: `x,y`, each number as `CanonicalNumber` prints it.
    public var description: String {
        CanonicalNumber.format(x) + "," + CanonicalNumber.format(y)
    }
}

/// A frame: origin and size, as UIKit's `CGRect`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The width and height.
    public var size: Size

    /// The rect at `origin` of `size`.
    @inlinable
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// The rect at `x`, `y` of `width` by `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width, height))
    }

    /// A rect of `size` at `origin` (by default the origin of its container).
    public init(origin: Point = .zero, _ size: Size) {
        self.init(origin: origin, size: size)
    }

    /// An empty rect at the origin. Computed, as `Size.zero` is.
    @inlinable public static var zero: Rect { Rect(origin: .zero, size: .zero) }

    /// The left edge.
    public var minX: Double { origin.x }
    /// The top edge.
    public var minY: Double { origin.y }
    /// The right edge.
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge.
    public var maxY: Double { origin.y + size.height }
    /// The horizontal centre.
    public var midX: Double { origin.x + size.width / 2 }
    /// The vertical centre.
    public var midY: Double { origin.y + size.height / 2 }

    /// This rect moved by `offset` (a frame given in a container's coordinates, in its
    /// container's container's coordinates).
    public func offset(by offset: Point) -> Rect {
        Rect(origin: Point(x: origin.x + offset.x, y: origin.y + offset.y), size: size)
    }

    /// Canonical trace form (SPEC R63): `x,y WxH`.
    public var description: String {
        origin.description + " " + size.description
    }
}
