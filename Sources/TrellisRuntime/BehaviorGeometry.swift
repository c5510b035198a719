import TrellisModel

/// SPEC §10 for sizes and frames that a behaviour's Swift code hands the runtime — a
/// `size(forChild:)` answer, a size forwarded or resized to, a preferred size, a presented view's
/// frame: a view's size is finite and not negative, its origin finite. UIKit refuses the same at
/// the layer (`CALayerInvalidGeometry`: "CALayer position contains NaN"); here what is refused
/// is an `error` line naming the controller and the call, and the runtime goes on with the
/// default's value (or without the request), so that no trace line, JSON Lines record or
/// compact capture ever holds a number that is not one (JSON has no NaN).
///
/// The scenario file's numbers are checked where they are read (JSON has no NaN either); these
/// are the ones only Swift code can make.
public enum BehaviorGeometry {
    /// What is wrong with `size` as a view's size, nil when nothing is.
    @inlinable
    public static func problem(with size: Size) -> String? {
        // NaN fails every comparison: one test for each side in the usual case.
        guard !(size.width >= 0 && size.width < .infinity && size.height >= 0 && size.height < .infinity) else { return nil }
        return side("width", size.width) ?? side("height", size.height)
    }

    /// Whether `size` is a view's size — what `problem(with:)` says nothing against — tested
    /// the cheap way first, for the size walk, which asks it of every `size(forChild:)` answer:
    /// a finite number not below zero has its sign bit clear and an exponent short of all ones,
    /// so both sides' bit patterns are below +infinity's (one comparison of their larger). Only
    /// -0, which is a size, fails that and is not refused: the words of `problem` decide then.
    @inlinable
    public static func isSize(_ size: Size) -> Bool {
        if _fastPath(max(size.width.bitPattern, size.height.bitPattern) < Double.infinity.bitPattern) { return true }
        return problem(with: size) == nil
    }

    /// What is wrong with `frame` as a view's frame, nil when nothing is: its size as
    /// `problem(with:)` says, its origin finite (it may be negative: a view can lie partly
    /// outside its superview).
    public static func problem(with frame: Rect) -> String? {
        if let problem = problem(with: frame.size) { return problem }
        for (name, value) in [("x", frame.origin.x), ("y", frame.origin.y)] where !value.isFinite {
            return "its \(name) is \(value.isNaN ? "not a number" : "infinite")"
        }
        return nil
    }

    @usableFromInline
    static func side(_ name: String, _ value: Double) -> String? {
        if value.isNaN { return "its \(name) is not a number" }
        if value.isInfinite { return "its \(name) is infinite" }
        if value < 0 { return "its \(name) is negative" }
        return nil
    }
}
