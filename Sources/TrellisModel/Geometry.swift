/// A width and height in points, as UIKit's `CGSize`.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(_ width: Double, _ height: Double) {
        self.init(width: width, height: height)
    }

    public static let zero = Size(0, 0)

    /// Canonical trace form: `WxH`, each number as `CanonicalNumber` prints it.
    public var description: String {
        CanonicalNumber.format(width) + "x" + CanonicalNumber.format(height)
    }
}

/// A position in points, as UIKit's `CGPoint`.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public init(_ x: Double, _ y: Double) {
        self.init(x: x, y: y)
    }

    public static let zero = Point(x: 0, y: 0)

    /// Canonical trace form: `x,y`, each number as `CanonicalNumber` prints it.
    public var description: String {
        CanonicalNumber.format(x) + "," + CanonicalNumber.format(y)
    }
}

/// A frame: origin and size, as UIKit's `CGRect`.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width, height))
    }

    public init(origin: Point = .zero, _ size: Size) {
        self.init(origin: origin, size: size)
    }

    public static let zero = Rect(origin: .zero, size: .zero)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
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
