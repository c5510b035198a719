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
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)
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

    public var description: String {
        "(" + CanonicalNumber.format(origin.x) + "," + CanonicalNumber.format(origin.y) + " " + size.description + ")"
    }
}
